import { hasXsdStringForm, xsdEnumKey } from "../../runtime/xml/checks.js";
import { patternPlan } from "../../codegen/spec-pattern.js";
import type { GeneratedFile, ImportToken, Printable } from "../../codegen/generated-file.js";
import { lineCommentText, stringLiteral } from "../../codegen/escape.js";
import type { ElementDecl, Facets, IrDocument, ScalarType, TypeExpr } from "../../ir/model.js";
import type { Names } from "../../naming/assign-names.js";
import { lookupType, type TypesContext } from "../types/context.js";
import { code } from "../xml/context.js";
import { intRange, LEXICAL_KEPT, LONG_RANGES } from "../xml/simple-values.js";
import { translateXsdPattern } from "./xsd-regex.js";

/** State of one validate.ts being emitted. */
export interface ValidatorContext {
  readonly f: GeneratedFile;
  readonly types: TypesContext;
  readonly names: Names;
  rt(name: string, typeOnly?: boolean): ImportToken;
  /** Module-level declarations (patterns, enumeration sets, list/union helpers), printed after the functions. */
  readonly decls: Map<string, { readonly name: string; readonly lines: Printable[] }>;
  /** The value checks rule tables name, by the name they use (a local name or an import), in first-use order. */
  readonly named: Map<string, Printable>;
  readonly doc: IrDocument;
  /** The global elements strict wildcards admit (lookupElement's table), by element id. */
  readonly declared: Map<string, ElementDecl>;
  /** Report a located warning at the named type being emitted (a check the generated code cannot make). */
  warn(detail: string): void;
}

/** The check function of a named type: `check<Name>` (the family dispatcher `checkAny<Name>` for a family root). */
export function checkFunction(id: string, v: ValidatorContext): string {
  return v.names.family(id) !== undefined ? v.names.derived(id, "checkFamily") : v.names.derived(id, "check");
}

/**
 * A boolean expression that checks `val` has type `t`, pushing issues to `issues`; true when the value had the right
 * type (facets of the type itself are checked inside, so they are reported too).
 */
export function typeCheck(val: string, path: Printable, t: TypeExpr, v: ValidatorContext, sink = "issues"): Printable {
  switch (t.kind) {
    case "scalar":
      return scalarCheck(val, path, t, v, sink);
    case "ref":
      lookupType(v.types, t.id);
      return code`${checkFunction(t.id, v)}(${val}, ${path}, ${sink})`;
    case "literal":
      return code`(${val} === ${JSON.stringify(t.value)} || (${v.rt("xsdIssue")}(${sink}, ${path}, "fixed", ${stringLiteral(`must be ${JSON.stringify(t.value)}`)}), false))`;
    case "list":
    case "union":
      return code`${composite(t, v)}(${val}, ${path}, ${sink})`;
    case "map":
      return "true";
  }
}

function scalarCheck(val: string, path: Printable, t: ScalarType, v: ValidatorContext, sink: string): Printable {
  const range = intRange(t);
  if (range) return code`${v.rt("checkXsdInt")}(${val}, ${range.min}, ${range.max}, "${range.type}", ${path}, ${sink})`;
  switch (t.scalar) {
    case "string":
      // Builtins with a lexical form of their own (gYear, Name, language...): the form is checked.
      if (t.builtin !== undefined && hasXsdStringForm(t.builtin)) return code`${v.rt("checkXsdStringForm")}(${val}, "${t.builtin}", ${path}, ${sink})`;
      return code`${v.rt("checkXsdString")}(${val}, ${path}, ${sink})`;
    case "anyURI":
    case "QName":
      return code`${v.rt("checkXsdString")}(${val}, ${path}, ${sink})`;
    case "boolean":
      return code`${v.rt("checkXsdBoolean")}(${val}, ${path}, ${sink})`;
    case "int64":
    case "sint64":
    case "sfixed64":
    case "uint64":
    case "fixed64": {
      const [min, max] = t.scalar === "uint64" || t.scalar === "fixed64" ? LONG_RANGES.unsigned : LONG_RANGES.signed;
      const type = t.builtin ?? (min === "0" ? "xsd:unsignedLong" : "xsd:long");
      return code`${v.rt("checkXsdBigInt")}(${val}, ${min}n, ${max}n, "${type}", ${path}, ${sink})`;
    }
    case "integer": {
      const bounds: Record<string, [string, string]> = {
        "xsd:nonNegativeInteger": ["0n", "undefined"],
        "xsd:positiveInteger": ["1n", "undefined"],
        "xsd:nonPositiveInteger": ["undefined", "0n"],
        "xsd:negativeInteger": ["undefined", "-1n"],
      };
      const [min, max] = bounds[t.builtin ?? ""] ?? ["undefined", "undefined"];
      return code`${v.rt("checkXsdBigInt")}(${val}, ${min}, ${max}, "${t.builtin ?? "xsd:integer"}", ${path}, ${sink})`;
    }
    case "float":
    case "double":
      return code`${v.rt("checkXsdNumber")}(${val}, ${path}, ${sink})`;
    case "decimal":
      return code`${v.rt("checkXsdDecimal")}(${val}, ${path}, ${sink})`;
    case "bytes":
      return code`${v.rt("checkXsdBytes")}(${val}, ${path}, ${sink})`;
    case "date":
    case "dateTime":
    case "time":
    case "duration":
      return code`${v.rt("checkXsdTemporal")}(${val}, "${t.scalar}", ${path}, ${sink})`;
    case "any":
      return "true";
    default:
      return "true";
  }
}

