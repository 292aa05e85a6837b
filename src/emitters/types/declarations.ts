import { propertyKey, stringLiteral } from "../../codegen/escape.js";
import type { GeneratedFile } from "../../codegen/generated-file.js";
import type { AliasType, EnumType, Example, NamedType, RecordType, TypeId, UnionType, ValueCheck } from "../../ir/model.js";
import { fieldPropertyName, oneofPropertyName } from "../../naming/property-name.js";
import { lookupType, type TypesContext } from "./context.js";
import { effectiveAnyAttribute, facetTags, isList, keyClaimer, recordProperties, type OrderedItem, type OrderedProperty, type Property } from "./properties.js";
import { literalTs, parenthesize, typeExprTs, unionOf } from "./type-expr.js";

/** One open content item (the runtime's OpenContentItem): attributes only when the element had some. */
const OPEN_ITEM = "{ readonly ns: string; readonly name: string; readonly value: unknown; readonly attributes?: { readonly [name: string]: string } }";

/** The discriminant property of an xsi:type family: the XML type name of the value. */
export const XSI_TYPE_PROPERTY = "$type";

export function emitDeclaration(f: GeneratedFile, t: NamedType, ctx: TypesContext): void {
  switch (t.kind) {
    case "record":
      return emitRecord(f, t, ctx);
    case "enum":
      return emitEnum(f, t, ctx);
    case "union":
      return emitUnion(f, t, ctx);
    case "alias":
      return emitAlias(f, t, ctx);
  }
}

/** The note on a type whose schema admits null (NamedType.nullable): the declaration itself is the non-null shape. */
function nullNote(t: NamedType): string | undefined {
  return t.nullable ? "The schema also admits `null`: every use of this type is nullable, and its validator and JSON codecs accept null." : undefined;
}

/**
 * The note on a type whose schema says more than a TypeScript type can (NamedType.checks): the type is wider than
 * the valid values, the validator checks the rest.
 */
function checksNote(t: NamedType): string | undefined {
  if (!t.checks || t.checks.length === 0) return undefined;
  const words = [...new Set(t.checks.map(checkWords))].join(", ");
  return `The schema also requires ${words}: this type is wider than the valid values, and the validators (is/validate/assert) check the rest.`;
}

function checkWords(c: ValueCheck): string {
  switch (c.kind) {
    case "matches": return "further constraints (allOf, or keywords beside a $ref or a oneOf/anyOf)";
    case "not": return "`not`";
    case "conditional": return "`if`/`then`/`else`";
    case "oneOf": case "anyOf": return `\`${c.kind}\``;
    case "equals": return c.values.length === 0 ? "no value at all (an empty enum)" : "one of the listed enum/const values";
    case "never": return "no value at all (the `false` schema)";
    case "object": return "object constraints (property counts, names, patterns or dependencies)";
    case "array": return "array constraints (tuple items, contains, item counts or uniqueness)";
    case "unevaluated": return c.of === "properties"
      ? "`unevaluatedProperties` of the properties its other keywords do not evaluate"
      : "`unevaluatedItems` of the items its other keywords do not evaluate";
  }
}

/**
 * An inline schema declared exactly like an earlier type (see same-shape.ts): an alias of it, and for an enum the
 * values constant too, so every name the full declaration would export still exists.
 */
export function emitSameShapeAlias(f: GeneratedFile, t: NamedType, sameAs: TypeId, ctx: TypesContext): void {
  const name = ctx.names.type(t.id);
  const earlier = ctx.names.type(sameAs);
  f.jsdoc("", [`The same schema as {@link ${earlier}}.`, origin(t, ctx)]);
  f.print(`export type ${name} = ${earlier};`);
  // A base that other records extend is referred to by its family name (typeExprTs): an alias declares that too.
  if (t.kind === "record") emitFamily(f, t, ctx);
  if (t.kind === "enum") {
    f.jsdoc("", [`The values of {@link ${name}}, in schema order.`]);
    f.print(`export const ${ctx.names.enumValues(t.id)} = ${ctx.names.enumValues(sameAs)};`);
  }
}

/** Longest example (as JSON text) worth printing in a doc comment; longer ones stay in the IR only. */
const MAX_EXAMPLE_CHARS = 1000;
/** At most this many examples per declaration. */
const MAX_EXAMPLES = 3;

/**
 * `@example` tags for a declaration's examples: short ones on one line, longer ones pretty-printed. Spec text goes
 * through the doc-comment escaping of GeneratedFile.jsdoc (docLines), like descriptions.
 */
