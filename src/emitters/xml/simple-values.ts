import type { Printable } from "../../codegen/generated-file.js";
import type { AliasType, EnumType, ScalarType, TypeExpr } from "../../ir/model.js";
import { hasXsdStringForm } from "../../runtime/xml/checks.js";
import { listPatternParts, translateXsdPattern } from "../xml-validators/xsd-regex.js";
import { literalTs, typeExprTs } from "../types/type-expr.js";
import { stringLiteral } from "../../codegen/escape.js";
import { patternPlan } from "../../codegen/spec-pattern.js";
import { code, typeRef, type XmlContext } from "./context.js";

/**
 * Simple values (text content and attribute values): expressions that turn a value into its XSD lexical form
 * (`lexicalOf`) and text back into a value (`valueOf`). Named enums have a `read<Name>` function that checks
 * membership; xsd:union and literal types get small helpers generated once per distinct type.
 */

/** Integer builtins that map to a JS number, with their ranges. */
const INT_RANGES: Readonly<Record<string, readonly [string, string]>> = {
  "xsd:int": ["-2147483648", "2147483647"],
  "xsd:short": ["-32768", "32767"],
  "xsd:byte": ["-128", "127"],
  "xsd:unsignedInt": ["0", "4294967295"],
  "xsd:unsignedShort": ["0", "65535"],
  "xsd:unsignedByte": ["0", "255"],
};

/** The value range of an integer scalar carried as a JS number, with the builtin's name. */
export function intRange(s: ScalarType): { min: string; max: string; type: string } | undefined {
  const signed = s.scalar === "int32" || s.scalar === "sint32" || s.scalar === "sfixed32";
  const unsigned = s.scalar === "uint32" || s.scalar === "fixed32";
  if (!signed && !unsigned) return undefined;
  const fallback = signed ? "xsd:int" : "xsd:unsignedInt";
  const type = s.builtin !== undefined && INT_RANGES[s.builtin] ? s.builtin : fallback;
  const [min, max] = INT_RANGES[type]!;
  return { min, max, type };
}

export const LONG_RANGES = {
  signed: ["-9223372036854775808", "9223372036854775807"],
  unsigned: ["0", "18446744073709551615"],
} as const;

/** True when values of this type are written as text (not as an element with children). */
export function isSimple(t: TypeExpr, x: XmlContext): boolean {
  switch (t.kind) {
    case "scalar":
      return t.scalar !== "any";
    case "ref": {
      const n = x.type(t.id);
      return n.kind === "enum" || (n.kind === "alias" && isSimple(n.target, x));
    }
    case "list":
    case "literal":
      return true;
    case "union":
      return t.of.every((m) => isSimple(m, x));
    case "map":
      return false;
  }
}

/** The expression giving the lexical form of `v` (an expression of type `t`). */
export function lexicalOf(v: Printable, t: TypeExpr, x: XmlContext): Printable {
  switch (t.kind) {
    case "scalar":
      return scalarLexical(v, t, x);
    case "ref": {
      const n = x.type(t.id);
      if (n.kind === "enum") return v;
      if (n.kind === "alias") {
        const write = lexicalPatternWriter(n, x);
        return write === undefined ? lexicalOf(v, n.target, x) : code`${write}(${v})`;
      }
      throw new Error(`internal: ${t.id} is not a simple type`);
    }
    case "list":
      return code`${v}.map((item) => ${lexicalOf("item", t.of, x)}).join(" ")`;
    case "literal":
    case "union":
      return code`${helper(t, x).write}(${v})`;
    case "map":
      throw new Error("internal: a map is not a simple XML value");
  }
}

