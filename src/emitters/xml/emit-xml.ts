import type { Printable } from "../../codegen/generated-file.js";
import { GeneratedFile } from "../../codegen/generated-file.js";
import { stringLiteral } from "../../codegen/escape.js";
import type { ElementDecl, IdentityConstraint, TypeExpr } from "../../ir/model.js";
import type { EmitContext } from "../artifact.js";
import { typeExprTs, unionOf } from "../types/type-expr.js";
import { code, typeRef, xmlContext, type XmlContext } from "./context.js";
import { CODECS, codecOf, constrainedCodecOf, enumEntry, familyEntry, recordEntry, SimpleCodecs } from "./codec-table.js";
import { appendAll } from "../../append-all.js";
import { rpcNamespaces, rpcPartEntries, rpcPartTypes, type RpcPartType } from "./rpc-parts.js";

const XSI_NS = "http://www.w3.org/2001/XMLSchema-instance";

/**
 * `<dir>/xml.ts` for a WSDL/XSD document: one codec table (walked by the runtime), an encode/decode pair per global
 * element, and the `xmlElements` / `xmlTypes` maps for dynamic dispatch. See README.md in this folder.
 * Top-level statements are few and the table is one expression returned by a function declaration: tsc walks back
 * through every top-level statement before a reference to a variable in a top-level initializer (see the runtime's
 * XmlCodecTable), so a const per codec made checking quadratic in the schema's size.
 */
export function emitXml(ctx: EmitContext): GeneratedFile {
  const f = new GeneratedFile(`${ctx.dir}/xml.ts`, ctx.source);
  const x = xmlContext(f, ctx);
  f.jsdoc("", [
    `XML codecs for ${ctx.doc.info.title ?? ctx.source}: encode<Element>Element / decode<Element>Element per global element, and the xmlElements / xmlTypes maps for dispatch by name.`,
    "@packageDocumentation",
  ]);
  f.print();
  // rpc-style parts (client.ts and server.ts): their types' codecs by XML name, xsd builtins included.
  const rpcParts = rpcPartTypes(ctx.doc, x);
  const namespaces = collectNamespaces(x, ctx, rpcNamespaces(rpcParts));
  for (const uri of namespaces) f.print(`const ${x.ns(uri)} = ${stringLiteral(uri)};`);
  f.print();
  f.jsdoc("", ["Declared on every element encoded on its own, so that children and xsi:type values need no declarations."]);
  const decls = [...namespaces.map((uri) => `[${x.ns(uri)}, "${x.ns(uri)}"]`), `[${stringLiteral(XSI_NS)}, "xsi"]`];
  const exported = rpcParts.length > 0 ? "export " : "";
  f.print(`${exported}const xmlNamespaces: readonly (readonly [string, string])[] = [${decls.join(", ")}];`);
  f.print();
  f.print(code`const ${CODECS} = new ${x.rt("XmlCodecs")}(xmlNamespaces, xmlCodecTable());`);
  f.print();
  f.print("/** Codecs of every named type by \"{namespace}name\" (rpc-style parts, open content with xsi:type). */");
  f.print(code`export const xmlTypes: { readonly [name: string]: ${x.rt("XmlTypeCodec", true)} } = ${CODECS}.typeCodecs();`);
  f.print();
  f.print("/** Every global element by \"{namespace}localName\", for dispatch by name (SOAP bodies and headers). */");
  f.print(code`export const xmlElements: { readonly [name: string]: ${x.rt("XmlElementCodec", true)} } = ${CODECS}.elementCodecs();`);
  f.print();
  if (rpcParts.length > 0) {
    f.jsdoc("", [
      "The types of rpc-style message parts by \"{namespace}name\" (client.ts and server.ts build their wrapper elements from them): each one's codec, and the item element and item type of a SOAP-ENC array.",
    ]);
    f.print(code`export const xmlPartTypes: { readonly [name: string]: ${x.rt("SoapRpcPartType", true)} } = ${x.rt("soapRpcPartTypes")}(xmlTypes, [`);
    for (const line of rpcPartEntries(rpcParts, x)) f.print("  ", line);
    f.print("]);");
    f.print();
  }
  const simple = new SimpleCodecs(x);
  const table: Printable[] = [];
  const section = (key: string, lines: readonly Printable[]): void => {
    table.push(`${key}: [`);
    appendAll(table, lines.map((l): Printable => ["  ", l]));
    table.push("],");
  };
  const records = ctx.doc.types.flatMap((t) => (t.kind === "record" ? recordEntry(t, x, simple) : []));
  const families = ctx.doc.types.flatMap((t) => (t.kind === "record" && x.names.family(t.id) ? [familyEntry(t, x)] : []));
  const { functions, entries } = elementLines(x, ctx, simple);
  const types = typeEntries(x, ctx, simple, rpcParts);
  // Simple codecs are named while the other entries are made; enumerations first, as before.
  section("codecs", [...ctx.doc.types.flatMap((t) => (t.kind === "enum" ? [enumEntry(t, x)] : [])), ...simple.lines()]);
  section("records", records);
  section("families", families);
  section("elements", entries);
  section("types", types);
  // Identity constraints (xs:unique, xs:key, xs:keyref), checked by the runtime on each decoded document.
  const identity = ctx.doc.identityConstraints ?? [];
  if (identity.length > 0) {
    section("identity", identity.map(identityEntry));
    section("identityTypes", identityTypes(ctx, x, valueSpace));
  }
  // xsd:ID values are unique in a document and every xsd:IDREF names one (XSD 1.0 Part 2 3.3.8-3.3.10).
  const ids = identityTypes(ctx, x, idKind);
  if (ids.length > 0) section("ids", [...ids, ...skippingElements(ctx, x)]);
  // The runtime's document check is handed to the table only here, so other schemas' bundles leave it out.
  if (identity.length > 0 || ids.length > 0) table.push(code`documentCheck: ${x.rt("checkXmlDocument")},`);
  for (const line of functions) f.print(line);
  f.print();
  f.jsdoc("", [
    "Every codec of this file, naming each other by string (resolved by the runtime on first use): records with a line per field `[flags, namespace, local name, key, codec]`, xsi:type families, simple and enumeration codecs, global elements and named types.",
  ]);
  f.print(code`function xmlCodecTable(): ${x.rt("XmlCodecTable", true)} {`);
  f.print("  return {");
  for (const line of table) f.print("    ", line);
  f.print("  };");
  f.print("}");
  for (const h of x.helpers.values()) {
    f.print();
    for (const line of h.lines) f.print(line);
  }
  return f;
}

