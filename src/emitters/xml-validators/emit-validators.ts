import { GeneratedFile, type Printable } from "../../codegen/generated-file.js";
import { objectLiteralKey, stringLiteral } from "../../codegen/escape.js";
import type { AliasType, ElementDecl, EnumType, IrDocument, Member, NamedType, Occurs, RecordType, TypeExpr } from "../../ir/model.js";
import { linearSupport } from "../../runtime/linear-pattern.js";
import type { EmitContext } from "../artifact.js";
import { lookupType, typesContext } from "../types/context.js";
import { code } from "../xml/context.js";
import { recordLayout, strictDeclarations, type AnySlot, type FieldSlot, type OrderedSlot, type RecordLayout } from "../xml/record-layout.js";
import { hasXsdStringForm, xsdEnumKey } from "../../runtime/xml/checks.js";
import { checkFunction, compositeName, enumKeyOf, declareValueCheck, enumValueSet, facetChecks, typeCheck, type ValidatorContext } from "./value-checks.js";
import { extensionChain } from "../../ir/extension-chain.js";

/**
 * `<dir>/validate.ts` for a WSDL/XSD document: `validate<Name>(value)` per named type, returning every issue
 * (occurrence, nillable, type, facet, choice and open-content rules) with its JSON-pointer path.
 */
export function emitXmlValidators(ctx: EmitContext): GeneratedFile {
  const f = new GeneratedFile(`${ctx.dir}/validate.ts`, ctx.source);
  // The type whose checks are being written, and the warnings already given (a pattern shared by the checks of
  // several slots is reported once per type).
  let current: NamedType | undefined;
  const warned = new Set<string>();
  const v: ValidatorContext = {
    f,
    types: typesContext(ctx.doc, ctx.names, { int64: ctx.int64, ...(ctx.dates ? { dates: ctx.dates } : {}) }),
    names: ctx.names,
    rt: (name, typeOnly = false) => f.import(name, ctx.runtimeModule, { typeOnly }),
    decls: new Map(),
    named: new Map(),
    doc: ctx.doc,
    declared: new Map(),
    warn: (detail) => {
      const at = current ?? ctx.doc.types[0];
      const key = `${at?.id ?? ""}\u0000${detail}`;
      if (at === undefined || warned.has(key)) return;
      warned.add(key);
      ctx.warn?.(at.origin, detail);
    },
  };
  f.jsdoc("", [
    `XSD validators for ${ctx.doc.info.title ?? ctx.source}: validate<Type>(value) returns every facet and occurrence issue with its path.`,
    "@packageDocumentation",
  ]);
  f.print();
  for (const t of ctx.doc.types) {
    current = t;
    emitValidate(t, v.names.derived(t.id, "validate"), v);
    emitCheck(t, v);
  }
  // Every record's rule table passes lookupCheck, even when none of its lines names a check (all of them object
  // rules, or no checks at all): the function must exist whenever a record does.
  if (v.declared.size > 0) emitElementLookup(v);
  if (v.named.size > 0 || ctx.doc.types.some((t) => t.kind === "record")) emitCheckLookup(v);
  if (v.decls.size > 0) {
    f.print("// Compiled once, at module load.");
    for (const d of v.decls.values()) {
      for (const line of d.lines) f.print(line);
      f.print();
    }
  }
  return f;
}

function emitValidate(t: NamedType, name: string, v: ValidatorContext): void {
  const { f } = v;
  const family = v.names.family(t.id);
  const what = family ? `${v.names.type(t.id)} or a type derived from it (by $type)` : v.names.type(t.id);
  f.jsdoc("", [`Checks a value against ${what}: every issue, with its path ("" is the value itself).`]);
  const issues = code`${v.rt("ValidationIssue", true)}[]`;
  // A function declaration, not a const arrow: each top-level const is a step in the file's control flow, and tsc
  // walks back through every step before a top-level reference to a variable (the enumeration sets and patterns at
  // the end refer to imports), which made checking quadratic in the number of types (sf-partner-v40 schemas x10).
  f.print(code`export function ${name}(value: unknown): ${issues} { return ${v.rt("runXsdCheck")}(value, ${checkFunction(t.id, v)}); }`);
  f.print();
  // The same checks as a Standard Schema v1 object, typed like the value the codecs read (the family for a record
  // with subtypes). Marked pure, so a bundler drops the ones a program does not use.
  const declared = f.import(family ?? v.names.type(t.id), "./types.js", { typeOnly: true });
  f.jsdoc("", [`{@link ${family ?? v.names.type(t.id)}} as a Standard Schema v1 object: \`~standard.validate\` wraps {@link ${name}}.`]);
  f.print(code`export const ${v.names.standardSchema(t.id)}: ${v.rt("StandardSchemaV1", true)}<${declared}> = /*#__PURE__*/ ${v.rt("standardSchema")}(${name});`);
  f.print();
}