export function exampleTags(examples: readonly Example[] | undefined): string | undefined {
  if (!examples) return undefined;
  const tags: string[] = [];
  for (const ex of examples) {
    if (tags.length === MAX_EXAMPLES) break;
    const compact = JSON.stringify(ex.value);
    if (compact === undefined || compact.length > MAX_EXAMPLE_CHARS) continue;
    const label = ex.name !== undefined ? ` ${ex.name.replace(/\s+/g, " ")}` : "";
    const text = compact.length <= 80 ? compact : JSON.stringify(ex.value, null, 2);
    tags.push(label ? `@example${label}\n${text}` : `@example ${text}`);
  }
  return tags.length > 0 ? tags.join("\n") : undefined;
}

function origin(t: NamedType, ctx: TypesContext): string {
  const file = t.origin.file === ctx.doc.entry ? "" : ` (${t.origin.file})`;
  return `@generated from ${t.origin.construct}${file}`;
}

function emitRecord(f: GeneratedFile, t: RecordType, ctx: TypesContext): void {
  const name = ctx.names.type(t.id);
  const notes: string[] = [];
  if (t.base) notes.push(`Derived by ${t.base.derivation} from {@link ${ctx.names.type(t.base.id)}}.`);
  if (t.abstract) notes.push("Abstract: only its subtypes appear on the wire.");
  f.jsdoc("", [t.doc, notes.join(" ") || undefined, nullNote(t), checksNote(t), exampleTags(t.examples), t.deprecated ? "@deprecated" : undefined, origin(t, ctx)]);
  f.print(`export interface ${name} {`);
  const family = familyRoot(t, ctx);
  if (family) {
    const tag = stringLiteral(t.name);
    f.jsdoc("  ", ["The XML Schema type of this value, written as xsi:type when it differs from the declared type."]);
    f.print(`  ${propertyKey(XSI_TYPE_PROPERTY)}${family === t.id ? "?" : ""}: ${tag};`);
  }
  const keys = new Set<string>(family ? [XSI_TYPE_PROPERTY] : []);
  for (const p of recordProperties(t, ctx)) emitProperty(f, p, ctx, keys);
  if (t.id.startsWith("proto:")) emitProtoExtras(f, t, ctx, keys);
  const anyAttribute = effectiveAnyAttribute(t, ctx);
  if (anyAttribute) {
    f.jsdoc("  ", [`Attributes from xsd:anyAttribute (namespace ${anyAttribute.namespace}), by qualified name.`]);
    f.print(`  ${propertyKey(uniqueKey("$attributes", keys))}?: { [name: string]: string };`);
  }
  if (t.additionalProperties !== undefined && t.additionalProperties !== false) {
    const value = keys.size === 0 ? typeExprTs(t.additionalProperties, ctx) : "unknown";
    f.jsdoc("  ", ["Further properties (additionalProperties)."]);
    f.print(`  [key: string]: ${value};`);
  }
  f.print("}");
  emitFamily(f, t, ctx);
}

/** `Any<T>`: a record with subtypes or any of them (what a reference to the record means, see typeExprTs). */
function emitFamily(f: GeneratedFile, t: RecordType, ctx: TypesContext): void {
  const familyName = ctx.names.family(t.id);
  if (!familyName) return;
  const members = [t.id, ...(ctx.subtypes.get(t.id) ?? [])]
    .filter((id) => !(lookupType(ctx, id) as RecordType).abstract)
    .map((id) => ctx.names.type(id));
  f.print();
  f.jsdoc("", [`{@link ${ctx.names.type(t.id)}} or any type derived from it, told apart by \`${XSI_TYPE_PROPERTY}\` (xsi:type).`]);
  f.print(`export type ${familyName} = ${members.length > 0 ? members.join(" | ") : "never"};`);
}

/** The root of the xsi:type family a record belongs to, if it belongs to one. */
function familyRoot(t: RecordType, ctx: TypesContext): string | undefined {
  let root: string | undefined;
  const seen = new Set<string>();
  for (let r: NamedType | undefined = t; r && r.kind === "record" && !seen.has(r.id); r = r.base ? ctx.types.get(r.base.id) : undefined) {
    seen.add(r.id);
    if ((ctx.subtypes.get(r.id)?.length ?? 0) > 0) root = r.id;
  }
  return root;
}

function uniqueKey(wanted: string, keys: Set<string>): string {
  return keyClaimer(keys)(wanted);
}

