import type { Printable } from "../../codegen/generated-file.js";
import { GeneratedFile } from "../../codegen/generated-file.js";
import { stringLiteral } from "../../codegen/escape.js";
import type { ElementDecl, EnumType, NamedType, RecordType } from "../../ir/model.js";
import type { EmitContext } from "../artifact.js";
import { typeExprTs, unionOf } from "../types/type-expr.js";
import { code, typeRef, xmlContext, type XmlContext } from "./context.js";
import { OPEN_TYPES, readElement, writeElementCall } from "./element-values.js";
import { elementCodecNames } from "./element-names.js";
import { emitFamilyReader, emitRecordReader } from "./record-reader.js";
import { emitFamilyWriter, emitRecordWriter } from "./record-writer.js";
import { lexicalOf, valueOf } from "./simple-values.js";

const XSI_NS = "http://www.w3.org/2001/XMLSchema-instance";

/**
 * `<dir>/xml.ts` for a WSDL/XSD document: specialized write/read functions per named type, an encode/decode pair per
 * global element, and the `xmlElements` / `xmlTypes` maps for dynamic dispatch. See README.md in this folder.
 */
export function emitXml(ctx: EmitContext): GeneratedFile {
  const f = new GeneratedFile(`${ctx.dir}/xml.ts`, ctx.source);
  const x = xmlContext(f, ctx);
  f.jsdoc("", [
    `XML codecs for ${ctx.doc.info.title ?? ctx.source}: encode<Element>Element / decode<Element>Element per global element, and the xmlElements / xmlTypes maps for dispatch by name.`,
    "@packageDocumentation",
  ]);
  f.print();
  const namespaces = collectNamespaces(x, ctx);
  for (const uri of namespaces) f.print(`const ${x.ns(uri)} = ${stringLiteral(uri)};`);
  f.print();
  f.jsdoc("", ["Declared on every element encoded on its own, so that children and xsi:type values need no declarations."]);
  const decls = [...namespaces.map((uri) => `[${x.ns(uri)}, "${x.ns(uri)}"]`), `[${stringLiteral(XSI_NS)}, "xsi"]`];
  f.print(`const xmlNamespaces: readonly (readonly [string, string])[] = [${decls.join(", ")}];`);
  f.print();
  for (const t of ctx.doc.types) emitType(t, x);
  for (const h of x.helpers.values()) {
    for (const line of h.lines) f.print(line);
    f.print();
  }
  emitTypeMap(x, ctx);
  emitElements(x, ctx);
  return f;
}

/** Every namespace the codecs name, in a fixed order (elements first, then types), declared as constants up front. */
function collectNamespaces(x: XmlContext, ctx: EmitContext): string[] {
  const out: string[] = [];
  const add = (uri: string): void => {
    if (uri !== "" && !out.includes(uri)) out.push(uri);
  };
  for (const el of ctx.doc.elements) add(el.name.ns);
  for (const t of ctx.doc.types) {
    add(t.scope);
    if (t.kind !== "record") continue;
    for (const s of x.layout(t.id).slots) {
      if (s.kind === "any") {
        add(s.tns);
        for (const tok of s.any.namespace.split(/\s+/)) if (tok !== "" && !tok.startsWith("##")) add(tok);
      } else add(s.ns);
    }
  }
  for (const uri of out) x.ns(uri);
  return out;
}

function emitType(t: NamedType, x: XmlContext): void {
  if (t.kind === "enum") emitEnumReader(t, x);
  else if (t.kind === "record") {
    emitRecordWriter(t, x);
    x.f.print();
    emitRecordReader(t, x);
    if (x.names.family(t.id)) {
      x.f.print();
      emitFamilyWriter(t, x);
      x.f.print();
      emitFamilyReader(t, x);
    }
  } else return;
  x.f.print();
}

function emitEnumReader(t: EnumType, x: XmlContext): void {
  const { f } = x;
  const name = x.names.type(t.id);
  // The values come from the list types.ts exports, so a long enumeration is written once per package.
  const list = f.import(x.names.enumValues(t.id), "./types.js");
  f.print(code`const enum$${name}: ReadonlySet<string> = new Set<string>(${list});`);
  f.print();
  f.print(code`function read${name}(text: string, path: string): ${x.ts(name)} {`);
  f.print(`  if (enum$${name}.has(text)) return text as ${name};`);
  f.print("  const trimmed = text.trim();");
  f.print(`  if (enum$${name}.has(trimmed)) return trimmed as ${name};`);
  const message = code`JSON.stringify(text) + ${stringLiteral(` is not a value of ${t.name}`)}`;
  f.print(code`  throw new ${x.rt("XmlDecodeError")}(path, ${message});`);
  f.print("}");
}