function emitCheck(t: NamedType, v: ValidatorContext): void {
  if (t.kind === "record") {
    emitRecordCheck(t, v);
    if (v.names.family(t.id)) emitFamilyCheck(t, v);
  } else if (t.kind === "enum") emitEnumCheck(t, v);
  else if (t.kind === "alias") emitAliasCheck(t, v);
  else {
    // xsi:type families are records with subtypes; a union type does not come out of XSD.
    signature(v.names.derived(t.id, "check"), v);
    v.f.print("  return true;");
    v.f.print("}");
  }
  v.f.print();
}

function signature(name: string, v: ValidatorContext): void {
  v.f.print(code`function ${name}(value: unknown, path: string, issues: ${v.rt("ValidationIssue", true)}[]): boolean {`);
}

const ENUM_VALUE: TypeExpr = { kind: "scalar", scalar: "string" };

function emitEnumCheck(t: EnumType, v: ValidatorContext): void {
  const { f } = v;
  signature(v.names.derived(t.id, "check"), v);
  // The values of an enumeration are its lexical forms (strings in types.ts, whatever its base: xsd:double too).
  f.print(code`  if (!${typeCheck("value", "path", ENUM_VALUE, v)}) return false;`);
  const set = enumValueSet(t, v);
  const message = stringLiteral(`must be a value of ${t.name}`);
  f.print(code`  if (!${set}.has(${v.rt("xsdLexical")}(value))) ${v.rt("xsdIssue")}(issues, path, "enum", ${message});`);
  f.print("  return true;");
  f.print("}");
}

function emitAliasCheck(t: AliasType, v: ValidatorContext): void {
  const { f } = v;
  signature(v.names.derived(t.id, "check"), v);
  f.print(code`  if (!${typeCheck("value", "path", t.target, v)}) return false;`);
  for (const line of facetChecks("value", "path", t.facets, "  ", v, t.target)) f.print(line);
  f.print("  return true;");
  f.print("}");
}

function emitFamilyCheck(t: RecordType, v: ValidatorContext): void {
  const { f } = v;
  const members = [t.id, ...(v.types.subtypes.get(t.id) ?? [])].map((id) => lookupType(v.types, id) as RecordType).filter((m) => !m.abstract);
  const root = recordLayout(t, v.types).familyRoot === t.id;
  signature(v.names.derived(t.id, "checkFamily"), v);
  f.print(code`  if (!${v.rt("isXsdRecord")}(value)) {`);
  f.print(code`    ${v.rt("xsdIssue")}(issues, path, "type", ${stringLiteral(`expected an object (${t.name})`)});`);
  f.print("    return false;");
  f.print("  }");
  f.print("  switch (value.$type) {");
  for (const m of members) {
    if (m.id === t.id && root) f.print("    case undefined:");
    f.print(`    case ${stringLiteral(m.name)}:`);
    f.print(`      return ${v.names.derived(m.id, "check")}(value, path, issues);`);
  }
  f.print("    default:");
  const allowed = members.map((m) => m.name).join(", ");
  f.print(code`      ${v.rt("xsdIssue")}(issues, path + "/$type", "type", ${stringLiteral(`must be one of ${allowed}`)});`);
  f.print("      return false;");
  f.print("  }");
  f.print("}");
  f.print();
}