/** A module-level declaration, created once per key. */
function declare(key: string, v: ValidatorContext, make: (name: string) => Printable[], prefix: string): string {
  const existing = v.decls.get(key);
  if (existing) return existing.name;
  const name = `${prefix}$${v.decls.size + 1}`;
  const entry = { name, lines: [] as Printable[] };
  v.decls.set(key, entry);
  entry.lines.push(...make(name));
  return name;
}

/**
 * The set of an enumeration's values, built from the `...Values` list that types.ts already exports, so the
 * (sometimes very long) list is written once per generated package.
 */
export function enumValueSet(t: { readonly id: string }, v: ValidatorContext): string {
  const list = v.f.import(v.names.enumValues(t.id), "./types.js");
  return declare(`enum-type:${t.id}`, v, (n) => [code`const ${n}: ReadonlySet<string> = new Set<string>(${list});`], "enumeration");
}

/** A `checkValue$N(value, path, issues)` function, declared once per key. */
export function declareValueCheck(key: string, v: ValidatorContext, make: (name: string) => Printable[]): string {
  return declare(key, v, make, "checkValue");
}

/** The name of the helper checking an xsd:list or xsd:union value. */
export function compositeName(t: TypeExpr & { kind: "list" | "union" }, v: ValidatorContext): string {
  return composite(t, v);
}

/** Helpers for xsd:list and xsd:union values. */
function composite(t: TypeExpr & { kind: "list" | "union" }, v: ValidatorContext): string {
  return declare(`composite:${JSON.stringify(t)}`, v, (name) => {
    const head = code`function ${name}(value: unknown, path: string, issues: ${v.rt("ValidationIssue", true)}[]): boolean {`;
    if (t.kind === "list") {
      return [
        head,
        "  if (!Array.isArray(value)) {",
        code`    ${v.rt("xsdIssue")}(issues, path, "type", "expected an array (xsd:list)");`,
        "    return false;",
        "  }",
        "  let ok = true;",
        code`  value.forEach((item: unknown, i: number) => { if (!${typeCheck("item", 'path + "/" + i', t.of, v)}) ok = false; });`,
        "  return ok;",
        "}",
      ];
    }
    // A value is valid when it is valid for some member; the members' own issues are not reported.
    const lines: Printable[] = [head, code`  const scratch: ${v.rt("ValidationIssue", true)}[] = [];`];
    for (const m of t.of) {
      lines.push(code`  if (${typeCheck("value", "path", m, v, "scratch")} && scratch.length === 0) return true;`, "  scratch.length = 0;");
    }
    lines.push(code`  ${v.rt("xsdIssue")}(issues, path, "type", "matches no member of the union");`, "  return false;", "}");
    return lines;
  }, t.kind === "list" ? "checkList" : "checkUnion");
}

/** The scalar a type expression is, through aliases; undefined for anything else (lists, unions, records). */
export function underlyingScalar(t: TypeExpr, v: ValidatorContext): ScalarType | undefined {
  for (let cur: TypeExpr = t, depth = 0; depth < 100; depth++) {
    if (cur.kind === "scalar") return cur;
    if (cur.kind !== "ref") return undefined;
    const n = lookupType(v.types, cur.id);
    if (n.kind !== "alias") return undefined;
    cur = n.target;
  }
  return undefined;
}

/**
 * Whether values of `t` are QNames or NOTATIONs, through aliases and enumerations (a restriction with xsd:length of
 * an enumeration of NOTATION, W3C suite NOTATION_length001).
 */
function holdsQNameOrNotation(t: TypeExpr, v: ValidatorContext): boolean {
  for (let cur: TypeExpr = t, depth = 0; depth < 100; depth++) {
    if (cur.kind === "scalar") return cur.scalar === "QName" || cur.builtin === "xsd:NOTATION";
    if (cur.kind !== "ref") return false;
    const n = lookupType(v.types, cur.id);
    if (n.kind === "alias") cur = n.target;
    else if (n.kind === "enum") cur = n.base;
    else return false;
  }
  return false;
}

