/**
 * WSDL 1.1 components -> IR SoapServices: one per portType, with the SOAP 1.1/1.2 bindings and ports implementing
 * it. Non-SOAP bindings (http:, others) are skipped: they describe other transports of the same operations.
 */
import type {
  Origin,
  SoapBinding,
  SoapBodyBinding,
  SoapHeaderBinding,
  SoapMessage,
  SoapOperation,
  SoapOperationBinding,
  SoapPart,
  SoapPort,
  SoapService,
} from "../../ir/model.js";
import { originPath } from "../host.js";
import { type XmlElement, attr, childrenNs, firstChild, normalizeDoc, resolveQName, specError, textContent, xpath } from "../xml/dom.js";
import { WSDL_NS } from "../xsd/builtins.js";
import { type Ctx, elementId } from "../xsd/context.js";
import { type SchemaDoc, key, unknown } from "../xsd/resolve.js";
import type { WsdlDecl, WsdlSet } from "./load.js";

export const SOAP11_NS = "http://schemas.xmlsoap.org/wsdl/soap/";
export const SOAP12_NS = "http://schemas.xmlsoap.org/wsdl/soap12/";

const wsdl = (el: XmlElement, local?: string) => childrenNs(el, WSDL_NS, local);

export function wsdlDoc(el: XmlElement): string | undefined {
  const parts = wsdl(el, "documentation")
    .map((d) => normalizeDoc(textContent(d)))
    .filter((t): t is string => t !== undefined);
  return parts.length ? parts.join("\n\n") : undefined;
}

function use(el: XmlElement): "literal" | "encoded" {
  const u = attr(el, "use") ?? "literal";
  if (u !== "literal" && u !== "encoded") throw specError(el, `invalid use '${u}'`);
  return u;
}

function style(el: XmlElement | undefined, dflt: "document" | "rpc"): "document" | "rpc" {
  const s = el ? attr(el, "style") : undefined;
  if (s === undefined) return dflt;
  if (s !== "document" && s !== "rpc") throw specError(el!, `invalid style '${s}'`);
  return s;
}

export class WsdlLowering {
  private readonly messages = new Map<string, SoapMessage>();

  constructor(
    private readonly set: WsdlSet,
    private readonly ctx: Ctx,
    private readonly entry: string,
  ) {}

  /**
   * Lower one independent piece (a binding, an operation, a part); its error is recorded and the piece left out,
   * so a binding that names a missing message does not hide the next mistake.
   */
  private each<T, R>(list: readonly T[], lower: (item: T) => R): R[] {
    return list.flatMap((item) => {
      const done = this.ctx.recover(() => ({ value: lower(item) }));
      return done ? [done.value] : [];
    });
  }

  private origin(el: XmlElement, construct: string): Origin {
    return { file: originPath(this.entry, el.file), line: el.line, column: el.column, pointer: xpath(el), construct };
  }

  /** WSDL attributes use the same QName rules as schema ones; a stand-in schema lets parts reuse type lookup. */
  private pseudoSchema(el: XmlElement): SchemaDoc {
    return { el, tns: "", chameleon: false, elementFormDefault: "unqualified", attributeFormDefault: "unqualified" };
  }

  message(d: WsdlDecl): SoapMessage {
    const cached = this.messages.get(key(d.name));
    if (cached) return cached;
    const parts: SoapPart[] = this.each(wsdl(d.el, "part"), (p): SoapPart => {
      const name = attr(p, "name");
      if (name === undefined) throw specError(p, "wsdl:part without a name");
      const element = attr(p, "element");
      const type = attr(p, "type");
      if (element !== undefined) {
        const q = resolveQName(p, element);
        if (!this.ctx.set.lookup("element", q)) throw unknown(p, "element", element, q);
        return { name, element: elementId(q) };
      }
      if (type !== undefined) return { name, type: this.ctx.typeByName(this.pseudoSchema(p), p, type) };
      throw specError(p, `wsdl:part '${name}' has neither element= nor type=`);
    });
    const m: SoapMessage = { name: d.name, parts };
    this.messages.set(key(d.name), m);
    return m;
  }