/**
 * `check<Name>` for a record: the runtime walks the record's property table (`rulesOf<Name>`, one line per
 * property); xsd:choice rules, which tie properties together, stay inline.
 * The table is built inside the function on its first call (`rulesOf<Name> ??= ...`), not as a top-level constant:
 * tsc's control-flow analysis follows each reference in a top-level initializer (the check functions imported from
 * the runtime) back through every statement before it, so thousands of top-level tables cost time quadratic in the
 * file's length (sf-partner-v40 schemas x10: 19.9 s -> 8.4 s of check time). Inside a function declaration that
 * walk stops at the function's start. The cost at run time is one nullish test per call.
 * A line is `[key, flags, "checkName"]` (the runtime's XsdPropertySpec), data naming its check rather than an object
 * literal referring to it: tsc types each object literal on its own and reduces the table to their union, which was
 * most of its time on a large validate.ts (sf-partner-v40: 32k of its 42k symbols); `lookupCheck` resolves the names
 * when the table is built.
 */
function emitRecordCheck(t: RecordType, v: ValidatorContext): void {
  const { f } = v;
  const layout = recordLayout(t, v.types);
  const name = v.names.type(t.id);
  const rules = v.names.derived(t.id, "rules");
  const choices = [...choiceChecks(t, layout, v), ...roundChecks(layout, v), ...sequenceChecks(t, layout, v)];
  // A declaration without an initializer adds nothing to the file's control flow.
  f.print(code`let ${rules}: ${v.rt("XsdRecordRules", true)} | undefined;`);
  signature(v.names.derived(t.id, "check"), v);
  // The record's name on the first line, then one line per property, then the lookup and the xsi:type rule.
  const xsiType = layout.familyRoot === undefined ? "" : `, ${layout.familyRoot === t.id ? '"optional"' : '"required"'}`;
  const head = code`  ${rules} ??= ${v.rt("xsdRecordRules")}(${stringLiteral(t.name)}, [`;
  const tail = `], ${CHECK_LOOKUP}${xsiType});`;
  const lines: Printable[] = layout.slots.map((s) => (s.kind === "any" ? wildcardRule(s, v) : s.kind === "ordered" ? orderedRule(s, v) : propertyRule(s, v)));
  // xsd:anyAttribute: the attributes kept must be of namespaces its constraint admits.
  const attributeWildcard = layout.attributesKey !== undefined ? anyAttributeNamespaces(t, v) : undefined;
  if (attributeWildcard !== undefined) {
    lines.push(`{ key: ${stringLiteral(layout.attributesKey!)}, attributes: { namespace: ${stringLiteral(attributeWildcard.namespace)}, namespaces: ${attributeWildcard.namespaces} } }`);
  }
  if (lines.length === 0) f.print(head, tail);
  else {
    f.print(head);
    for (const line of lines) f.print("    ", line, ",");
    f.print("  ", tail);
  }
  if (choices.length === 0) f.print(code`  return ${v.rt("checkXsdRecord")}(value, ${rules}, path, issues);`);
  else {
    f.print(code`  if (!${v.rt("checkXsdRecord")}(value, ${rules}, path, issues)) return false;`);
    for (const line of choices) f.print("  ", line);
    f.print("  return true;");
  }
  f.print("}");
  f.print();
}

/** The function rule tables resolve check names with (fixed names: no type's check<Name> starts in lower case). */
const CHECK_LOOKUP = "lookupCheck";
const CHECK_TABLE = "checksByName";

/** `lookupCheck(name)`: every check a table names, in one object built on the first lookup. */
function emitCheckLookup(v: ValidatorContext): void {
  const { f } = v;
  const check = v.rt("XsdValueCheck", true);
  f.print("// The checks the rule tables name, built on the first lookup (when the first table is).");
  f.print(code`let ${CHECK_TABLE}: { readonly [name: string]: ${check} } | undefined;`);
  f.print(code`function ${CHECK_LOOKUP}(name: string): ${check} {`);
  f.print(`  ${CHECK_TABLE} ??= {`);
  for (const [name, fn] of v.named) f.print("    ", name === printedName(fn) ? fn : code`${objectLiteralKey(name)}: ${fn}`, ",");
  f.print("  };");
  f.print(`  return ${CHECK_TABLE}[name]!;`);
  f.print("}");
  f.print();
}

function printedName(p: Printable): string | undefined {
  if (typeof p === "string") return p;
  return typeof p === "object" && !Array.isArray(p) && (p as { kind?: string }).kind === "import" ? (p as { name: string }).name : undefined;
}

/**
 * One property: `[key, flags, "check"]` (flags 1 required, 2 list, 4 nillable; no check for xsd:anyType), or the
 * runtime's XsdPropertyRule object when the line cannot say it all (minOccurs above 1, a bounded list, a wire name
 * other than the key).
 */