/** The list type an expression is, through aliases. */
function underlyingList(t: TypeExpr, v: ValidatorContext): (TypeExpr & { kind: "list" }) | undefined {
  for (let cur: TypeExpr = t, depth = 0; depth < 100; depth++) {
    if (cur.kind === "list") return cur;
    if (cur.kind !== "ref") return undefined;
    const n = lookupType(v.types, cur.id);
    if (n.kind !== "alias") return undefined;
    cur = n.target;
  }
  return undefined;
}

const LIST_BUILTINS = new Set(["xsd:NMTOKENS", "xsd:IDREFS", "xsd:ENTITIES"]);

/** How values of a type compare in its value space (xsdEnumKey), or undefined when as lexical strings. */
export function enumKeyOf(type: TypeExpr, v: ValidatorContext): { kind: string; list: boolean } | undefined {
  const base = underlyingScalar(type, v);
  const list = underlyingList(type, v);
  const tokens = base?.builtin !== undefined && LIST_BUILTINS.has(base.builtin);
  const kind = enumKind(list !== undefined ? underlyingScalar(list.of, v) : base, tokens);
  return kind === "string" && list === undefined ? undefined : { kind, list: list !== undefined };
}

/** How enumeration values of a scalar compare (the runtime's xsdEnumKey kinds). */
function enumKind(t: ScalarType | undefined, tokens: boolean): string {
  if (tokens) return "tokens";
  switch (t?.scalar) {
    case "float":
    case "double":
      return "double";
    case "decimal":
      return "decimal";
    case "boolean":
      return "boolean";
    case "bytes":
      return t.builtin === "xsd:hexBinary" ? "hex" : "base64";
    case "int32": case "uint32": case "sint32": case "fixed32": case "sfixed32":
    case "int64": case "uint64": case "sint64": case "fixed64": case "sfixed64": case "integer":
      return "integer";
    default:
      return "string";
  }
}


/**
 * Statements checking the facets of a value already known to have the right type; `base` is the scalar the value
 * is (when it is one), for the facets whose meaning depends on it.
 */
