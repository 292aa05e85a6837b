/**
 * The schema set: every xsd:schema reachable from the entry (inline in a WSDL, imported, included), with a registry
 * of their global components by expanded name. Lowering looks references up here, so forward references and
 * schemas importing each other by namespace alone just work.
 */
import path from "node:path";
import type { QName } from "../../ir/model.js";
import { Diagnostics } from "../diagnostics.js";
import type { SpecHost } from "../host.js";
import { type XmlElement, XML_NS, attr, resolveQName, specError } from "../xml/dom.js";
import { XmlCatalog, fileKeys } from "../xml/catalog.js";
import { readXml } from "../xml/read.js";
import { XSD_NS, isSoapEnc } from "./builtins.js";
import { pruneConditional } from "./conditional.js";

export type Form = "qualified" | "unqualified";

export interface SchemaDoc {
  readonly el: XmlElement;
  /** Effective target namespace (an included schema without one takes the includer's: "chameleon" include). */
  readonly tns: string;
  readonly chameleon: boolean;
  readonly elementFormDefault: Form;
  readonly attributeFormDefault: Form;
  /** XSD 1.1 xsd:defaultOpenContent: the open content of the schema's complex types that declare none. */
  readonly defaultOpenContent?: XmlElement;
}

export type DeclKind = "type" | "element" | "group" | "attributeGroup" | "attribute";

export interface Decl {
  readonly kind: DeclKind;
  readonly schema: SchemaDoc;
  readonly el: XmlElement;
  readonly name: QName;
}

export const key = (q: QName): string => `{${q.ns}}${q.local}`;

const KIND_OF: Readonly<Record<string, DeclKind>> = {
  complexType: "type",
  simpleType: "type",
  element: "element",
  attribute: "attribute",
  group: "group",
  attributeGroup: "attributeGroup",
};

/** A location with a URL scheme ("http://...", "urn:..."), as opposed to a relative or absolute file path. */
export function isRemote(location: string): boolean {
  return /^[a-zA-Z][a-zA-Z0-9+.-]+:/.test(location);
}

interface Pending {
  readonly from: XmlElement;
  readonly from_schema: SchemaDoc;
  readonly include: boolean;
}

/**
 * A component an xsd:redefine restates (XSD 1.0 Part 1 §4.2.2): it replaces the redefined schema's component of
 * that name everywhere, and inside it a reference to its own name means the original.
 */
interface Redefinition {
  readonly kind: DeclKind;
  readonly schema: SchemaDoc;
  readonly el: XmlElement;
}

/** The local name the original of a redefined component keeps (`$` cannot occur in an XML name, so no clash). */
export const REDEFINED_SUFFIX = "$redefined";

export class SchemaSet {
  readonly schemas: SchemaDoc[] = [];
  /** Absolute paths of every file read, in read order. */
  readonly files: string[] = [];
  private readonly decls: Record<DeclKind, Map<string, Decl>> = {
    type: new Map(),
    element: new Map(),
    group: new Map(),
    attributeGroup: new Map(),
    attribute: new Map(),
  };
  private readonly loaded = new Set<string>();
  private readonly roots = new Map<string, XmlElement>();
  private readonly queue: Pending[] = [];
  private readonly redefinitions: Redefinition[] = [];
  private readonly overrides: Redefinition[] = [];
  /** Elements inside a redefinition, by the key of the redefined component: their self-references mean the original. */
  private readonly selfReferences = new Map<XmlElement, { kind: DeclKind; key: string; original: Decl }>();
  /** The XML catalog of the run (--catalog), read on first use. */
  private readonly catalog: XmlCatalog | undefined;
  /** For a file a catalog mapped a remote URI to: that URI, the base its own relative imports resolve against. */
  private readonly retrievedAs = new Map<string, string>();
  /** Namespaces whose schema was left out (a local schemaLocation naming no file): where that import or include is. */
  private readonly leftOut = new Map<string, XmlElement>();