function propertyRule(s: FieldSlot, v: ValidatorContext): Printable {
  const check = valueCheck(s, v);
  const plain = s.local === s.key && s.occurs.min <= 1 && !(s.list && s.occurs.max !== "unbounded");
  if (plain) {
    const flags = (s.occurs.min > 0 ? 1 : 0) + (s.list ? 2 : 0) + (s.field.nullable ? 4 : 0);
    const name = check === undefined ? undefined : printedName(check);
    if (check === undefined || name !== undefined) {
      if (name !== undefined) v.named.set(name, check!);
      return `[${stringLiteral(s.key)}, ${flags}${name !== undefined ? `, ${stringLiteral(name)}` : ""}]`;
    }
  }
  const parts: Printable[] = [`key: ${stringLiteral(s.key)}`];
  if (s.local !== s.key) parts.push(`name: ${stringLiteral(s.local)}`);
  if (s.occurs.min > 0) parts.push(`min: ${s.occurs.min}`);
  if (s.list) {
    parts.push("list: true");
    if (s.occurs.max !== "unbounded") parts.push(`max: ${s.occurs.max}`);
  }
  if (s.field.nullable) parts.push("nillable: true");
  if (check !== undefined) parts.push(code`check: ${check}`);
  return code`{ ${joinPrintables(parts, ", ")} }`;
}

/**
 * A repeating group kept in document order: `{ key, min?, ordered: { items: [...], model, describe } }`, the items'
 * checks and the content model as a pattern over their kinds (the runtime's XsdOrderedGroup).
 */
function orderedRule(s: OrderedSlot, v: ValidatorContext): Printable {
  const items = s.items.map((item): Printable => {
    const parts: Printable[] = [`kind: ${stringLiteral(item.kind)}`];
    const e = item.slot;
    if (e.kind === "any") parts.push(`wildcard: ${wildcardSpec(e, v)}`);
    else {
      if (e.field.nullable) parts.push("nillable: true");
      const check = valueCheck(e, v);
      if (check !== undefined) parts.push(code`check: ${check}`);
    }
    return code`{ ${joinPrintables(parts, ", ")} }`;
  });
  const model = contentModel(s);
  const group: Printable[] = [code`items: [${joinPrintables(items, ", ")}]`];
  if (model.pattern !== undefined) group.push(`model: ${stringLiteral(model.pattern)}`);
  group.push(`describe: ${stringLiteral(model.describe)}`);
  const parts: Printable[] = [`key: ${stringLiteral(s.key)}`];
  if (s.ordered.minItems > 0) parts.push(`min: ${s.ordered.minItems}`);
  parts.push(code`ordered: { ${joinPrintables(group, ", ")} }`);
  return code`{ ${joinPrintables(parts, ", ")} }`;
}

/**
 * An ordered group's content model as a pattern over its items' kinds (the n-th kind is U+E000 + n, written as an
 * escape) for the runtime's linear-time matcher, and as text for messages. No pattern when it would be too large to
 * match in linear time (counted repetitions are unrolled) or the group has more kinds than the private-use block.
 */
function contentModel(s: OrderedSlot): { pattern?: string; describe: string } {
  const index = new Map<Member, number>();
  s.items.forEach((item, i) => index.set(item.slot.kind === "any" ? item.slot.any : item.slot.field, i));
  const quant = (o: Occurs): string => {
    if (o.min === 1 && o.max === 1) return "";
    if (o.max === "unbounded") return o.min === 0 ? "*" : o.min === 1 ? "+" : `{${o.min},}`;
    return o.min === 0 && o.max === 1 ? "?" : `{${o.min},${o.max}}`;
  };
  const describeQuant = (o: Occurs): string => (o.min === 1 && o.max === 1 ? "" : o.min === 0 && o.max === 1 ? "?" : o.max === "unbounded" && o.min <= 1 ? (o.min === 0 ? "*" : "+") : `{${o.min},${o.max === "unbounded" ? "" : o.max}}`);
  const walk = (m: Member): { pattern: string; describe: string } => {
    if (m.kind !== "group") {
      const n = index.get(m) ?? 0;
      const name = m.kind === "any" ? `any(${m.namespace})` : m.name;
      return { pattern: `\\u${(0xe000 + n).toString(16).toUpperCase()}${quant(m.occurs)}`, describe: `${name}${describeQuant(m.occurs)}` };
    }
    const parts = m.members.map(walk);
    const join = m.compositor === "sequence" ? "" : "|";
    const describeJoin = m.compositor === "sequence" ? ", " : m.compositor === "choice" ? " | " : " & ";
    // xsd:all (XSD 1.0 has it only as a whole content model): any order, each member at most once per occurrence.
    const occurs = m.compositor === "all" ? { min: m.occurs.min * 0, max: m.occurs.max === "unbounded" ? "unbounded" as const : m.occurs.max * m.members.length } : m.occurs;
    return {
      pattern: `(?:${parts.map((p) => p.pattern).join(join)})${quant(occurs)}`,
      describe: `(${parts.map((p) => p.describe).join(describeJoin)})${describeQuant(m.occurs)}`,
    };
  };
  const top = walk({ ...s.ordered.group, occurs: s.ordered.occurs });
  const pattern = `^${top.pattern}$`;
  const fits = s.items.length <= 0x1900 && linearSupport(pattern, "u").ok;
  return { ...(fits ? { pattern } : {}), describe: top.describe };
}

