import type { Printable } from "../../codegen/generated-file.js";
import { GeneratedFile } from "../../codegen/generated-file.js";
import { stringLiteral } from "../../codegen/escape.js";
import type { ElementDecl } from "../../ir/model.js";
import type { EmitContext } from "../artifact.js";
import { typeExprTs, unionOf } from "../types/type-expr.js";
import { code, typeRef, xmlContext, type XmlContext } from "./context.js";
import { CODECS, codecOf, emitEnumCodec, emitFamilyCodec, emitRecordCodec, SimpleCodecs } from "./codec-table.js";
import { elementCodecNames } from "./element-names.js";

const XSI_NS = "http://www.w3.org/2001/XMLSchema-instance";

/**
 * `<dir>/xml.ts` for a WSDL/XSD document: a codec table per named type (walked by the runtime), an encode/decode pair
 * per global element, and the `xmlElements` / `xmlTypes` maps for dynamic dispatch. See README.md in this folder.
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
  f.print(code`const ${CODECS} = new ${x.rt("XmlCodecs")}(xmlNamespaces);`);
  f.print();
  const simple = new SimpleCodecs(x);
  for (const t of ctx.doc.types) if (t.kind === "enum") emitEnumCodec(t, x);
  f.print();
  for (const t of ctx.doc.types) if (t.kind === "record") emitRecordCodec(t, x, simple);
  f.print();
  for (const t of ctx.doc.types) if (t.kind === "record" && x.names.family(t.id)) emitFamilyCodec(t, x);
  f.print();
  // Simple codecs and helpers are made while the tables are printed; the type map and elements use them at load time.
  const typeMap = typeMapLines(x, ctx, simple);
  const elements = elementLines(x, ctx, simple);
  for (const line of simple.lines()) f.print(line);
  f.print();
  for (const h of x.helpers.values()) {
    for (const line of h.lines) f.print(line);
    f.print();
  }
  for (const line of typeMap) f.print(line);
  f.print();
  for (const line of elements) f.print(line);
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

/** `xmlTypes`: every named type by "{ns}name" (rpc-style parts, open content naming a record with xsi:type). */
function typeMapLines(x: XmlContext, ctx: EmitContext, simple: SimpleCodecs): Printable[] {
  const out: Printable[] = [];
  out.push("/** Codecs of every named type by \"{namespace}name\" (rpc-style parts, open content with xsi:type). */");
  // The entries are returned by a function declaration, not written inline in the initializer: tsc's control-flow
  // analysis would follow each codec reference there back through every statement before it (quadratic in the file's
  // length); inside a function declaration the walk stops at its start.
  out.push(code`export const xmlTypes: { readonly [name: string]: ${x.rt("XmlTypeCodec", true)} } = ${CODECS}.types(xmlTypeEntries());`);
  out.push("");
  out.push(code`function xmlTypeEntries(): readonly (readonly [string, string, ${x.rt("XmlValueCodec", true)}])[] {`);
  out.push("  return [");
  for (const t of ctx.doc.types) {
    // Anonymous types cannot be named by xsi:type or a part's type=, so they are not in the map.
    if (t.kind === "union" || t.anonymous) continue;
    const codec = codecOf({ kind: "ref", id: t.id }, x, simple);
    out.push(`    [${x.ns(t.scope)}, ${stringLiteral(t.name)}, ${codec}],`);
  }
  out.push("  ];");
  out.push("}");
  return out;
}

/** Per global element: its codec, `encode<E>Element` / `decode<E>Element`, and the `xmlElements` map. */
function elementLines(x: XmlContext, ctx: EmitContext, simple: SimpleCodecs): Printable[] {
  const out: Printable[] = [];
  const names = elementCodecNames(ctx.doc);
  const entries: string[] = [];
  for (const el of ctx.doc.elements) {
    const e = names.get(el.id)!;
    const ts = elementTs(el, x);
    const decl = `e$${e}`;
    const codec = codecOf(el.type, x, simple);
    out.push(`/** {${el.name.ns.replace(/\*\//g, "*\\/")}}${el.name.local.replace(/\*\//g, "*\\/")}${el.doc ? `: ${oneLine(el.doc)}` : ""} */`);
    out.push(`const ${decl} = ${CODECS}.element(${x.ns(el.name.ns)}, ${stringLiteral(el.name.local)}, ${codec}, ${el.nullable});`);
    // Function declarations rather than arrow functions, for the same reason as xmlTypeEntries (tsc's flow walk).
    out.push(code`export function encode${e}Element(value: ${ts}, options?: ${x.rt("XmlEncodeOptions", true)}): string { return ${decl}.toXml(value, options); }`);
    out.push(code`export function decode${e}Element(input: string | ${x.rt("XmlElementNode", true)}, options?: ${x.rt("XmlDecodeOptions", true)}): ${ts} { return ${decl}.fromXml(input, options) as ${ts}; }`);
    entries.push(`    ${stringLiteral(`{${el.name.ns}}${el.name.local}`)}: ${decl},`);
  }
  out.push("");
  out.push("/** Every global element by \"{namespace}localName\", for dispatch by name (SOAP bodies and headers). */");
  const map = code`{ readonly [name: string]: ${x.rt("XmlElementCodec", true)} }`;
  out.push(code`export const xmlElements: ${map} = xmlElementEntries();`);
  out.push("");
  out.push(code`function xmlElementEntries(): ${map} {`);
  out.push("  return {");
  out.push(...entries);
  out.push("  };");
  out.push("}");
  return out;
}

/** A documentation string on one line, safe inside a comment. */
function oneLine(doc: string): string {
  return doc.replace(/\s+/g, " ").trim().replace(/\*\//g, "*\\/");
}

function elementTs(el: ElementDecl, x: XmlContext): Printable {
  const ts = typeExprTs(el.type, x.types);
  return typeRef(el.nullable ? unionOf([ts, "null"]) : ts, x);
}