  /** `diagnostics` collects the errors of the whole WSDL/XSD parse (duplicate declarations here; lowering's too). */
  constructor(
    private readonly host: SpecHost,
    readonly diagnostics: Diagnostics = new Diagnostics(1),
  ) {
    this.catalog = host.catalog !== undefined ? new XmlCatalog(host, host.catalog) : undefined;
  }

  /**
   * The local file an import's location names (`what`: "schema import", "WSDL import", ...). A relative location is
   * a file next to the importing one; when that file does not exist, or the location is remote (http:, urn:, or
   * relative inside a document the catalog mapped from a remote URI), the XML catalog decides. specforge never
   * fetches: a remote location the catalog does not map is an error that says how to map it.
   */
  locate(at: XmlElement, location: string, what: string): string {
    const remoteBase = this.retrievedAs.get(at.file);
    const local = isRemote(location) ? undefined : this.localFile(at.file, location);
    if (local !== undefined && (this.catalog === undefined || this.readable(local))) return local;
    // Remote, or a local file that is not there: what the catalog says, by URI first, then by the file's own keys.
    const uri = isRemote(location) ? location : remoteBase !== undefined ? new URL(location, remoteBase).href : undefined;
    const keys = [...(uri !== undefined ? [uri] : []), ...(local !== undefined ? fileKeys(local) : [])];
    for (const key of keys) {
      const hit = this.catalog?.resolve(key);
      if (hit === undefined) continue;
      if (isRemote(hit)) {
        throw specError(at, `${what} '${location}': the XML catalog maps ${key} to ${hit}, which is not a local file (specforge never fetches)`);
      }
      if (uri !== undefined) this.retrievedAs.set(hit, uri);
      return hit;
    }
    if (local !== undefined) return local; // the read reports it missing
    const how = `map it to a local copy with an XML catalog (--catalog <file>, or "catalog" in specforge.config.json), e.g. <uri name="${location}" uri="local/copy.xsd"/>`;
    throw specError(
      at,
      this.catalog === undefined
        ? `${what} '${location}' is remote and specforge never fetches: ${how}`
        : `${what} '${location}' is remote and the XML catalog ${this.host.displayPath(this.catalog.entry)} does not map it (specforge never fetches): ${how}`,
    );
  }

  /**
   * The file a relative or absolute location names beside `from`. A location is a URI reference (xsd:anyURI), so
   * `%XX` escapes stand for the bytes of the name (`my%20types.xsd`, `%E5%90%8D.xsd`): when the name as written is
   * not a file, the unescaped one is used. Characters outside ASCII need no escaping (an IRI): `名前空間URI` is read
   * as written.
   */
  private localFile(from: string, location: string): string {
    const raw = path.resolve(path.dirname(from), location);
    if (!/%[0-9a-fA-F]{2}/.test(location) || this.readable(raw)) return raw;
    let decoded: string;
    try {
      decoded = decodeURIComponent(location);
    } catch {
      return raw; // not UTF-8 once unescaped: only the name as written can be meant
    }
    const unescaped = path.resolve(path.dirname(from), decoded);
    return this.readable(unescaped) ? unescaped : raw;
  }

  private readable(file: string): boolean {
    if (this.roots.has(file)) return true;
    try {
      this.host.readFile(file);
      return true;
    } catch {
      return false;
    }
  }

  /**
   * Reads and parses a file once, remembering it in `files`. With `missingOk`, a file that does not exist (ENOENT)
   * gives undefined instead of an error (a local schemaLocation is only a hint).
   */
  readFile(abs: string, at: XmlElement | undefined, what: string, location: string): XmlElement;
  readFile(abs: string, at: XmlElement | undefined, what: string, location: string, missingOk: boolean): XmlElement | undefined;
  readFile(abs: string, at: XmlElement | undefined, what: string, location: string, missingOk = false): XmlElement | undefined {
    const cached = this.roots.get(abs);
    if (cached) return cached;
    let text: string;
    try {
      text = this.host.readFile(abs);
    } catch (e) {
      const msg = e instanceof Error ? e.message : String(e);
      if (missingOk && (e as { code?: unknown }).code === "ENOENT") return undefined;
      if (!at) throw e;
      // A path that climbs out of the spec's folder names another project's layout (ONVIF's ../../../ver10/schema/):
      // say how to point it at the copy the user has.
      const missing = (e as { code?: unknown }).code === "ENOENT" && !isRemote(location) && (location.startsWith("../") || path.isAbsolute(location));
      const hint = missing && this.catalog === undefined ? `; if the file is elsewhere, map ${abs} to it in an XML catalog (--catalog <file>)` : "";
      throw specError(at, `cannot read ${what} '${location}': ${msg}${hint}`);
    }
    const root = readXml(text, abs, this.host.displayPath(abs));
    pruneConditional(root);
    this.roots.set(abs, root);
    this.files.push(abs);
    return root;
  }