function wildcardRule(s: AnySlot, v: ValidatorContext): string {
  const parts = [`key: ${stringLiteral(s.key)}`];
  if (s.occurs.min > 0) parts.push(`min: ${s.occurs.min}`);
  if (s.occurs.max !== "unbounded") parts.push(`max: ${s.occurs.max}`);
  parts.push(`wildcard: ${wildcardSpec(s, v)}`);
  return `{ ${parts.join(", ")} }`;
}

/**
 * The runtime's XsdWildcardRule: the namespace constraint, and for a strict wildcard admitting global elements the
 * file's element lookup (its items are checked against their declarations, as the decoder reads them by those).
 */
function wildcardSpec(s: AnySlot, v: ValidatorContext): string {
  const declared = strictDeclarations(s, v.doc);
  for (const el of declared) if (!v.declared.has(el.id)) v.declared.set(el.id, el);
  const elements = declared.length > 0 ? `, elements: ${ELEMENT_LOOKUP}` : "";
  return `{ namespace: ${stringLiteral(s.any.namespace)}, namespaces: ${wildcardNamespaces(s)}${elements} }`;
}

const ELEMENT_LOOKUP = "lookupElement";
const ELEMENT_TABLE = "elementsByName";

/**
 * `lookupElement("{ns}local")`: the global elements strict wildcards admit, each with its type's check (and fixed
 * value) and nillable, in one map built on the first lookup (`[name, nillable, "check"]` lines, as rule tables).
 */
function emitElementLookup(v: ValidatorContext): void {
  const { f } = v;
  const rule = v.rt("XsdElementRule", true);
  const lines: string[] = [];
  for (const el of v.declared.values()) {
    const check = elementCheck(el, v);
    const name = check === undefined ? undefined : printedName(check);
    if (check !== undefined && name === undefined) continue;
    if (name !== undefined) v.named.set(name, check!);
    lines.push(`[${stringLiteral(`{${el.name.ns}}${el.name.local}`)}, ${el.nullable ? 1 : 0}, ${stringLiteral(name ?? "")}],`);
  }
  f.print("// The global elements strict wildcards admit: their items are checked against these declarations.");
  f.print(code`let ${ELEMENT_TABLE}: ReadonlyMap<string, ${rule}> | undefined;`);
  f.print(code`function ${ELEMENT_LOOKUP}(name: string): ${rule} | undefined {`);
  f.print(code`  ${ELEMENT_TABLE} ??= ${v.rt("xsdElementRules")}([`);
  for (const line of lines) f.print("    ", line);
  f.print(`  ], ${CHECK_LOOKUP});`);
  f.print(`  return ${ELEMENT_TABLE}.get(name);`);
  f.print("}");
  f.print();
}

/** The check of a global element's value: its type's, with its fixed value. */
function elementCheck(el: ElementDecl, v: ValidatorContext): Printable | undefined {
  const field = { kind: "field", name: el.name.local, type: el.type, occurs: { min: 1, max: 1 }, nullable: el.nullable, ...(el.fixed !== undefined ? { fixed: el.fixed } : {}), origin: el.origin };
  return valueCheck({ field } as unknown as FieldSlot, v);
}