function scalarLexical(v: Printable, t: ScalarType, x: XmlContext): Printable {
  switch (t.scalar) {
    case "boolean":
      return code`(${v} ? "true" : "false")`;
    case "float":
    case "double":
      return code`${x.rt("formatXsdDouble")}(${v})`;
    case "bytes":
      return code`${x.rt(t.builtin === "xsd:hexBinary" ? "encodeHex" : "encodeBase64")}(${v})`;
    case "dateTime":
      return x.types.options.dates === "Date" ? code`${x.rt("formatXsdDateTime")}(${v})` : v;
    case "string":
    case "decimal":
    case "date":
    case "time":
    case "duration":
    case "anyURI":
      return v;
    case "QName":
      // {namespace}local -> prefix:local, the prefix declared on the element being written (runtime qname.ts).
      return code`${x.rt("formatXsdQName")}(${v})`;
    default:
      return code`String(${v})`;
  }
}

/** The expression decoding text expression `text` (error path expression `path`) into a value of type `t`. */
export function valueOf(text: Printable, path: Printable, t: TypeExpr, x: XmlContext): Printable {
  switch (t.kind) {
    case "scalar":
      return scalarValue(text, path, t, x);
    case "ref": {
      const n = x.type(t.id);
      if (n.kind === "enum") return code`${enumReader(n, x)}(${text}, ${path})`;
      if (n.kind === "alias") {
        const check = lexicalPatternCheck(n, x);
        return valueOf(check === undefined ? text : code`${check}(${text}, ${path})`, path, n.target, x);
      }
      throw new Error(`internal: ${t.id} is not a simple type`);
    }
    case "list":
      return code`${x.rt("splitXsdList")}(${text}).map((item, i) => ${valueOf("item", code`${path} + "/" + i`, t.of, x)})`;
    case "literal":
    case "union":
      return code`${helper(t, x).read}(${text}, ${path})`;
    case "map":
      throw new Error("internal: a map is not a simple XML value");
  }
}

function scalarValue(text: Printable, path: Printable, t: ScalarType, x: XmlContext): Printable {
  const range = intRange(t);
  if (range) return code`${x.rt("parseXsdInt")}(${text}, ${range.min}, ${range.max}, ${path}, "${range.type}")`;
  switch (t.scalar) {
    case "string":
    case "anyURI":
      return text;
    case "QName":
      // prefix:local -> {namespace}local in the bindings of the element read (runtime qname.ts).
      return code`${x.rt("parseXsdQName")}(${text}, ${path})`;
    case "boolean":
      return code`${x.rt("parseXsdBoolean")}(${text}, ${path})`;
    case "int64":
    case "uint64":
    case "sint64":
    case "fixed64":
    case "sfixed64": {
      const unsigned = t.scalar === "uint64" || t.scalar === "fixed64";
      const [min, max] = unsigned ? LONG_RANGES.unsigned : LONG_RANGES.signed;
      const fn = { bigint: "parseXsdLong", string: "parseXsdLongString", number: "parseXsdLongNumber" }[x.types.options.int64];
      const type = t.builtin ?? (unsigned ? "xsd:unsignedLong" : "xsd:long");
      return code`${x.rt(fn)}(${text}, ${min}n, ${max}n, ${path}, "${type}")`;
    }
    case "integer":
      return code`${x.rt("parseXsdInteger")}(${text}, ${path}, "${t.builtin ?? "xsd:integer"}")`;
    case "float":
    case "double":
      return code`${x.rt("parseXsdDouble")}(${text}, ${path}, "xsd:${t.scalar}")`;
    case "decimal":
      return code`${x.rt("parseXsdDecimal")}(${text}, ${path})`;
    case "bytes":
      return code`${x.rt(t.builtin === "xsd:hexBinary" ? "parseXsdHex" : "parseXsdBase64")}(${text}, ${path})`;
    case "dateTime":
      if (x.types.options.dates === "Date") return code`new Date(${x.rt("parseXsdTemporal")}(${text}, "dateTime", ${path}))`;
      return code`${x.rt("parseXsdTemporal")}(${text}, "dateTime", ${path})`;
    case "date":
    case "time":
    case "duration":
      return code`${x.rt("parseXsdTemporal")}(${text}, "${t.scalar}", ${path})`;
    default:
      throw new Error(`internal: no XML lexical form for scalar ${t.scalar}`);
  }
}