  private operation(op: XmlElement, pt: WsdlDecl): SoapOperation {
    const name = attr(op, "name");
    if (name === undefined) throw specError(op, "wsdl:operation without a name");
    const io = (local: string): SoapMessage | undefined => {
      const el = wsdl(op, local)[0];
      return el ? this.message(this.set.resolve("message", el, "message")) : undefined;
    };
    const input = io("input");
    const output = io("output");
    const doc = wsdlDoc(op);
    return {
      name,
      ...(doc !== undefined ? { doc } : {}),
      origin: this.origin(op, `wsdl operation ${name} of ${key(pt.name)}`),
      ...(input ? { input } : {}),
      ...(output ? { output } : {}),
      faults: this.each(wsdl(op, "fault"), (f) => {
        const fname = attr(f, "name");
        if (fname === undefined) throw specError(f, "wsdl:fault without a name");
        return { name: fname, message: this.message(this.set.resolve("message", f, "message")) };
      }),
    };
  }

  private body(el: XmlElement | undefined, ns: string): SoapBodyBinding | undefined {
    if (!el) return undefined;
    const mime = el.children.find((c) => c.name.local === "multipartRelated");
    if (mime) throw specError(mime, "mime:multipartRelated (SOAP with attachments) is not supported");
    const body = firstChild(el, ns, "body");
    const headers: SoapHeaderBinding[] = this.each(childrenNs(el, ns, "header"), (h): SoapHeaderBinding => {
      const decl = this.set.resolve("message", h, "message");
      const m = this.message(decl);
      const part = attr(h, "part");
      if (part === undefined) throw specError(h, "soap:header without part=");
      // Checked against the parts as written: a part that failed to lower has been reported already.
      if (!wsdl(decl.el, "part").some((p) => attr(p, "name") === part)) throw specError(h, `message ${key(m.name)} has no part '${part}'`);
      return { message: m, part, use: use(h) };
    });
    const parts = body && attr(body, "parts");
    const namespace = body && attr(body, "namespace");
    const encodingStyle = body && attr(body, "encodingStyle");
    return {
      use: body ? use(body) : "literal",
      ...(namespace !== undefined ? { namespace } : {}),
      ...(encodingStyle !== undefined ? { encodingStyle } : {}),
      ...(parts !== undefined ? { parts: parts.split(/\s+/).filter(Boolean) } : {}),
      headers,
    };
  }