  /** Adds one xsd:schema element; its imports/includes are queued and read by `drain` (entry schemas first). */
  addSchema(el: XmlElement, includerTns?: string): void {
    const own = attr(el, "targetNamespace");
    const tns = own ?? includerTns ?? "";
    const id = `${el.file}#${el.line}:${el.column}|${tns}`;
    if (this.loaded.has(id)) return;
    this.loaded.add(id);
    const form = (name: string): Form => {
      const v = attr(el, name);
      if (v === undefined || v === "unqualified") return "unqualified";
      if (v === "qualified") return "qualified";
      throw specError(el, `invalid ${name} '${v}'`);
    };
    const schema: SchemaDoc = {
      el,
      tns,
      chameleon: own === undefined && includerTns !== undefined && includerTns !== "",
      elementFormDefault: form("elementFormDefault"),
      attributeFormDefault: form("attributeFormDefault"),
    };
    const dflt = el.children.find((c) => c.name.ns === XSD_NS && c.name.local === "defaultOpenContent");
    if (dflt !== undefined) (schema as { defaultOpenContent?: XmlElement }).defaultOpenContent = dflt;
    this.schemas.push(schema);
    for (const child of el.children) {
      if (child.name.ns !== XSD_NS) throw specError(child, `unexpected element <${child.name.local}> in xsd:schema`);
      const local = child.name.local;
      const kind = KIND_OF[local];
      if (kind) this.register(kind, schema, child);
      else if (local === "import" || local === "include") this.queue.push({ from: child, from_schema: schema, include: local === "include" });
      else if (local === "redefine") {
        // An include whose components listed here replace the included ones of the same name (applied in drain).
        if (attr(child, "schemaLocation") === undefined) throw specError(child, "xsd:redefine without schemaLocation");
        this.queue.push({ from: child, from_schema: schema, include: true });
        for (const c of child.children) {
          if (c.name.ns !== XSD_NS || c.name.local === "annotation") continue;
          const kind = KIND_OF[c.name.local];
          if (kind !== "type" && kind !== "group" && kind !== "attributeGroup") throw specError(c, `xsd:${c.name.local} cannot be redefined`);
          this.redefinitions.push({ kind, schema, el: c });
        }
      }
      else if (local === "override") {
        // XSD 1.1: an include whose components listed here replace the included ones of the same name (applied in
        // drain; one the overridden schema does not declare is ignored, as XSD 1.1 §4.2.5 says).
        if (attr(child, "schemaLocation") === undefined) throw specError(child, "xsd:override without schemaLocation");
        this.queue.push({ from: child, from_schema: schema, include: true });
        for (const c of child.children) {
          if (c.name.ns !== XSD_NS || c.name.local === "annotation") continue;
          const kind = KIND_OF[c.name.local];
          if (kind !== undefined) this.overrides.push({ kind, schema, el: c });
        }
      } else if (local !== "annotation" && local !== "notation" && local !== "defaultOpenContent") throw specError(child, `xsd:${local} is not supported`);
    }
  }

  /** Reads queued imports/includes (breadth first, so files appear in the order they were encountered). */
  drain(): void {
    for (let i = 0; i < this.queue.length; i++) {
      const p = this.queue[i]!;
      this.follow(p.from, p.from_schema, p.include);
    }
    this.queue.length = 0;
    this.redefine();
    this.override();
  }