/**
 * `read<Name>(text, path)` for a named enumeration read inside a list or union (a field of the enumeration's type
 * uses its codec-table entry instead): membership of the text or of its trimmed form, as xmlEnumCodec. Generated once
 * per enumeration, printed with the other helpers.
 */
function enumReader(n: EnumType, x: XmlContext): string {
  const tsName = x.names.type(n.id);
  const name = x.names.derived(n.id, "read");
  const key = `enum:${n.id}`;
  if (x.helpers.has(key)) return name;
  const lines: Printable[] = [];
  x.helpers.set(key, { name, lines });
  const values = x.f.import(x.names.enumValues(n.id), "./types.js");
  if (n.base.kind === "scalar" && n.base.scalar === "QName") {
    lines.push(
      code`function ${name}(text: string, path: string): ${x.ts(tsName)} {`,
      code`  const values: readonly string[] = ${values};`,
      code`  const value = ${x.rt("parseXsdQName")}(text, path);`,
      code`  if (values.includes(value)) return value as ${x.ts(tsName)};`,
      code`  throw new ${x.rt("XmlDecodeError")}(path, JSON.stringify(text) + ${stringLiteral(` is not a value of ${n.name}`)});`,
      "}",
    );
    return name;
  }
  lines.push(
    code`function ${name}(text: string, path: string): ${x.ts(tsName)} {`,
    code`  const values: readonly string[] = ${values};`,
    code`  if (values.includes(text)) return text as ${x.ts(tsName)};`,
    "  const trimmed = text.trim();",
    code`  if (values.includes(trimmed)) return trimmed as ${x.ts(tsName)};`,
    code`  throw new ${x.rt("XmlDecodeError")}(path, JSON.stringify(text) + ${stringLiteral(` is not a value of ${n.name}`)});`,
    "}",
  );
  return name;
}

/** Scalars whose decoded value keeps the instance's lexical form (validate.ts can check a pattern on the value). */
export const LEXICAL_KEPT: ReadonlySet<string> = new Set(["string", "anyURI", "decimal", "date", "time", "dateTime", "duration"]);

/**
 * Whether values of a simple type hold QNames (through aliases, lists and unions): their codec reads them in the
 * bindings of their element and writes them with prefixes declared there (the runtime's XmlSimpleCodec `qname`).
 */
export function holdsQName(t: TypeExpr, x: { type(id: string): import("../../ir/model.js").NamedType }, depth = 0): boolean {
  if (depth > 100) return false;
  switch (t.kind) {
    case "scalar":
      return t.scalar === "QName";
    case "list":
      return holdsQName(t.of, x, depth + 1);
    case "union":
      return t.of.some((m) => holdsQName(m, x, depth + 1));
    case "ref": {
      const n = x.type(t.id);
      if (n.kind === "alias") return holdsQName(n.target, x, depth + 1);
      if (n.kind === "enum") return n.base.kind === "scalar" && n.base.scalar === "QName";
      return false;
    }
    default:
      return false;
  }
}

/** True when values of `t` lose their lexical form on decoding (numbers, booleans, binary; lists of them). */
export function losesLexicalForm(t: TypeExpr, x: { type(id: string): import("../../ir/model.js").NamedType }): boolean {
  for (let depth = 0; depth < 100; depth++) {
    if (t.kind === "scalar") return !LEXICAL_KEPT.has(t.scalar);
    if (t.kind === "list") return losesLexicalForm(t.of, x);
    if (t.kind !== "ref") return false;
    const n = x.type(t.id);
    if (n.kind !== "alias") return false;
    t = n.target;
  }
  return false;
}

/** The patterns of an alias the decoder checks on the text (see lexicalPatternCheck). */
export function decodedPatterns(n: AliasType, x: XmlContext): { p: string; source: string }[] {
  if (!n.facets?.patterns?.length || !losesLexicalForm(n.target, x)) return [];
  return n.facets.patterns.flatMap((p) => {
    const t = translateXsdPattern(p);
    return "unsupported" in t ? [] : [{ p, source: t.source }];
  });
}