  /** A SOAP binding, or undefined for bindings of other protocols. */
  binding(b: WsdlDecl, ops: readonly SoapOperation[], pt?: WsdlDecl): SoapBinding | undefined {
    const soap11 = firstChild(b.el, SOAP11_NS, "binding");
    const soap12 = firstChild(b.el, SOAP12_NS, "binding");
    const sb = soap11 ?? soap12;
    if (!sb) return undefined;
    const ns = soap11 ? SOAP11_NS : SOAP12_NS;
    const bindingStyle = style(sb, "document");
    const transport = attr(sb, "transport");
    // An operation the portType declares but that failed to lower has been reported already: skipped silently.
    const declared = new Set(pt ? wsdl(pt.el, "operation").map((o) => attr(o, "name")) : []);
    const bound = wsdl(b.el, "operation").filter((op) => ops.some((o) => o.name === attr(op, "name")) || !declared.has(attr(op, "name")));
    const operations: SoapOperationBinding[] = this.each(bound, (op): SoapOperationBinding => {
      const name = attr(op, "name") ?? "";
      const abstract = ops.find((o) => o.name === name);
      if (!abstract) throw specError(op, `binding operation '${name}' is not in portType ${attr(b.el, "type")?.trim()}`);
      const so = firstChild(op, ns, "operation");
      const opStyle = style(so, bindingStyle);
      const action = so && attr(so, "soapAction");
      const input = this.body(wsdl(op, "input")[0], ns);
      const output = this.body(wsdl(op, "output")[0], ns);
      const bodyParts = (abstract.input?.parts ?? []).filter((p) => !input?.parts || input.parts.includes(p.name));
      const only = bodyParts.length === 1 ? bodyParts[0] : undefined;
      const wrapped =
        opStyle === "document" && only?.element !== undefined && only.element.slice(only.element.indexOf("}") + 1) === name;
      return {
        name,
        ...(action !== undefined ? { action } : {}),
        style: opStyle,
        wrapped,
        ...(input ? { input } : {}),
        ...(output ? { output } : {}),
        faults: wsdl(op, "fault").map((f) => {
          const sf = firstChild(f, ns, "fault");
          return { name: attr(f, "name") ?? (sf && attr(sf, "name")) ?? "", use: sf ? use(sf) : "literal" };
        }),
        origin: this.origin(op, `wsdl binding operation ${name} of ${key(b.name)}`),
      };
    });
    return {
      name: b.name,
      version: soap11 ? "1.1" : "1.2",
      style: bindingStyle,
      ...(transport !== undefined ? { transport } : {}),
      operations,
      origin: this.origin(b.el, `wsdl binding ${key(b.name)}`),
    };
  }

  services(): SoapService[] {
    const out: SoapService[] = [];
    const bindings = this.each(this.set.all("binding"), (b) => ({ decl: b, pt: this.set.resolve("portType", b.el, "type") }));
    // Ports in declaration order, with their service and binding resolved once.
    const ports = this.set.all("service").flatMap((s) =>
      this.each(wsdl(s.el, "port"), (p) => ({ service: s, el: p, binding: this.set.resolve("binding", p, "binding") })),
    );
    const isSoap = (b: WsdlDecl) => !!(firstChild(b.el, SOAP11_NS, "binding") ?? firstChild(b.el, SOAP12_NS, "binding"));
    for (const pt of this.set.all("portType")) {
      const mine = bindings.filter((b) => b.pt === pt).map((b) => b.decl);
      const soapBindings = mine.filter(isSoap);
      // A portType bound only through other protocols (e.g. ASMX HttpGet/HttpPost) has no SOAP API to emit.
      if (mine.length && !soapBindings.length) continue;
      const operations = this.each(wsdl(pt.el, "operation"), (op) => this.operation(op, pt));
      const lowered = this.each(soapBindings, (b) => this.binding(b, operations, pt)!);
      const myPorts = ports.filter((p) => soapBindings.includes(p.binding));
      const soapPorts: SoapPort[] = myPorts.map((p) => {
        const addr = firstChild(p.el, SOAP11_NS, "address") ?? firstChild(p.el, SOAP12_NS, "address");
        const location = addr && attr(addr, "location");
        return { name: attr(p.el, "name") ?? "", binding: p.binding.name, ...(location !== undefined ? { address: location } : {}) };
      });
      // Named after the wsdl:service exposing it, unless that service exposes several SOAP portTypes.
      const svc = myPorts[0]?.service;
      const svcPortTypes = svc
        ? new Set(ports.filter((p) => p.service === svc && isSoap(p.binding)).map((p) => bindings.find((b) => b.decl === p.binding)?.pt))
        : undefined;
      const name = svc && svcPortTypes?.size === 1 ? svc.name.local : pt.name.local;
      const doc = wsdlDoc(pt.el) ?? (svc ? wsdlDoc(svc.el) : undefined);
      out.push({
        kind: "soap",
        name,
        targetNamespace: pt.name.ns,
        ...(doc !== undefined ? { doc } : {}),
        origin: this.origin(pt.el, `wsdl portType ${key(pt.name)}`),
        operations,
        bindings: lowered,
        ports: soapPorts,
      });
    }
    return out;
  }
}
