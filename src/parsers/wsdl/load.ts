/**
 * Reads a WSDL 1.1 document and everything it imports (wsdl:import of other WSDLs or schemas), registering the
 * schemas of wsdl:types in the schema set and the WSDL components by expanded name.
 */
import type { QName } from "../../ir/model.js";
import { type XmlElement, attr, resolveQName, specError } from "../xml/dom.js";
import { WSDL_NS, XSD_NS } from "../xsd/builtins.js";
import { type SchemaSet, key } from "../xsd/resolve.js";

export const WSDL2_NS = "http://www.w3.org/ns/wsdl";

export type WsdlKind = "message" | "portType" | "binding" | "service";

export interface WsdlDecl {
  readonly kind: WsdlKind;
  readonly name: QName;
  readonly el: XmlElement;
}

export class WsdlSet {
  readonly definitions: XmlElement[] = [];
  private readonly decls: Record<WsdlKind, Map<string, WsdlDecl>> = {
    message: new Map(),
    portType: new Map(),
    binding: new Map(),
    service: new Map(),
  };

  constructor(readonly schemas: SchemaSet) {}

  /** Loads the entry definitions and (breadth first) the WSDL files it imports. */
  load(root: XmlElement): void {
    const queue = [root];
    const seen = new Set<string>([root.file]);
    for (let i = 0; i < queue.length; i++) {
      const defs = queue[i]!;
      this.definitions.push(defs);
      for (const imported of this.register(defs)) {
        if (seen.has(imported.file)) continue;
        seen.add(imported.file);
        queue.push(imported);
      }
    }
  }

  /** Registers one definitions element's components; returns the WSDL documents it imports. */
  private register(defs: XmlElement): XmlElement[] {
    const tns = attr(defs, "targetNamespace") ?? "";
    const imports: XmlElement[] = [];
    for (const c of defs.children) {
      if (c.name.ns !== WSDL_NS) continue; // extensibility elements (policies, partner links) do not shape the API
      switch (c.name.local) {
        case "import": {
          const imported = this.follow(c);
          if (imported) imports.push(imported);
          break;
        }
        case "types":
          for (const s of c.children) {
            if (s.name.ns === XSD_NS && s.name.local === "schema") this.schemas.addSchema(s);
            else if (!(s.name.ns === WSDL_NS && s.name.local === "documentation")) {
              throw specError(s, `unsupported type system <${s.name.local}> (${s.name.ns || "no namespace"}) in wsdl:types`);
            }
          }
          break;
        case "message":
        case "portType":
        case "binding":
        case "service": {
          const local = attr(c, "name");
          if (local === undefined) throw specError(c, `wsdl:${c.name.local} without a name`);
          const name = { ns: tns, local };
          const map = this.decls[c.name.local];
          const prev = map.get(key(name));
          if (prev) {
            // The first declaration stays; lowering goes on so that other mistakes are reported in the same run.
            this.schemas.diagnostics.report(specError(c, `duplicate wsdl:${c.name.local} '${key(name)}' (first declared at ${prev.el.displayFile}:${prev.el.line}:${prev.el.column})`));
            break;
          }
          map.set(key(name), { kind: c.name.local, name, el: c });
          break;
        }
        case "documentation":
          break;
        default:
          throw specError(c, `wsdl:${c.name.local} is not supported`);
      }
    }
    return imports;
  }

  private follow(imp: XmlElement): XmlElement | undefined {
    const location = attr(imp, "location");
    const namespace = attr(imp, "namespace");
    if (location === undefined) throw specError(imp, "wsdl:import without location");
    const root = this.schemas.readFile(this.schemas.locate(imp, location, "WSDL import"), imp, "WSDL import", location);
    const tns = attr(root, "targetNamespace") ?? "";
    if (namespace !== undefined && tns !== namespace) {
      throw specError(imp, `imported '${location}' has targetNamespace '${tns}', expected '${namespace}'`);
    }
    if (root.name.ns === XSD_NS && root.name.local === "schema") {
      // Some WSDLs import their schema with wsdl:import instead of xsd:import.
      this.schemas.addSchema(root);
      return undefined;
    }
    checkDefinitions(root);
    return root;
  }

  all(kind: WsdlKind): WsdlDecl[] {
    return [...this.decls[kind].values()];
  }

  /** The component a QName-valued attribute names, or a SpecError "unknown wsdl:<kind> ..." at `el`. */
  resolve(kind: WsdlKind, el: XmlElement, attrName: string): WsdlDecl {
    const raw = attr(el, attrName);
    if (raw === undefined) throw specError(el, `<${el.name.local}> without ${attrName}=`);
    const q = resolveQName(el, raw);
    const d = this.decls[kind].get(key(q));
    if (!d) throw specError(el, `unknown ${kind} '${raw.trim()}' (${key(q)})`);
    return d;
  }
}

export function checkDefinitions(root: XmlElement): void {
  if (root.name.ns === WSDL2_NS) throw specError(root, "WSDL 2.0 is not supported (only WSDL 1.1)");
  if (root.name.ns !== WSDL_NS || root.name.local !== "definitions") {
    throw specError(root, `expected wsdl:definitions, found <${root.name.local}> (${root.name.ns || "no namespace"})`);
  }
}