/**
 * `checkLexical<Name>(text, path)`: the pattern facets of a restriction whose values lose their lexical form
 * (`xsd:double` with pattern `\d\.\dE\d`), tested on the instance's text (whitespace collapsed) as it is decoded,
 * since validate.ts only sees the value. Undefined when there is nothing to check there.
 */
function lexicalPatternCheck(n: AliasType, x: XmlContext): string | undefined {
  const supported = decodedPatterns(n, x);
  if (supported.length === 0) return undefined;
  const name = x.names.derived(n.id, "checkLexical");
  const patterns = x.names.derived(n.id, "lexicalPatterns");
  const key = `lexical:${n.id}`;
  if (x.helpers.has(key)) return name;
  const lines: Printable[] = [];
  x.helpers.set(key, { name, lines });
  lines.push(`const ${patterns}: readonly (readonly [{ test(text: string): boolean }, string])[] = [`);
  for (const { p, source } of supported) {
    lines.push(code`  [${patternMatcher(source, x)}, ${stringLiteral(p)}],`);
  }
  lines.push(
    "];",
    "",
    code`function ${name}(text: string, path: string): string {`,
    "  const lexical = text.trim().replace(/[ \\t\\n\\r]+/g, \" \");",
    `  for (const [re, pattern] of ${patterns}) {`,
    code`    if (!re.test(lexical)) throw new ${x.rt("XmlDecodeError")}(path, JSON.stringify(text) + " does not match the pattern " + pattern);`,
    "  }",
    "  return text;",
    "}",
  );
  return name;
}

/**
 * A matcher for a translated pattern: where backtracking could be super-linear, the linear-time matcher
 * (src/codegen/spec-pattern.ts).
 */
function patternMatcher(source: string, x: XmlContext): Printable {
  return patternPlan(source, "u").kind === "linear" ? code`${x.rt("linearPattern")}(${stringLiteral(source)}, "u")` : `new RegExp(${stringLiteral(source)}, "u")`;
}

/**
 * `writeLexical<Name>(v)` for a restriction of xsd:boolean, xsd:float or xsd:double whose patterns the decoder
 * checks (lexicalPatternCheck): the canonical form when the patterns allow it, else the first other lexical form of
 * the same value they allow ("1" for true; "4.54918975E-08" or "0.0100" for a double), so that what was read can be
 * written back. Undefined for other types (their canonical form is written).
 */
function lexicalPatternWriter(n: AliasType, x: XmlContext): string | undefined {
  const base = scalarBase(n.target, x);
  if (base === undefined) return booleanListWriter(n, x) ?? doubleListWriter(n, x);
  if (!["boolean", "float", "double"].includes(base.scalar)) return undefined;
  const check = lexicalPatternCheck(n, x);
  if (check === undefined) return undefined;
  return lexicalWriter(n, x, (lines) => {
    lines.push(
      code`  const canonical = ${lexicalOf("v", n.target, x)};`,
      `  const allowed = (s: string): boolean => ${x.names.derived(n.id, "lexicalPatterns")}.every(([re]) => re.test(s));`,
      "  if (allowed(canonical)) return canonical;",
    );
    if (base.scalar === "boolean") lines.push('  const other = v ? "1" : "0";', "  return allowed(other) ? other : canonical;");
    else lines.push(code`  return ${x.rt("lexicalDoubleForm")}(v, allowed) ?? canonical;`);
  });
}

/**
 * `writeLexical<Name>` of `n`, declared once among the file's helpers: its signature, the statements `body` adds,
 * and the closing brace. Returns the function's name.
 */
function lexicalWriter(n: AliasType, x: XmlContext, body: (lines: Printable[]) => void): string {
  const tsName = x.names.type(n.id);
  const name = x.names.derived(n.id, "writeLexical");
  const key = `lexical-write:${n.id}`;
  if (x.helpers.has(key)) return name;
  const lines: Printable[] = [code`function ${name}(v: ${x.ts(tsName)}): string {`];
  x.helpers.set(key, { name, lines });
  body(lines);
  lines.push("}");
  return name;
}