  /**
   * Applies the XSD 1.1 overrides read so far: the overriding component takes the name of the one it replaces. The
   * innermost first: an override of a schema document applies to the overrides that document makes (chained
   * overrides: the outermost wins). Overrides are read outermost first (breadth first), hence the reverse order.
   */
  private override(): void {
    for (const r of this.overrides.splice(0).reverse()) {
      const local = attr(r.el, "name")?.trim();
      if (local === undefined) throw specError(r.el, `xsd:${r.el.name.local} in xsd:override without a name`);
      const name = { ns: r.schema.tns, local };
      const map = this.decls[r.kind];
      if (map.get(key(name)) === undefined) continue;
      map.set(key(name), { kind: r.kind, schema: r.schema, el: r.el, name });
    }
  }

  /**
   * Applies the redefinitions read so far: the original component is kept under `<name>$redefined` (the base of a
   * redefined type, the group a redefined group refers to), and the redefinition takes its name.
   */
  private redefine(): void {
    // Innermost first: in a chain (a.xsd redefines B of b.xsd, which redefines B of c.xsd; W3C stZ033), b.xsd is read
    // after a.xsd, and a.xsd's B restricts b.xsd's redefined B, not c.xsd's original.
    for (const r of this.redefinitions.splice(0).reverse()) {
      const local = attr(r.el, "name")?.trim();
      if (local === undefined) throw specError(r.el, `xsd:${r.el.name.local} in xsd:redefine without a name`);
      const name = { ns: r.schema.tns, local };
      const map = this.decls[r.kind];
      const original = map.get(key(name));
      if (original === undefined) {
        this.diagnostics.report(specError(r.el, `xsd:redefine of ${r.kind} '${key(name)}', which the redefined schema does not declare`));
        continue;
      }
      // Each level of a chain keeps its original under one more suffix: B$redefined, B$redefined$redefined, ...
      let keptLocal = local + REDEFINED_SUFFIX;
      while (map.has(key({ ns: name.ns, local: keptLocal }))) keptLocal += REDEFINED_SUFFIX;
      const kept: Decl = { ...original, name: { ns: name.ns, local: keptLocal } };
      map.set(key(kept.name), kept);
      map.set(key(name), { kind: r.kind, schema: r.schema, el: r.el, name });
      const mark = (el: XmlElement): void => {
        this.selfReferences.set(el, { kind: r.kind, key: key(name), original: kept });
        for (const c of el.children) mark(c);
      };
      mark(r.el);
    }
  }

  private follow(el: XmlElement, from: SchemaDoc, include: boolean): void {
    const location = attr(el, "schemaLocation");
    const namespace = attr(el, "namespace");
    if (location === undefined) {
      if (include) throw specError(el, "xsd:include without schemaLocation");
      // An import by namespace only: the schema must be elsewhere in the set (e.g. another schema of the WSDL).
      return;
    }
    // The xml: and SOAP-encoding namespaces are known built in; no need to read their schemas.
    if (isRemote(location) && namespace !== undefined && (namespace === XML_NS || isSoapEnc(namespace))) return;
    const abs = this.locate(el, location, include ? "schema include" : "schema import");
    // A local schemaLocation is a hint (XSD 1.0 Part 1 §4.2.1 for include, §4.2.3 for import): a file that is not
    // there leaves the schema out with a located warning; its components are then missing, an error only where used.
    // A remote location the catalog does not map stays an error (locate), and so does a file that cannot be read.
    // An xsd:redefine that restates components needs its schema (§4.2.2 clause 1); an empty one is a hint too.
    const kind = el.name.local as "import" | "include" | "redefine";
    const hintOnly = kind !== "redefine" || el.children.every((c) => c.name.ns === XSD_NS && c.name.local === "annotation");
    const root = this.readFile(abs, el, "schema", location, hintOnly && !isRemote(location));
    if (root === undefined) {
      const section = { include: 1, redefine: 2, import: 3 }[kind];
      const hint = location.startsWith("../") || path.isAbsolute(location) ? ` (if the file is elsewhere, map ${abs} to it in an XML catalog: --catalog <file>)` : "";
      this.diagnostics.warn(specError(el, `xsd:${kind} schemaLocation '${location}': no such file; the ${{ include: "included", redefine: "redefined", import: "imported" }[kind]} schema is left out (a schemaLocation is a hint, XSD 1.0 §4.2.${section})${hint}`));
      const ns = include ? from.tns : (namespace ?? "");
      if (!this.leftOut.has(ns)) this.leftOut.set(ns, el);
      return;
    }
    if (root.name.ns !== XSD_NS || root.name.local !== "schema") {
      throw specError(el, `'${location}' is not an XML schema (root element <${root.name.local}>)`);
    }
    const tns = attr(root, "targetNamespace");
    if (include) {
      if (tns !== undefined && tns !== from.tns) {
        throw specError(el, `included schema '${location}' has targetNamespace '${tns}', expected '${from.tns}'`);
      }
      this.addSchema(root, from.tns);
    } else {
      if ((tns ?? "") !== (namespace ?? "")) {
        throw specError(el, `imported schema '${location}' has targetNamespace '${tns ?? ""}', expected '${namespace ?? ""}'`);
      }
      this.addSchema(root);
    }
  }