function emitProperty(f: GeneratedFile, p: Property, ctx: TypesContext, keys: Set<string>): void {
  if (p.kind === "oneof") {
    const cases = p.group.members.flatMap((m) =>
      m.kind === "field" ? [`{ case: ${stringLiteral(fieldPropertyName(m))}; value: ${typeExprTs(m.type, ctx)} }`] : [],
    );
    f.jsdoc("  ", [p.group.doc, `One of (oneof ${p.group.oneofName}): the case names the field that is set.`]);
    f.print(`  ${propertyKey(uniqueKey(oneofPropertyName(p.group), keys))}?:`);
    cases.forEach((c, i) => f.print(`    | ${c}${i === cases.length - 1 ? ";" : ""}`));
    return;
  }
  if (p.kind === "ordered") return emitOrderedProperty(f, p, ctx, keys);
  if (p.kind === "any") {
    const a = p.any;
    f.jsdoc("  ", [
      `Open content (xsd:any namespace="${a.namespace}" processContents="${a.processContents}"): elements kept in document order.`,
    ]);
    f.print(`  ${propertyKey(uniqueKey("$any", keys))}?: ${OPEN_ITEM}[];`);
    return;
  }
  const { field, occurs } = p;
  let ts = typeExprTs(field.type, ctx);
  if (field.nullable) ts = unionOf([ts, "null"]);
  const list = isList(occurs);
  if (list) {
    const item = parenthesize(ts);
    ts = occurs.min >= 1 ? `[${item}, ...${item}[]]` : `${item}[]`;
  }
  const tags: string[] = [];
  if (list && (occurs.min > 1 || occurs.max !== "unbounded")) {
    tags.push(`@minItems ${occurs.min}`);
    if (occurs.max !== "unbounded") tags.push(`@maxItems ${occurs.max}`);
  }
  tags.push(...facetTags(field.facets));
  if (field.default !== undefined) tags.push(`@default ${field.default}`);
  if (field.fixed !== undefined) tags.push(`@fixed ${field.fixed}`);
  if (field.deprecated) tags.push("@deprecated");
  const xml = field.wire.xml;
  const where = xml?.kind === "attribute" ? "XML attribute." : xml?.kind === "text" ? "The element's text content." : undefined;
  f.jsdoc("  ", [field.doc, where, p.note, tags.join("\n") || undefined, exampleTags(field.examples)]);
  const optional = occurs.min === 0 ? "?" : "";
  f.print(`  ${propertyKey(uniqueKey(fieldPropertyName(field), keys))}${optional}: ${ts};`);
}

/** The TypeScript type of one item of an ordered group (see OrderedProperty): `{ kind: "a"; value: A }`. */
export function orderedItemTs(item: OrderedItem, ctx: TypesContext): string {
  const m = item.member;
  let value: string;
  if (m.kind === "any") value = OPEN_ITEM;
  else {
    value = typeExprTs(m.type, ctx);
    if (m.nullable) value = unionOf([value, "null"]);
  }
  return `{ kind: ${stringLiteral(item.kind)}; value: ${value} }`;
}

/** A repeating group kept in document order: one array of tagged items. */
function emitOrderedProperty(f: GeneratedFile, p: OrderedProperty, ctx: TypesContext, keys: Set<string>): void {
  const g = p.group;
  const what = g.substitutionHead !== undefined
    ? `substitution group (element ${g.substitutionHead.local} or an element that may stand for it)`
    : g.compositor === "choice" ? "xsd:choice" : `xsd:${g.compositor} holding an xsd:choice`;
  const names = p.items.map((i) => (i.member.kind === "any" ? `xsd:any (${i.kind})` : i.member.name)).join(", ");
  const tags: string[] = [];
  if (p.minItems > 1) tags.push(`@minItems ${p.minItems}`);
  f.jsdoc("  ", [
    g.doc,
    `The elements of a repeating ${what}${g.name !== undefined ? ` (group ${g.name})` : ""} in document order, each tagged with its \`kind\`: ${names}.`,
    tags.join("\n") || undefined,
  ]);
  const item = `(${p.items.map((i) => orderedItemTs(i, ctx)).join(" | ")})`;
  const ts = p.minItems >= 1 ? `[${item}, ...${item}[]]` : `${item}[]`;
  f.print(`  ${propertyKey(uniqueKey(p.name, keys))}${p.minItems >= 1 ? "" : "?"}: ${ts};`);
}