/** Every namespace the codecs name, in a fixed order (elements first, then types), declared as constants up front. */
function collectNamespaces(x: XmlContext, ctx: EmitContext, extra: readonly string[]): string[] {
  const out: string[] = [];
  const add = (uri: string): void => {
    if (uri !== "" && !out.includes(uri)) out.push(uri);
  };
  for (const el of ctx.doc.elements) add(el.name.ns);
  for (const t of ctx.doc.types) {
    add(t.scope);
    if (t.kind !== "record") continue;
    for (const s of x.layout(t.id).slots.flatMap((s) => (s.kind === "ordered" ? s.items.map((i) => i.slot) : [s]))) {
      if (s.kind === "any") {
        add(s.tns);
        for (const tok of s.any.namespace.split(/\s+/)) if (tok !== "" && !tok.startsWith("##")) add(tok);
      } else add(s.ns);
    }
  }
  for (const uri of extra) add(uri);
  for (const uri of out) x.ns(uri);
  return out;
}

/** `xmlTypes` entries: every named type by namespace and name (rpc-style parts, open content naming a record with xsi:type). */
function typeEntries(x: XmlContext, ctx: EmitContext, simple: SimpleCodecs, rpcParts: readonly RpcPartType[]): string[] {
  const out: string[] = [];
  const named = new Set<string>();
  for (const t of ctx.doc.types) {
    // Anonymous types cannot be named by xsi:type or a part's type=, so they are not in the map.
    if (t.kind === "union" || t.anonymous) continue;
    const codec = codecOf({ kind: "ref", id: t.id }, x, simple);
    named.add(`{${t.scope}}${t.name}`);
    out.push(`[${x.ns(t.scope)}, ${stringLiteral(t.name)}, ${stringLiteral(codec)}],`);
  }
  // The builtins (and named unions) rpc parts and SOAP-ENC array items are typed with.
  const more = rpcParts.flatMap((p) => [{ name: p.name, type: p.type }, ...(p.array ? [{ name: p.array.itemName, type: p.array.itemType }] : [])]);
  for (const m of more) {
    const key = `{${m.name[0]}}${m.name[1]}`;
    if (named.has(key)) continue;
    named.add(key);
    out.push(`[${x.ns(m.name[0])}, ${stringLiteral(m.name[1])}, ${stringLiteral(codecOf(m.type, x, simple))}],`);
  }
  return out;
}