  private register(kind: DeclKind, schema: SchemaDoc, el: XmlElement): void {
    const local = attr(el, "name")?.trim();
    if (local === undefined) throw specError(el, `global xsd:${el.name.local} without a name`);
    const name = { ns: schema.tns, local };
    const map = this.decls[kind];
    const prev = map.get(key(name));
    if (prev) {
      // The first declaration stays; lowering goes on so that other mistakes are reported in the same run.
      this.diagnostics.report(specError(el, `duplicate ${kind} '${key(name)}' (first declared at ${prev.el.displayFile}:${prev.el.line}:${prev.el.column})`));
      return;
    }
    map.set(key(name), { kind, schema, el, name });
  }

  /** Resolves a QName-valued attribute as written in `schema` (no-namespace names follow a chameleon include). */
  qname(schema: SchemaDoc, el: XmlElement, value: string): QName {
    const q = resolveQName(el, value);
    return schema.chameleon && q.ns === "" ? { ns: schema.tns, local: q.local } : q;
  }

  /** Said after an unknown reference into a namespace whose schema was left out: which import that was. */
  missingNote(ns: string): string {
    const at = this.leftOut.get(ns);
    return at === undefined ? "" : `; the schema of ${ns === "" ? "no namespace" : `'${ns}'`} was not read (its schemaLocation at ${at.displayFile}:${at.line}:${at.column} names no file)`;
  }

  lookup(kind: DeclKind, name: QName): Decl | undefined {
    return this.decls[kind].get(key(name));
  }

  /** lookup() of a name written at `el`: inside an xsd:redefine's component, its own name means the original. */
  lookupAt(kind: DeclKind, name: QName, el: XmlElement): Decl | undefined {
    const self = this.selfReferences.get(el);
    if (self !== undefined && self.kind === kind && self.key === key(name)) return self.original;
    return this.lookup(kind, name);
  }

  /** The declaration `el`'s attribute `attrName` refers to, or a SpecError "unknown <kind> ..." at `el`. */
  resolve(kind: DeclKind, schema: SchemaDoc, el: XmlElement, attrName: string): Decl {
    const raw = attr(el, attrName) ?? "";
    const q = this.qname(schema, el, raw);
    const d = this.lookupAt(kind, q, el);
    if (!d) throw unknown(el, kind, raw, q, this.missingNote(q.ns));
    return d;
  }

  /** Global declarations of one kind in declaration order (schemas in load order). */
  all(kind: DeclKind): Decl[] {
    return [...this.decls[kind].values()];
  }
}

export function unknown(el: XmlElement, kind: string, raw: string, q: QName, note = "") {
  return specError(el, `unknown ${kind} '${raw.trim()}' (${key(q)})${note}`);
}