function emitEnum(f: GeneratedFile, t: EnumType, ctx: TypesContext): void {
  const name = ctx.names.type(t.id);
  const literals = [...new Set(t.values.map((v) => literalTs(v.value)))];
  const notes = t.closed === false ? "Open enum: values not listed here may be received as numbers." : undefined;
  f.jsdoc("", [t.doc, notes, nullNote(t), checksNote(t), exampleTags(t.examples), t.deprecated ? "@deprecated" : undefined, origin(t, ctx)]);
  const open = t.closed === false ? ["number"] : [];
  const members = [...literals, ...open];
  if (members.length === 0) f.print(`export type ${name} = never;`);
  else if (members.length <= 3) f.print(`export type ${name} = ${members.join(" | ")};`);
  else {
    f.print(`export type ${name} =`);
    members.forEach((l, i) => f.print(`  | ${l}${i === members.length - 1 ? ";" : ""}`));
  }
  f.print();
  f.jsdoc("", [`The values of {@link ${name}}, in schema order.`]);
  f.print(`export const ${ctx.names.enumValues(t.id)} = [`);
  for (const l of literals) f.print(`  ${l},`);
  f.print("] as const;");
}

function emitUnion(f: GeneratedFile, t: UnionType, ctx: TypesContext): void {
  const name = ctx.names.type(t.id);
  const d = t.discriminator;
  const note =
    d.kind === "property" ? `Told apart by the \`${d.property}\` property.`
    : d.kind === "xsi:type" ? "Told apart by xsi:type."
    : d.exclusive ? "Exactly one of the alternatives (oneOf)." : "One or more of the alternatives (anyOf).";
  f.jsdoc("", [t.doc, note, nullNote(t), checksNote(t), exampleTags(t.examples), t.deprecated ? "@deprecated" : undefined, origin(t, ctx)]);
  let nullVariant = false;
  const variants = t.variants.map((v) => {
    if (d.kind !== "property" || v.tag === undefined) return typeExprTs(v.type, ctx);
    // A nullable variant (`CronExpression | null`): null carries no tag, so the tag goes on the rest and null is an
    // alternative of its own (`A | null & {...}` would bind the tag to null alone and leave A untagged).
    const members = v.type.kind === "union" ? v.type.of : [v.type];
    const nonNull = members.filter((m) => !(m.kind === "literal" && m.value === null));
    if (nonNull.length < members.length) nullVariant = true;
    const ts = nonNull.length === members.length ? typeExprTs(v.type, ctx) : unionOf(nonNull.map((m) => typeExprTs(m, ctx)));
    return `(${parenthesize(ts)} & { ${propertyKey(d.property)}: ${stringLiteral(v.tag)} })`;
  });
  if (nullVariant) variants.push("null");
  if (variants.length === 0) f.print(`export type ${name} = never;`);
  else if (variants.length <= 2) f.print(`export type ${name} = ${variants.join(" | ")};`);
  else {
    f.print(`export type ${name} =`);
    variants.forEach((v, i) => f.print(`  | ${v}${i === variants.length - 1 ? ";" : ""}`));
  }
}

function emitAlias(f: GeneratedFile, t: AliasType, ctx: TypesContext): void {
  const name = ctx.names.type(t.id);
  const tags = facetTags(t.facets);
  f.jsdoc("", [t.doc, nullNote(t), checksNote(t), tags.join("\n") || undefined, exampleTags(t.examples), t.deprecated ? "@deprecated" : undefined, origin(t, ctx)]);
  f.print(`export type ${name} = ${typeExprTs(t.target, ctx)};`);
}

/**
 * proto messages keep what the schema does not describe so that decode -> encode is byte-exact: `$unknown` holds
 * the wire bytes of unknown fields (and of closed-enum values the schema does not list) in the order they were read,
 * and `$extensions` the values of extensions this schema declares for the message, by full name.
 */
function emitProtoExtras(f: GeneratedFile, t: RecordType, ctx: TypesContext, keys: Set<string>): void {
  if (ctx.doc.extensions.some((e) => e.extendee === t.id)) {
    f.jsdoc("  ", ["Extensions declared in this schema, by full name."]);
    f.print(`  ${propertyKey(uniqueKey("$extensions", keys))}?: ${ctx.names.extensions(t.id)};`);
  }
  f.jsdoc("  ", ["Fields this schema does not know, as wire bytes in the order read; written back on encode."]);
  f.print(`  ${propertyKey(uniqueKey("$unknown", keys))}?: Uint8Array;`);
}