/** Per global element: its table entry and `encode<E>Element` / `decode<E>Element`, which look it up by name. */
function elementLines(x: XmlContext, ctx: EmitContext, simple: SimpleCodecs): { functions: Printable[]; entries: string[] } {
  const functions: Printable[] = [];
  const entries: string[] = [];
  for (const el of ctx.doc.elements) {
    const { stem: e, encode, decode } = ctx.names.element(el.id);
    const ts = elementTs(el, x);
    const codec = constrainedCodecOf(el.type, el, x, simple);
    const decl = code`${CODECS}.elementNamed(${stringLiteral(e)})`;
    functions.push(`/** {${el.name.ns.replace(/\*\//g, "*\\/")}}${el.name.local.replace(/\*\//g, "*\\/")}${el.doc ? `: ${oneLine(el.doc)}` : ""} */`);
    functions.push(code`export function ${encode}(value: ${ts}, options?: ${x.rt("XmlEncodeOptions", true)}): string { return ${decl}.toXml(value, options); }`);
    functions.push(code`export function ${decode}(input: string | ${x.rt("XmlElementNode", true)}, options?: ${x.rt("XmlDecodeOptions", true)}): ${ts} { return ${decl}.fromXml(input, options) as ${ts}; }`);
    // An abstract element (its 6th entry, true) never stands in a document itself (cvc-elt.2): decoding it as the
    // root is refused.
    entries.push(`[${stringLiteral(e)}, ${x.ns(el.name.ns)}, ${stringLiteral(el.name.local)}, ${stringLiteral(codec)}, ${el.nullable}${el.abstract === true ? ", true" : ""}],`);
  }
  return { functions, entries };
}