function joinPrintables(parts: readonly Printable[], separator: string): Printable {
  return parts.reduce<Printable>((acc, p, i) => (i === 0 ? p : code`${acc}${separator}${p}`), "");
}

/**
 * The function checking one present value of a property: a runtime primitive or `check<Type>` when the value's
 * type says everything, otherwise a `checkValue$N` generated once per distinct (type, facets, fixed value).
 */
function valueCheck(s: FieldSlot, v: ValidatorContext): Printable | undefined {
  const { type, facets, fixed } = s.field;
  const plain = facets === undefined && fixed === undefined;
  if (plain) {
    const direct = directCheck(type, v);
    if (direct !== null) return direct;
  }
  return declareValueCheck(`value:${JSON.stringify({ type, facets, fixed })}`, v, (name) => {
    const head = code`function ${name}(value: unknown, path: string, issues: ${v.rt("ValidationIssue", true)}[]): boolean {`;
    if (plain) return [head, code`  return ${typeCheck("value", "path", type, v)};`, "}"];
    const lines: Printable[] = [head, code`  if (!${typeCheck("value", "path", type, v)}) return false;`, ...facetChecks("value", "path", facets, "  ", v, type)];
    if (fixed !== undefined) {
      // The fixed value holds in the value space ("1.0E-2" for a float is 0.01), as enumerations (enumKeyOf).
      const key = enumKeyOf(type, v);
      const actual = key === undefined ? code`${v.rt("xsdLexical")}(value)` : code`${v.rt("xsdEnumKey")}(value, "${key.kind}"${key.list ? ", true" : ""})`;
      const wanted = key === undefined ? fixed : xsdEnumKey(fixed, key.kind, key.list);
      lines.push(code`  if (${actual} !== ${stringLiteral(wanted)}) ${v.rt("xsdIssue")}(issues, path, "fixed", ${stringLiteral(`must be ${fixed}`)});`);
    }
    lines.push("  return true;", "}");
    return lines;
  });
}

/** A check function that already has the (value, path, issues) shape; undefined for "anything goes", null for none. */
function directCheck(t: TypeExpr, v: ValidatorContext): Printable | undefined | null {
  switch (t.kind) {
    case "ref":
      lookupType(v.types, t.id);
      return checkFunction(t.id, v);
    case "list":
    case "union":
      return compositeName(t, v);
    case "map":
      return undefined;
    case "literal":
      return null;
    case "scalar":
      switch (t.scalar) {
        case "string":
          // A builtin with a lexical form of its own (gYear, Name...) gets a function of its own (typeCheck).
          return t.builtin !== undefined && hasXsdStringForm(t.builtin) ? null : v.rt("checkXsdString");
        case "anyURI":
        case "QName":
          return v.rt("checkXsdString");
        case "boolean":
          return v.rt("checkXsdBoolean");
        case "float":
        case "double":
          return v.rt("checkXsdNumber");
        case "decimal":
          return v.rt("checkXsdDecimal");
        case "bytes":
          return v.rt("checkXsdBytes");
        case "any":
          return undefined;
        default:
          return null;
      }
  }
}

/** The wildcard's namespace constraint as the runtime's XsdWildcardNamespaces. */
function wildcardNamespaces(s: AnySlot): string {
  const tokens = s.any.namespace.trim().split(/\s+/).filter(Boolean);
  if (tokens.length === 0 || tokens.includes("##any")) return "{ any: true }";
  if (tokens.length === 1 && tokens[0] === "##other") return `{ excluded: [${stringLiteral(s.tns)}, ""] }`;
  const allowed = tokens.map((tok) => stringLiteral(tok === "##local" ? "" : tok === "##targetNamespace" ? s.tns : tok));
  return `{ allowed: [${allowed.join(", ")}] }`;
}

/** Whether a particle may match no element at all (XSD 1.0 Part 1, 3.8.6 Particle Emptiable). */
function emptiable(m: Member): boolean {
  if (m.occurs.min === 0) return true;
  if (m.kind !== "group") return false;
  return m.compositor === "choice" ? m.members.length === 0 || m.members.some(emptiable) : m.members.every(emptiable);
}

/**
 * The namespace constraint of a record's attribute wildcard: its own, united with its bases' along extensions (XSD
 * 1.0 3.4.2, attribute wildcard union). Undefined (not checked) when a union is not a list of namespaces or ##any.
 */