/** `xmlTypes`: every named type by "{ns}name", and the record types open content may name via xsi:type. */
function emitTypeMap(x: XmlContext, ctx: EmitContext): void {
  const { f } = x;
  f.jsdoc("", ["Codecs of every named type by \"{namespace}name\" (rpc-style parts, open content with xsi:type)."]);
  f.print(code`export const xmlTypes: { readonly [name: string]: ${x.rt("XmlTypeCodec", true)} } = {`);
  const records: RecordType[] = [];
  const keys = new Set<string>();
  for (const t of ctx.doc.types) {
    // Anonymous types cannot be named by xsi:type or a part's type=, so they are not in the map.
    const key = `{${t.scope}}${t.name}`;
    if (t.kind === "union" || t.anonymous || keys.has(key)) continue;
    keys.add(key);
    const name = x.names.type(t.id);
    let encode: Printable;
    let decode: Printable;
    if (t.kind === "record") {
      records.push(t);
      const family = x.names.family(t.id);
      if (family) {
        encode = code`(value, w, ns, local) => write${family}(w, ns, local, value as ${x.ts(family)})`;
        decode = `(node, path = "") => read${family}(node, path)`;
      } else {
        const root = x.layout(t.id).familyRoot === t.id;
        encode = code`(value, w, ns, local, xsi) => write${name}(w, ns, local, value as ${x.ts(name)}, xsi === true)`;
        decode = `(node, path = "") => read${name}(node, path${root ? ", false" : ""})`;
      }
    } else {
      const type = { kind: "ref", id: t.id } as const;
      encode = code`(value, w, ns, local) => w.simpleElement(ns, local, ${lexicalOf(code`(value as ${x.ts(name)})`, type, x)})`;
      decode = code`(node, path = "") => ${valueOf("node.text", "path", type, x)}`;
    }
    // One line per type: a schema has hundreds of them.
    f.print(code`  ${stringLiteral(key)}: { encode: ${encode}, decode: ${decode} },`);
  }
  f.print("};");
  f.print();
  f.jsdoc("", ["Record types an open-content element may name with xsi:type (decoded as that record, tagged with $type)."]);
  const list = records.map((r) => `[${x.ns(r.scope)}, ${stringLiteral(r.name)}]`);
  f.print(code`const ${OPEN_TYPES} = ${x.rt("openTypes")}(xmlTypes, [`);
  for (const item of list) f.print(`  ${item},`);
  f.print("]);");
  f.print();
}

function emitElements(x: XmlContext, ctx: EmitContext): void {
  const { f } = x;
  const names = elementCodecNames(ctx.doc);
  const entries: Printable[] = [];
  for (const el of ctx.doc.elements) {
    const e = names.get(el.id)!;
    const ts = elementTs(el, x);
    const ns = x.ns(el.name.ns);
    const local = stringLiteral(el.name.local);
    f.jsdoc("", [el.doc, `Encodes element {${el.name.ns}}${el.name.local} as a standalone XML string.`]);
    f.print(code`export function encode${e}Element(value: ${ts}, options?: ${x.rt("XmlEncodeOptions", true)}): string {`);
    f.print(code`  return ${x.rt("encodeXmlElement")}(value, options, xmlNamespaces, (w, v) => ${elementWrite(el, "v", x)});`);
    f.print("}");
    f.print();
    f.jsdoc("", [`Decodes element {${el.name.ns}}${el.name.local} from XML text or a parsed element.`]);
    f.print(code`export function decode${e}Element(input: string | ${x.rt("XmlElementNode", true)}, options?: ${x.rt("XmlDecodeOptions", true)}): ${ts} {`);
    const read = readElement("node", '""', el.type, x);
    f.print(code`  return ${x.rt("decodeXmlElement")}(input, options, ${ns}, ${local}, (node) => ${el.nullable ? code`${x.rt("isNil")}(node) ? null : ${read}` : read});`);
    f.print("}");
    f.print();
    // The dispatch map's value is unknown: cast to the element's type (without null, which elementWrite tests first).
    const typed = code`(v as ${typeRef(typeExprTs(el.type, x.types), x)})`;
    entries.push(code`  ${stringLiteral(`{${el.name.ns}}${el.name.local}`)}: { encode: (v, w) => ${elementWrite(el, typed, x)}, decode: decode${e}Element },`);
  }
  f.jsdoc("", ["Every global element by \"{namespace}localName\", for dispatch by name (SOAP bodies and headers)."]);
  f.print(code`export const xmlElements: { readonly [name: string]: ${x.rt("XmlElementCodec", true)} } = {`);
  for (const line of entries) f.print(line);
  f.print("};");
}

function elementTs(el: ElementDecl, x: XmlContext): Printable {
  const ts = typeExprTs(el.type, x.types);
  return typeRef(el.nullable ? unionOf([ts, "null"]) : ts, x);
}

/** An expression writing element `el` with value expression `v` (not null-checked unless nillable) to writer `w`. */
function elementWrite(el: ElementDecl, v: Printable, x: XmlContext): Printable {
  const ns = x.ns(el.name.ns);
  if (!el.nullable) return writeElementCall(v, ns, el.name.local, el.type, x, el.name.local);
  // `v` may be a cast (`v as T`): test the bare value, write the cast one.
  return code`v === null ? ${x.rt("xmlNilElement")}(w, ${ns}, ${stringLiteral(el.name.local)}) : ${writeElementCall(v, ns, el.name.local, el.type, x, el.name.local)}`;
}