/** A documentation string on one line, safe inside a comment. */
function oneLine(doc: string): string {
  return doc.replace(/\s+/g, " ").trim().replace(/\*\//g, "*\\/");
}

function elementTs(el: ElementDecl, x: XmlContext): Printable {
  const ts = typeExprTs(el.type, x.types);
  return typeRef(el.nullable ? unionOf([ts, "null"]) : ts, x);
}

/**
 * An identity constraint's entry: `[ns, element, kind, "{ns}name", "{ns}refer" or "", selector, fields]`, the XPaths
 * compiled by the parser (alternatives of steps, see the IR's IdentityConstraint).
 */
function identityEntry(ic: IdentityConstraint): string {
  const path = (alternatives: readonly (readonly string[])[]): string => `[${alternatives.map((steps) => `[${steps.map(stringLiteral).join(", ")}]`).join(", ")}]`;
  const refer = ic.refer === undefined ? "" : `{${ic.refer.ns}}${ic.refer.local}`;
  return `[${stringLiteral(ic.element.ns)}, ${stringLiteral(ic.element.local)}, ${stringLiteral(ic.kind)}, ${stringLiteral(`{${ic.name.ns}}${ic.name.local}`)}, ${stringLiteral(refer)}, ${path(ic.selector)}, [${ic.fields.map(path).join(", ")}]],`;
}

/**
 * The value space identity constraints compare a field in, per element and attribute name of the schema ("{ns}local",
 * "@{ns}local"): "decimal" (xsd:decimal and the integers), "float", "double", "boolean", "string", "token" (a string
 * whose whitespace collapses), ..., "any" for
 * xsd:anyType. A name declared with types of different value spaces, or of no simple type, is left out (compared as
 * a string).
 */
function identityTypes(ctx: EmitContext, x: XmlContext, of: (t: TypeExpr, x: XmlContext, depth: number) => string): string[] {
  const found = new Map<string, string>();
  const add = (name: string, t: TypeExpr): void => {
    const space = of(t, x, 0);
    const known = found.get(name);
    found.set(name, known === undefined || known === space ? space : "");
  };
  for (const el of ctx.doc.elements) add(`{${el.name.ns}}${el.name.local}`, el.type);
  for (const t of ctx.doc.types) {
    if (t.kind !== "record") continue;
    for (const slot of x.layout(t.id).slots) {
      for (const s of slot.kind === "ordered" ? slot.items.map((i) => i.slot) : [slot]) {
        if (s.kind === "element") add(`{${s.ns}}${s.local}`, s.field.type);
        else if (s.kind === "attribute") add(`@{${s.ns}}${s.local}`, s.field.type);
      }
    }
  }
  return [...found].filter(([, space]) => space !== "").map(([name, space]) => `[${stringLiteral(name)}, ${stringLiteral(space)}],`);
}

const DECIMAL_SPACE = new Set(["int32", "int64", "uint32", "uint64", "sint32", "sint64", "fixed32", "fixed64", "sfixed32", "sfixed64", "integer", "decimal"]);

function valueSpace(type: TypeExpr, x: XmlContext, depth: number): string {
  const t = depth > 32 ? undefined : underlyingSimple(type, x);
  switch (t?.kind) {
    case "scalar":
      if (DECIMAL_SPACE.has(t.scalar)) return "decimal";
      if (t.scalar === "bytes") return t.builtin === "xsd:hexBinary" ? "hexBinary" : "base64Binary";
      // xsd:string and normalizedString keep their spaces; the other strings (token, Name, ID...) collapse them.
      if (t.scalar === "string" && t.builtin !== undefined && t.builtin !== "xsd:normalizedString") return "token";
      return t.scalar;
    case "list": {
      const item = valueSpace(t.of, x, depth + 1);
      return item === "" ? "" : `list ${item}`;
    }
    default:
      return "";
  }
}

/**
 * The simple type under `t`: through references to aliases, enumerations (their base) and records of simple
 * content (their text's type); undefined for a record of complex content (or a cycle of references).
 */
function underlyingSimple(t: TypeExpr, x: XmlContext): TypeExpr | undefined {
  for (let depth = 0; t.kind === "ref"; depth++) {
    if (depth > 32) return undefined;
    const named = x.type(t.id);
    if (named.kind === "alias") t = named.target;
    else if (named.kind === "enum") t = named.base;
    else {
      // A complex type of simple content compares its text.
      const text = named.kind === "record" ? x.layout(named.id).slots.find((slot) => slot.kind === "text") : undefined;
      if (text === undefined || text.kind !== "text") return undefined;
      t = text.field.type;
    }
  }
  return t;
}

/**
 * `["{ns}local", "skip"]` for the element names whose type has an xsd:any processContents="skip": their content is
 * not assessed (XSD 1.0 3.10.1), so the ID walk does not go into it.
 */
function skippingElements(ctx: EmitContext, x: XmlContext): string[] {
  const skips = (t: TypeExpr): boolean => {
    if (t.kind !== "ref") return false;
    const named = x.type(t.id);
    if (named.kind !== "record") return false;
    return x.layout(named.id).slots.some((s) => (s.kind === "any" ? s.any.processContents === "skip" : s.kind === "ordered" ? s.items.some((i) => i.slot.kind === "any" && i.slot.any.processContents === "skip") : false));
  };
  const names = new Set<string>();
  for (const el of ctx.doc.elements) if (skips(el.type)) names.add(`{${el.name.ns}}${el.name.local}`);
  for (const t of ctx.doc.types) {
    if (t.kind !== "record") continue;
    for (const slot of x.layout(t.id).slots) {
      for (const s of slot.kind === "ordered" ? slot.items.map((i) => i.slot) : [slot]) if (s.kind === "element" && skips(s.field.type)) names.add(`{${s.ns}}${s.local}`);
    }
  }
  return [...names].map((n) => `[${stringLiteral(n)}, "skip"],`);
}

/** "ID", "IDREF", "IDREFS" (a list of IDREF included) or "IDS" (a list of ID) for the types of that kind, else "". */
function idKind(type: TypeExpr, x: XmlContext, depth: number): string {
  const t = depth > 32 ? undefined : underlyingSimple(type, x);
  switch (t?.kind) {
    case "scalar":
      return t.builtin === "xsd:ID" ? "ID" : t.builtin === "xsd:IDREF" ? "IDREF" : t.builtin === "xsd:IDREFS" ? "IDREFS" : "";
    case "list": {
      const item = idKind(t.of, x, depth + 1);
      return item === "ID" ? "IDS" : item === "IDREF" ? "IDREFS" : "";
    }
    default:
      return "";
  }
}