function anyAttributeNamespaces(t: RecordType, v: ValidatorContext): { namespace: string; namespaces: string } | undefined {
  const written: string[] = [];
  const allowed = new Set<string>();
  let any = false;
  for (let r: RecordType | undefined = t, n = 0; r !== undefined && n < 64; n++) {
    if (r.anyAttribute !== undefined) {
      const tokens = r.anyAttribute.namespace.trim().split(/\s+/).filter(Boolean);
      written.push(r.anyAttribute.namespace.trim());
      if (tokens.length === 0 || tokens.includes("##any")) any = true;
      else if (tokens.includes("##other")) {
        if (r === t && r.base?.derivation !== "extension") {
          return { namespace: r.anyAttribute.namespace, namespaces: wildcardNamespaces({ any: r.anyAttribute, tns: r.scope } as unknown as AnySlot) };
        }
        return undefined;
      } else for (const tok of tokens) allowed.add(tok === "##local" ? "" : tok === "##targetNamespace" ? r.scope : tok);
    }
    if (r.base?.derivation !== "extension") break;
    const base = lookupType(v.types, r.base.id);
    r = base.kind === "record" ? base : undefined;
  }
  const namespace = written.join(" | ");
  if (any) return { namespace, namespaces: "{ any: true }" };
  return { namespace, namespaces: `{ allowed: [${[...allowed].map(stringLiteral).join(", ")}] }` };
}

/**
 * A repeating sequence of elements that each occur exactly once in it (`(a1, a2){1,2}`, written in rounds: see
 * SequenceRound): every occurrence holds one of each, so the elements come in equal numbers (XSD 1.0
 * cvc-complex-type.2.4: `a1 a2 a1` leaves a round unfinished). Sequences with an optional or repeated member are not
 * checked (their rounds may differ).
 */
function roundChecks(layout: RecordLayout, v: ValidatorContext): Printable[] {
  // Only where each element's property is its particle's: no wildcard, no element name at two places (the decoder
  // then places a child by position: `(r1, r2)?, (r2, r3)?` repeated).
  const names = new Set<string>();
  for (const s of layout.slots) {
    for (const l of s.kind === "ordered" ? s.items.map((i) => i.slot) : [s]) {
      if (l.kind === "any") return [];
      if (l.kind !== "element") continue;
      if (names.has(`{${l.ns}}${l.local}`)) return [];
      names.add(`{${l.ns}}${l.local}`);
    }
  }
  const groups: FieldSlot[][] = [];
  for (const s of layout.slots) {
    if (s.kind !== "element" || s.round === undefined) continue;
    if (s.round.start) groups.push([s]);
    else groups[groups.length - 1]?.push(s);
  }
  const out: Printable[] = [];
  for (const g of groups) {
    if (g.length < 2 || !g.every((s) => s.field.occurs.min === 1 && s.field.occurs.max === 1 && s.list)) continue;
    const values = g.map((s) => `value[${stringLiteral(s.key)}]`);
    const listed = g.map((s) => s.field.name).join(", ");
    out.push(code`if (new Set([${values.join(", ")}].map((x) => (Array.isArray(x) ? x.length : 0))).size > 1) ${v.rt("xsdIssue")}(issues, path, "sequence", ${stringLiteral(`${listed} come in rounds (a repeating xsd:sequence): as many of each`)});`);
  }
  return out;
}

/** Whether each element of the record has its own property, none a wildcard's (placed by name alone). */
function placedByName(layout: RecordLayout): boolean {
  const names = new Set<string>();
  for (const s of layout.slots) {
    for (const l of s.kind === "ordered" ? s.items.map((i) => i.slot) : [s]) {
      if (l.kind === "any") return false;
      if (l.kind !== "element") continue;
      if (names.has(`{${l.ns}}${l.local}`)) return false;
      names.add(`{${l.ns}}${l.local}`);
    }
  }
  return true;
}

/**
 * A nested xsd:sequence that occurs at most once (and so do the groups around it) but may be absent, or stands in a
 * choice: flattened, its fields are all optional; once one of its elements is there the sequence is, and its required
 * members must be too (`(a1, a2)?` read from `<a1/>`; W3C particlesEb002). Records placed by name only.
 */
