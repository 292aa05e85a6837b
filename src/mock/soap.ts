/**
 * The SOAP mock: every bound operation of every SOAP service (WSDL portType) of a spec, served by the spec's
 * generated SOAP server (`create<Service>Server`: envelope parsing for SOAP 1.1 and 1.2, dispatch by body element
 * and action, header decoding, request validation with the generated validators answered by a Client fault) with
 * handlers that answer from the spec alone: a value of the output element drawn by the value generator until the
 * generated validator accepts it, encoded by the generated codec.
 *
 * Requests are routed by path to the service whose port addresses that path, else by the body element (one mock can
 * serve a WSDL of several services at any path). `Prefer: fault=<name>` (an HTTP header, as Prism's `Prefer`)
 * answers with a declared wsdl:fault of the operation instead, its detail a generated value.
 */
import type { ElementDecl, IrDocument } from "../ir/model.js";
import { handlerName } from "../naming/property-name.js";
import { boundServices, type BoundBody, type BoundOperation, type BoundService } from "../emitters/soap-client/bound-operations.js";
import type { LoadedSpec } from "./load.js";
import type { MockLogEntry, MockOptions } from "./rest.js";
import { ValueGenerator } from "./values.js";

type Fn = (...args: unknown[]) => unknown;
type Handler = (request: Request) => Promise<Response>;

export interface SoapMockOptions extends MockOptions {
  /** The WSDL text served at `GET ...?wsdl`, its soap:address locations pointed at the mock. */
  readonly wsdl?: string;
}

/** The operations a SOAP mock serves: every bound operation of every SOAP service. */
export function mockedSoapOperations(doc: IrDocument): { service: BoundService; operation: BoundOperation }[] {
  return boundServices(doc).flatMap((service) => service.operations.map((operation) => ({ service, operation })));
}

/** The path of every port address of a service ("/services/Soap/u/40.0"); "/" for a port without one. */
export function soapServicePaths(service: BoundService): string[] {
  const out = new Set<string>();
  for (const port of service.service.ports) {
    try {
      out.add(port.address ? new URL(port.address).pathname.replace(/\/+$/, "") || "/" : "/");
    } catch {
      out.add("/");
    }
  }
  return [...out];
}

/** A web-standard handler answering every bound operation of the spec's SOAP services. */
export function createSoapMock(spec: LoadedSpec, options: SoapMockOptions = {}): Handler {
  const gen = new ValueGenerator(spec.doc, { int64: spec.int64, dates: spec.dates });
  const seed = String(options.seed ?? "specforge");
  const Fault = spec.runtime.SoapFaultError as new (init: { code: unknown; message: string; fault?: string; detail?: unknown }) => Error;
  let counter = 0;
  const pending = new WeakMap<Request, Omit<MockLogEntry, "method" | "path" | "status">>();
  const services: { bound: BoundService; server: Handler; paths: string[]; elements: Set<string>; locals: Set<string> }[] = [];

  for (const bound of boundServices(spec.doc)) {
    const createServer = spec.names.soap(bound.index).createServer;
    const create = spec.module[createServer] as Fn | undefined;
    if (!create) throw new Error(`generated code has no ${createServer}`);
    const handlers: Record<string, Fn> = {};
    for (const op of bound.operations) {
      handlers[handlerName(op.name)] = (_input: unknown, ctx: unknown) => {
        const { request, setResponseHeader } = ctx as { request: Request; setResponseHeader: (name: string, value: unknown) => void };
        const dynamic = options.dynamic ?? false;
        const drawSeed = dynamic ? `${seed}:${op.name}:${counter++}` : `${seed}:${op.name}`;
        const wanted = preferredFault(request.headers.get("prefer"));
        if (wanted !== undefined) {
          const declared = op.faults.find((f) => f.name === wanted);
          if (declared === undefined) {
            const note = `operation ${op.name} declares no fault ${JSON.stringify(wanted)}${op.faults.length > 0 ? ` (it declares ${op.faults.map((f) => f.name).join(", ")})` : ""}`;
            pending.set(request, { operation: op.name, source: "none", note });
            throw new Fault({ code: "Server", message: note });
          }
          const detail = elementValue(spec, gen, declared.element, `${drawSeed}:fault:${declared.name}`);
          pending.set(request, { operation: op.name, source: "generated", note: `fault ${declared.name}` });
          throw new Fault({ code: "Server", message: declared.name, fault: declared.name, detail: detail.value });
        }
        for (const h of op.responseHeaders) setResponseHeader(h.key, elementValue(spec, gen, h.element, `${drawSeed}:header:${h.key}`).value);
        if (op.output === undefined) {
          pending.set(request, { operation: op.name, source: "none" });
          return undefined;
        }
        const out = bodyValue(spec, gen, op.output, `${drawSeed}:output`);
        pending.set(request, { operation: op.name, source: "generated", ...(out.note ? { note: out.note } : {}) });
        return out.value;
      };
    }
    const wsdl = options.wsdl;
    const server = create(handlers, {
      ...(wsdl !== undefined ? { wsdl: (request: Request) => wsdlFor(wsdl, request) } : {}),
      onError: (error: unknown, operation: string) => {
        options.log?.({ method: "POST", path: "", status: 500, operation, note: `mock error: ${(error as Error)?.message ?? String(error)}` });
      },
    }) as Handler;
    const elements = new Set<string>();
    const locals = new Set<string>();
    for (const op of bound.operations) {
      if (op.input.kind === "element") elements.add(`{${op.input.element.name.ns}}${op.input.element.name.local}`);
      else {
        elements.add(`{${op.input.ns}}${op.input.local}`);
        locals.add(op.input.local);
      }
    }
    services.push({ bound, server, paths: soapServicePaths(bound), elements, locals });
  }

  return async (incoming) => {
    const url = new URL(incoming.url);
    const path = url.pathname.replace(/\/+$/, "") || "/";
    let request = incoming;
    let chosen = services.length === 1 ? services[0] : undefined;
    if (chosen === undefined && services.length > 0) {
      const byPath = services.filter((s) => s.paths.includes(path));
      if (byPath.length === 1) chosen = byPath[0];
      else if (request.method === "POST") {
        // Several services could answer: the body element says which (the request is rebuilt from the bytes read).
        const bytes = new Uint8Array(await request.arrayBuffer());
        request = new Request(request.url, { method: "POST", headers: request.headers, body: bytes });
        const element = bodyElement(new TextDecoder().decode(bytes));
        const pool = byPath.length > 0 ? byPath : services;
        chosen = element === undefined ? pool[0] : (pool.find((s) => s.elements.has(element.clark)) ?? pool.find((s) => s.locals.has(element.local)) ?? pool[0]);
      } else chosen = byPath[0] ?? services[0];
    }
    const response = chosen ? await chosen.server(request) : new Response("no SOAP service in this spec\n", { status: 404 });
    if (options.delayMs !== undefined && options.delayMs > 0) await new Promise((r) => setTimeout(r, options.delayMs));
    options.log?.({ method: incoming.method, path: url.pathname + url.search, status: response.status, ...pending.get(request) });
    return response;
  };
}