/**
 * `writeLexical<Name>(v)` for a list of booleans whose patterns the decoder checks: each item is "true"/"false" or
 * "1"/"0", and a pattern may want either at each position ("[1]{1} false [0]{1} true"). The forms are tried item by
 * item, at most 2^12 combinations (the first 12 items; the rest keep their canonical form).
 */
function booleanListWriter(n: AliasType, x: XmlContext): string | undefined {
  let t: TypeExpr = n.target;
  for (let depth = 0; depth < 100 && t.kind === "ref"; depth++) {
    const d = x.type(t.id);
    if (d.kind !== "alias") return undefined;
    t = d.target;
  }
  if (t.kind !== "list" || scalarBase(t.of, x)?.scalar !== "boolean") return undefined;
  const check = lexicalPatternCheck(n, x);
  if (check === undefined) return undefined;
  return lexicalWriter(n, x, (lines) => {
    lines.push(
      `  const allowed = (s: string): boolean => ${x.names.derived(n.id, "lexicalPatterns")}.every(([re]) => re.test(s));`,
      "  const words = (v as readonly boolean[]).map((b) => (b ? \"true\" : \"false\"));",
      "  const shown = Math.min(words.length, 12);",
      "  for (let mask = 0; mask < 1 << shown; mask++) {",
      "    const s = words.map((w, i) => (i < shown && (mask >> i) & 1 ? (w === \"true\" ? \"1\" : \"0\") : w)).join(\" \");",
      "    if (allowed(s)) return s;",
      "  }",
      "  return words.join(\" \");",
    );
  });
}

/**
 * `writeLexical<Name>(v)` for a list of floats/doubles whose patterns the decoder checks on the whole list, each
 * item in its own notation ("4E-11 .24E-4 1.26E4"): the runtime's formatXsdDoubleList, given each pattern split at
 * its top-level spaces (listPatternParts) as the pattern of each item by position.
 */
function doubleListWriter(n: AliasType, x: XmlContext): string | undefined {
  let t: TypeExpr = n.target;
  for (let depth = 0; depth < 100 && t.kind === "ref"; depth++) {
    const d = x.type(t.id);
    if (d.kind !== "alias") return undefined;
    t = d.target;
  }
  if (t.kind !== "list") return undefined;
  const item = scalarBase(t.of, x)?.scalar;
  if (item !== "float" && item !== "double") return undefined;
  const check = lexicalPatternCheck(n, x);
  if (check === undefined) return undefined;
  const splits: Printable[] = [];
  for (const { p } of decodedPatterns(n, x)) {
    const parts = listPatternParts(p)?.map((part) => translateXsdPattern(part));
    if (parts === undefined || parts.some((r) => "unsupported" in r)) continue;
    const matchers = parts.map((r) => patternMatcher((r as { source: string }).source, x));
    splits.push(splits.length > 0 ? ", " : "", "[", matchers.flatMap((m, i) => (i > 0 ? [", ", m] : [m])), "]");
  }
  return lexicalWriter(n, x, (lines) => {
    lines.push(
      `  const allowed = (s: string): boolean => ${check}Patterns.every(([re]) => re.test(s));`,
      code`  return ${x.rt("formatXsdDoubleList")}(v as readonly number[], allowed, [${splits}]);`,
    );
  });
}

function scalarBase(t: TypeExpr, x: XmlContext): ScalarType | undefined {
  for (let depth = 0; depth < 100; depth++) {
    if (t.kind === "scalar") return t;
    if (t.kind !== "ref") return undefined;
    const n = x.type(t.id);
    if (n.kind !== "alias") return undefined;
    t = n.target;
  }
  return undefined;
}