function sequenceChecks(t: RecordType, layout: RecordLayout, v: ValidatorContext): Printable[] {
  if (!placedByName(layout)) return [];
  const keyOf = new Map<unknown, string>();
  for (const s of layout.slots) if (s.kind === "element") keyOf.set(s.field, s.key);
  const chain = extensionChain(t, (id) => lookupType(v.types, id));
  const keysIn = (m: Member): string[] | undefined => {
    if (m.kind === "group") {
      const all = m.members.map(keysIn);
      return all.some((k) => k === undefined) ? undefined : all.flatMap((k) => k!);
    }
    return m.kind === "field" && keyOf.has(m) ? [keyOf.get(m)!] : undefined;
  };
  const present = (keys: readonly string[]): string => keys.map((k) => `value[${stringLiteral(k)}] !== undefined`).join(" || ");
  const out: Printable[] = [];
  const visit = (members: readonly Member[], optional: boolean): void => {
    for (const m of members) {
      if (m.kind !== "group" || m.occurs.max !== 1 || m.oneofName !== undefined) continue;
      if (m.compositor === "sequence" && (optional || m.occurs.min === 0)) {
        const all = keysIn(m);
        const required = m.members.filter((x) => !emptiable(x)).map((x) => ({ keys: keysIn(x), name: x.kind === "group" ? "one of " + (keysIn(x) ?? []).join(", ") : x.kind === "field" ? x.name : "" }));
        if (all !== undefined && all.length > 1 && required.length > 0 && required.every((r) => r.keys !== undefined && r.keys.length > 0)) {
          for (const r of required) {
            out.push(code`if ((${present(all)}) && !(${present(r.keys!)})) ${v.rt("xsdIssue")}(issues, path, "required", ${stringLiteral(`${r.name} is required with the other elements of its sequence (${all.join(", ")})`)});`);
          }
        }
      }
      if (m.compositor !== "all") visit(m.members, optional || m.occurs.min === 0 || m.compositor === "choice");
    }
  };
  for (const r of chain) if (r.allContent !== true) visit(r.members, false);
  return out;
}

/** xsd:choice groups that occur at most once: at most one alternative present (and one when required). */
function choiceChecks(t: RecordType, layout: RecordLayout, v: ValidatorContext): Printable[] {
  const keyOf = new Map<unknown, string>();
  for (const s of layout.slots) {
    if (s.kind === "ordered") for (const i of s.items) keyOf.set(i.slot.kind === "any" ? i.slot.any : i.slot.field, s.key);
    else keyOf.set(s.kind === "any" ? s.any : s.field, s.key);
  }
  const out: Printable[] = [];
  const chain = extensionChain(t, (id) => lookupType(v.types, id));
  const keysIn = (m: Member): string[] => (m.kind === "group" ? m.members.flatMap(keysIn) : keyOf.has(m) ? [keyOf.get(m)!] : []);
  const visit = (members: readonly Member[], required: boolean): void => {
    for (const m of members) {
      if (m.kind !== "group" || m.occurs.max !== 1) continue;
      if (m.compositor !== "choice") {
        visit(m.members, required && m.occurs.min >= 1);
        continue;
      }
      const alternatives = m.members.map(keysIn).filter((k) => k.length > 0);
      if (alternatives.length === 0) continue;
      const present = alternatives.map((keys) => `(${keys.map((k) => `value[${stringLiteral(k)}] !== undefined`).join(" || ")} ? 1 : 0)`);
      const names = alternatives.map((k) => k.join("+")).join(", ");
      out.push("{", `  const chosen = ${present.join(" + ")};`);
      out.push(code`  if (chosen > 1) ${v.rt("xsdIssue")}(issues, path, "choice", ${stringLiteral(`at most one of ${names} (xsd:choice)`)});`);
      // A choice with an alternative that may be empty (an element or group of minOccurs 0, a sequence of such) is
      // satisfied by nothing (XSD 1.0 Part 1, 3.8.6 Particle Emptiable): no alternative is then required.
      if (required && m.occurs.min >= 1 && !m.members.some(emptiable)) {
        out.push(code`  if (chosen === 0) ${v.rt("xsdIssue")}(issues, path, "required", ${stringLiteral(`one of ${names} is required (xsd:choice)`)});`);
      }
      out.push("}");
    }
  };
  for (const r of chain) visit(r.members, true);
  return out;
}