/** `Prefer: fault=ApiFault` (other preferences are ignored). */
function preferredFault(header: string | null): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(/[,;]/)) {
    const m = /^\s*fault\s*=\s*"?([^"]*)"?\s*$/.exec(part);
    if (m) return m[1];
  }
  return undefined;
}

/** The Clark name of the first element in a SOAP Body (a light scan; the generated server reads the envelope properly). */
function bodyElement(text: string): { clark: string; local: string } | undefined {
  const body = /<(?:([\w.-]+):)?Body\b[^>]*>\s*(?:<!--[\s\S]*?-->\s*)*<(?:([\w.-]+):)?([\w.-]+)([^>]*)>/.exec(text);
  if (!body) return undefined;
  const prefix = body[2];
  const local = body[3]!;
  // The element's own declaration, else the nearest declaration anywhere before it (a good enough guess for routing).
  const attr = prefix ? new RegExp(`xmlns:${prefix}\\s*=\\s*["']([^"']*)["']`) : /xmlns\s*=\s*["']([^"']*)["']/;
  const own = attr.exec(body[4] ?? "");
  const before = text.slice(0, body.index + body[0].length);
  const all = [...before.matchAll(new RegExp(attr.source, "g"))];
  const ns = own?.[1] ?? all[all.length - 1]?.[1] ?? "";
  return { clark: `{${ns}}${local}`, local };
}

/** The WSDL with every soap:address location pointing at the mock (the path kept). */
function wsdlFor(wsdl: string, request: Request): string {
  const origin = new URL(request.url).origin;
  return wsdl.replace(/(<(?:[\w.-]+:)?address\b[^>]*\blocation\s*=\s*)(["'])([^"']*)\2/g, (all, head: string, q: string, location: string) => {
    try {
      const u = new URL(location);
      return `${head}${q}${origin}${u.pathname}${u.search}${q}`;
    } catch {
      return all;
    }
  });
}

/** A value of an element the generated validator of its type accepts (drawn again until it does). */
export function elementValue(spec: LoadedSpec, gen: ValueGenerator, el: ElementDecl, seed: string): { value: unknown; note?: string } {
  const validate = el.type.kind === "ref" ? (spec.module[spec.names.derived(el.type.id, "validate")] as Fn | undefined) : undefined;
  const accept = (v: unknown) => (v === null ? el.nullable : validate ? (validate(v) as unknown[]).length === 0 : true);
  const drawn = gen.validValue((s) => gen.valueOf(el.type, s), accept, seed);
  if (drawn) return { value: drawn.value };
  return { value: gen.valueOf(el.type, seed), note: "no generated value passed the validator within the tries; sent the last one drawn" };
}

/** The output of an operation: its element's value (document style) or its parts (rpc style; one part unwrapped). */
export function bodyValue(spec: LoadedSpec, gen: ValueGenerator, body: BoundBody, seed: string): { value: unknown; note?: string } {
  if (body.kind === "element") return elementValue(spec, gen, body.element, seed);
  if (body.parts.length === 0) return { value: undefined };
  const values: Record<string, unknown> = {};
  let note: string | undefined;
  for (const part of body.parts) {
    const validate = part.type.kind === "ref" ? (spec.module[spec.names.derived(part.type.id, "validate")] as Fn | undefined) : undefined;
    const accept = (v: unknown) => (validate ? (validate(v) as unknown[]).length === 0 : true);
    const drawn = gen.validValue((s) => gen.valueOf(part.type, s), accept, `${seed}:${part.name}`);
    if (!drawn) note = "no generated value passed the validator within the tries; sent the last one drawn";
    values[part.name] = drawn ? drawn.value : gen.valueOf(part.type, `${seed}:${part.name}`);
  }
  return { value: body.parts.length === 1 ? values[body.parts[0]!.name] : values, ...(note ? { note } : {}) };
}