export function facetChecks(val: string, path: string, facets: Facets | undefined, indent: string, v: ValidatorContext, type?: TypeExpr): Printable[] {
  if (!facets) return [];
  const out: Printable[] = [];
  const base = type === undefined ? undefined : underlyingScalar(type, v);
  const list = type === undefined ? undefined : underlyingList(type, v);
  const listItem = list === undefined ? undefined : underlyingScalar(list.of, v);
  if (type !== undefined && holdsQNameOrNotation(type, v)) {
    // Length facets on QName and NOTATION are always satisfied (XSD 1.1 Part 2 §4.3.1.3, an erratum of 1.0; libxml2
    // does the same): the length of a QName value is not defined.
    const { length: _l, minLength: _min, maxLength: _max, ...rest } = facets;
    facets = rest;
  }
  const issue = (rule: string, message: Printable): Printable => code`${v.rt("xsdIssue")}(issues, ${path}, "${rule}", ${message});`;
  // The builtin list types (NMTOKENS, IDREFS, ENTITIES) are strings here; their length is their number of tokens.
  const tokens = base?.builtin !== undefined && LIST_BUILTINS.has(base.builtin);
  const len = tokens ? code`${v.rt("splitXsdList")}(${val} as string).length` : code`${v.rt("xsdLength")}(${val})`;
  if (facets.length !== undefined) out.push(code`${indent}if (${len} !== ${facets.length}) ${issue("length", stringLiteral(`length must be ${facets.length}`))}`);
  if (facets.minLength !== undefined) out.push(code`${indent}if (${len} < ${facets.minLength}) ${issue("minLength", stringLiteral(`length must be at least ${facets.minLength}`))}`);
  if (facets.maxLength !== undefined) out.push(code`${indent}if (${len} > ${facets.maxLength}) ${issue("maxLength", stringLiteral(`length must be at most ${facets.maxLength}`))}`);
  if (facets.minItems !== undefined) out.push(code`${indent}if (${len} < ${facets.minItems}) ${issue("minItems", stringLiteral(`at least ${facets.minItems} items`))}`);
  if (facets.maxItems !== undefined) out.push(code`${indent}if (${len} > ${facets.maxItems}) ${issue("maxItems", stringLiteral(`at most ${facets.maxItems} items`))}`);
  for (const p of facets.patterns ?? []) {
    const t = translateXsdPattern(p);
    if ("unsupported" in t) {
      out.push(`${indent}// pattern not checked (${lineCommentText(t.unsupported)}): ${lineCommentText(p)}`);
      v.warn(`xs:pattern ${JSON.stringify(p)} is not checked: ${t.unsupported}`);
      continue;
    }
    // A pattern constrains the instance's lexical form; numbers and binary values keep only their value, whose
    // canonical form may not be the one the instance had ("1E-100" read as 1e-100, "0A" as bytes): the decoder
    // checks those patterns on the text (xml/simple-values.ts, decodedPatterns).
    const lost = base !== undefined ? !LEXICAL_KEPT.has(base.scalar) && base.scalar !== "boolean" : list !== undefined && (listItem === undefined || !LEXICAL_KEPT.has(listItem.scalar));
    if (lost) {
      const what = base !== undefined ? lineCommentText(base.builtin ?? base.scalar) : `a list of ${lineCommentText(listItem?.builtin ?? listItem?.scalar ?? "non-string items")}`;
      out.push(`${indent}// pattern checked by the decoder (the value of ${what} does not keep its lexical form): ${lineCommentText(p)}`);
      continue;
    }
    // Where backtracking could be super-linear, the linear-time matcher (src/codegen/spec-pattern.ts).
    const linear = patternPlan(t.source, "u").kind === "linear";
    const name = declare(`pattern:${t.source}`, v, (n) => [linear ? code`const ${n} = ${v.rt("linearPattern")}(${stringLiteral(t.source)}, "u");` : `const ${n} = new RegExp(${stringLiteral(t.source)}, "u");`], "pattern");
    // A boolean was written "true" or "1" (or "false" or "0"): either form may be the one the pattern allows.
    const test = base?.scalar === "boolean"
      ? code`(${val} ? ["true", "1"] : ["false", "0"]).some((s) => ${name}.test(s))`
      : code`${name}.test(${v.rt("xsdLexical")}(${val}))`;
    out.push(code`${indent}if (!${test}) ${issue("pattern", stringLiteral(`must match the pattern ${p}`))}`);
  }
  if (facets.enumeration) {
    const values = facets.enumeration;
    // Values compare in the value space: numbers, integers, decimals and booleans by value, lists item by item
    // ("1.0E1  2" in the schema is the list [10, 2] however the instance wrote it). Strings compare as they are.
    const kind = enumKind(list !== undefined ? listItem : base, tokens);
    const keyed = kind !== "string" || list !== undefined;
    const keys = keyed ? values.map((x) => xsdEnumKey(x, kind, list !== undefined)) : values;
    const name = declare(`enum:${kind}:${list !== undefined}:${JSON.stringify(keys)}`, v, (n) =>
      keys.length <= 4
        ? [`const ${n}: ReadonlySet<string> = new Set([${keys.map(stringLiteral).join(", ")}]);`]
        : [`const ${n}: ReadonlySet<string> = new Set([`, ...keys.map((x) => `  ${stringLiteral(x)},`), "]);"], "enumeration");
    const key = keyed ? code`${v.rt("xsdEnumKey")}(${val}, "${kind}"${list !== undefined ? ", true" : ""})` : code`${v.rt("xsdLexical")}(${val})`;
    out.push(code`${indent}if (!${name}.has(${key})) ${issue("enum", stringLiteral(`must be one of ${values.join(", ")}`))}`);
  }
  const bounds: [keyof Facets, string, string][] = [
    ["minInclusive", "< 0", "at least"],
    ["maxInclusive", "> 0", "at most"],
    ["minExclusive", "<= 0", "greater than"],
    ["maxExclusive", ">= 0", "less than"],
  ];
  for (const [facet, fails, words] of bounds) {
    const bound = facets[facet];
    if (bound === undefined) continue;
    const cmp = code`${v.rt("xsdCompare")}(${val}, ${stringLiteral(String(bound))})`;
    out.push(code`${indent}if ((${cmp} ?? 0) ${fails}) ${issue("range", stringLiteral(`must be ${words} ${String(bound)}`))}`);
  }
  if (facets.totalDigits !== undefined || facets.fractionDigits !== undefined) {
    const digits = code`${v.rt("xsdDigits")}(${val})`;
    if (facets.totalDigits !== undefined) {
      out.push(code`${indent}if ((${digits}?.total ?? 0) > ${facets.totalDigits}) ${issue("totalDigits", stringLiteral(`at most ${facets.totalDigits} digits`))}`);
    }
    if (facets.fractionDigits !== undefined) {
      out.push(code`${indent}if ((${digits}?.fraction ?? 0) > ${facets.fractionDigits}) ${issue("fractionDigits", stringLiteral(`at most ${facets.fractionDigits} fraction digits`))}`);
    }
  }
  return out;
}