/** A JS runtime test that a value has the TS shape of `t` (to pick a union member when encoding). */
function shapeTest(v: string, t: TypeExpr, x: XmlContext): string {
  // A named simple type has the shape of what it restricts: look through aliases (U1Member1 = bigint).
  for (let depth = 0; t.kind === "ref" && depth < 100; depth++) {
    const n = x.type(t.id);
    if (n.kind !== "alias") break;
    t = n.target;
  }
  if (t.kind === "list") return `Array.isArray(${v})`;
  if (t.kind === "literal") return `${v} === ${literalTs(t.value)}`;
  // A union member that is itself a union (a named one): any of its members' shapes.
  if (t.kind === "union") return `(${[...new Set(t.of.map((m) => shapeTest(v, m, x)))].join(" || ")})`;
  const ts = typeExprTs(t, x.types);
  if (ts === "number" || ts === "bigint" || ts === "boolean" || ts === "string") return `typeof ${v} === "${ts}"`;
  if (ts === "Uint8Array" || ts === "Date") return `${v} instanceof ${ts}`;
  return `typeof ${v} === "string"`;
}

/** The string builtin with a lexical form (hasXsdStringForm) a union member is, through aliases; else undefined. */
function stringForm(t: TypeExpr, x: XmlContext, depth = 0): string | undefined {
  if (t.kind === "scalar") return t.scalar === "string" && t.builtin !== undefined && hasXsdStringForm(t.builtin) ? t.builtin : undefined;
  if (t.kind !== "ref" || depth > 32) return undefined;
  const n = x.type(t.id);
  return n.kind === "alias" ? stringForm(n.target, x, depth + 1) : undefined;
}

/** read/write helpers for a union or literal type, generated once per distinct type expression. */
function helper(t: TypeExpr & { kind: "union" | "literal" }, x: XmlContext): { read: string; write: string } {
  const key = JSON.stringify(t);
  const existing = x.helpers.get(key);
  const n = existing?.name ?? `$${[...x.helpers.keys()].filter((k) => !k.startsWith("enum:") && !k.startsWith("lexical")).length + 1}`;
  const names = { read: `readUnion${n}`, write: `writeUnion${n}` };
  if (existing) return names;
  const lines: Printable[] = [];
  x.helpers.set(key, { name: n, lines });
  const ts = typeExprTs(t, x.types);
  lines.push(code`function ${names.read}(text: string, path: string): ${typeRef(ts, x)} {`);
  if (t.kind === "literal") {
    const lexical = t.value === null ? "" : String(t.value);
    lines.push(`  if (text.trim() === ${stringLiteral(lexical)}) return ${literalTs(t.value)};`);
    lines.push(code`  throw new ${x.rt("XmlDecodeError")}(path, ${stringLiteral(`expected ${JSON.stringify(lexical)}`)});`);
  } else {
    t.of.forEach((m, i) => {
      // A member of a string builtin with a lexical form (gYear, NCName...) takes only text of that form.
      const form = stringForm(m, x);
      const read = valueOf(form === undefined ? "text" : code`${x.rt("xsdTextForm")}(text, "${form}", path)`, "path", m, x);
      if (i === t.of.length - 1) lines.push(code`  return ${read};`);
      else {
        lines.push("  try {", code`    return ${read};`, "  } catch {", "    // not this member: try the next one, in the union's order", "  }");
      }
    });
  }
  lines.push("}", "", code`function ${names.write}(v: ${typeRef(ts, x)}): string {`);
  if (t.kind === "literal") lines.push(t.value === null ? '  return "";' : "  return String(v);");
  else {
    // After a form test, strings are no longer narrowed out of `v`: later casts go through unknown.
    let widened = false;
    const cast = (m: TypeExpr) => code`(v as ${widened ? "unknown as " : ""}${typeRef(typeExprTs(m, x.types), x)})`;
    for (const m of t.of.slice(0, -1)) {
      // A string-builtin member with a lexical form writes only strings of that form (the others are a later member's).
      const form = stringForm(m, x);
      const test = form === undefined ? shapeTest("v", m, x) : code`typeof v === "string" && ${x.rt("isXsdTextForm")}(v, "${form}")`;
      lines.push(code`  if (${test}) return ${lexicalOf(cast(m), m, x)};`);
      if (form !== undefined) widened = true;
    }
    const last = t.of[t.of.length - 1]!;
    lines.push(code`  return ${lexicalOf(cast(last), last, x)};`);
  }
  lines.push("}");
  return names;
}
