import { isIdentifier, stringLiteral } from "../../codegen/escape.js";
import type { Field, RecordType, TypeExpr } from "../../ir/model.js";
import { fieldPropertyName } from "../../naming/property-name.js";
import { lookupType } from "../types/context.js";
import { recordProperties } from "../types/properties.js";
import { joinWith, js, Lines, or, paren, type Code } from "./code.js";
import { collectorOf, collectStatements, isEmptyCheck } from "./collect.js";
import type { ValidatorContext } from "./context.js";
import { failUnless, isExpr } from "./is-expr.js";
import { scansText } from "./leaf-checks.js";
import { childPath, pathSegment, pushIssue } from "./issues.js";

/**
 * Record bodies. Every property is read with an own-property check, so keys such as "constructor" or "__proto__"
 * never resolve through a prototype, and a polluted Object.prototype cannot supply a missing required property.
 * A present property whose value is `undefined` counts as absent (JSON has no undefined).
 */
interface FieldSlot {
  readonly field: Field;
  readonly key: string;
  readonly local: string;
  readonly required: boolean;
}

function slots(ctx: ValidatorContext, t: RecordType): FieldSlot[] {
  const used = new Set<string>();
  const out: FieldSlot[] = [];
  recordProperties(t, ctx.types).forEach((p, i) => {
    // OpenAPI records hold plain fields only (no proto oneofs, no xsd:any); each occurs at most once.
    if (p.kind !== "field") return;
    const key = p.field.wire.json?.key ?? fieldPropertyName(p.field);
    let local = /^[A-Za-z_][A-Za-z0-9_]*$/.test(key) ? `$${key}` : `$${i}`;
    if (used.has(local)) local = `$${i}`;
    used.add(local);
    out.push({ field: p.field, key, local, required: p.occurs.min > 0 });
  });
  return out;
}

/** Keys Object.prototype itself has ("constructor", "__proto__", "toString", ...): read only with an own check. */
const PROTOTYPE_KEYS = new Set(Object.getOwnPropertyNames(Object.prototype));

/**
 * Whether the property just read is the object's own. `Object.hasOwn` per property costs several times the rest of
 * a check, so a plain object (prototype Object.prototype) skips it for keys Object.prototype does not have right
 * now: then the value cannot be inherited. Keys Object.prototype has, other prototypes, and a polluted
 * Object.prototype all take the `Object.hasOwn` path.
 *
 * The prototype test is written into each check rather than taken once per object: placed after the property read,
 * it meets an object whose map the optimizing compiler has just checked, which folds `Object.getPrototypeOf` into a
 * constant; taken once up front (before any read) it was a builtin call on every call, valid input or not, and made
 * an `is<T>` that fails on its first property 3x slower than a check without the guard (bench rest-validators).
 */
function ownCheck(ctx: ValidatorContext, s: FieldSlot): string {
  const k = stringLiteral(s.key);
  if (PROTOTYPE_KEYS.has(s.key)) return `Object.hasOwn(o, ${k})`;
  // Object.prototype read where it is used (as IS_OWN does), not through a module constant: the optimizing compiler
  // folds a read of a missing property of that constant object, and a bundle that keeps only is<T> functions whose
  // properties are all optional has no module constant left over.
  const proto = "(Object.prototype as Readonly<Record<string, unknown>>)";
  const inherited = isIdentifier(s.key) ? `${proto}.${s.key}` : `${proto}[${k}]`;
  return `((Object.getPrototypeOf(o) === Object.prototype && ${inherited} === undefined) || Object.hasOwn(o, ${k}))`;
}

/**
 * Read a property once, plainly; the own-property check is a separate condition placed where it costs least (in
 * is<T>, an optional property that passes its check never needs it).
 */
function read(s: FieldSlot, declare = "const "): string {
  // `o.__proto__` is the prototype (an accessor of Object.prototype), never the own property JSON.parse makes.
  if (s.key === "__proto__") return `${declare}${s.local} = Object.getOwnPropertyDescriptor(o, "__proto__")?.value as unknown;`;
  return `${declare}${s.local} = ${isIdentifier(s.key) ? `o.${s.key}` : `o[${stringLiteral(s.key)}]`};`;
}

/**
 * The one local is<T> reads every property into, in turn (each property's check is one expression over it, with no
 * closure that could see a later value). One name instead of one per property: minified, the checks of a record
 * are then the same text but for the key, which gzip stores once (bench bundle, "one validator": 54 bytes
 * less gzipped for isWebhook's ten properties); the optimizing compiler gives each assignment its own value either way.
 */
const IS_LOCAL = "v";

/** The start of a record body that reads properties. */
function openRecord(out: Lines): void {
  out.add("  ", "const o = value as Record<string, unknown>;");
}

/** Whether `key` is one of the declared keys: a chain of comparisons, or a module-level Set for many keys. */
function knownKey(ctx: ValidatorContext, keys: readonly string[]): Code {
  if (keys.length === 0) return "false";
  if (keys.length <= 8) return keys.map((k) => `key === ${stringLiteral(k)}`).join(" || ");
  return `${ctx.valueSet(keys.map(stringLiteral))}.has(key)`;
}

function fieldIsExpr(ctx: ValidatorContext, s: FieldSlot): Code {
  const inner = isExpr(ctx, s.field.type, s.field.facets, s.local);
  return s.field.nullable && inner !== "true" ? or([`${s.local} === null`, inner]) : inner;
}

/**
 * Whether a property's check may cost more than a few comparisons: it scans text (a format, a pattern) or goes into
 * another record, an array, a map or a union. A named enumeration is a few comparisons.
 */
function isCostly(ctx: ValidatorContext, s: FieldSlot): boolean {
  const t = s.field.type;
  switch (t.kind) {
    case "literal":
      return false;
    case "scalar":
      return scansText(t, s.field.facets, ctx);
    case "ref":
      return lookupType(ctx.types, t.id).kind !== "enum" || scansText(undefined, s.field.facets, ctx);
    default:
      return true;
  }
}

/**
 * The properties in the order is<T> checks them: the cheap checks first, in schema order, then the costly ones, so an
 * invalid value is refused by its cheapest failing test (a wrong type, a value outside an enumeration) before a URI
 * is scanned or a nested object walked. The verdict does not depend on the order; validate<T> keeps the schema order,
 * in which it lists the issues.
 */
function cheapFirst(ctx: ValidatorContext, fields: readonly FieldSlot[]): FieldSlot[] {
  return [...fields.filter((s) => !isCostly(ctx, s)), ...fields.filter((s) => isCostly(ctx, s))];
}

/**
 * Properties checked in one function at most. TypeScript gives up on a function whose control flow is too deep to
 * analyse ("The containing function or module body is too large for control flow analysis": about 500 property
 * checks, Google's contentwarehouse has a record of 535), so a larger record's checks go in helpers of this many
 * properties each, called in turn. Records this size are rare; the calls cost nothing measurable.
 */
export const FIELDS_PER_FUNCTION = 100;

/** `items` in runs of at most FIELDS_PER_FUNCTION. */
export function chunksOf<T>(items: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += FIELDS_PER_FUNCTION) out.push(items.slice(i, i + FIELDS_PER_FUNCTION));
  return out;
}

/**
 * Print `body` (statements over `o`) into `out` when the record has one chunk; else into a helper `signature` whose
 * body ends with `end`, with `call` in `out`.
 */
function chunkInto(ctx: ValidatorContext, out: Lines, body: Lines, chunked: boolean, prefix: "is" | "collect", signature: (name: string) => Code, end: string | undefined, call: (name: string) => string): void {
  if (!chunked) {
    out.append(body);
    return;
  }
  const name = ctx.helperName(prefix);
  const helper = new Lines();
  helper.add("", signature(name));
  helper.append(body);
  if (end !== undefined) helper.add("  ", end);
  helper.add("", "}");
  ctx.helpers.append(helper);
  out.add("  ", call(name));
}

export function recordIsBody(ctx: ValidatorContext, t: RecordType, out: Lines): void {
  out.add("  ", 'if (typeof value !== "object" || value === null || Array.isArray(value)) return false;');
  const fields = slots(ctx, t);
  const extra = t.additionalProperties;
  if (fields.length === 0 && (extra === undefined || (extra !== false && isEmptyCheck(ctx, extra)))) {
    out.add("  ", "return true;");
    return;
  }
  openRecord(out);
  // Each property's statements are written in order (the module-level helpers they register keep their order), then
  // placed in this body or, for a large record, in helpers (see FIELDS_PER_FUNCTION).
  const perField = cheapFirst(ctx, fields).flatMap((declared) => {
    const s: FieldSlot = { ...declared, local: IS_LOCAL };
    const check = fieldIsExpr(ctx, s);
    if (!s.required && check === "true") return [];
    const body = new Lines();
    // An inherited value counts as absent: a required property fails without an own one; an optional one fails
    // only when an own value fails its check, so the own check runs only on the way to `return false`.
    const own = ownCheck(ctx, s);
    body.add("  ", read(s, ""));
    if (s.required && check === "true") body.add("  ", `if (${s.local} === undefined || !${own}) return false;`);
    else if (s.required) body.add("  ", `if (${s.local} === undefined || !`, paren(check), ` || !${own}) return false;`);
    // Only a failing value reaches the own check here, so it is a call: a few bytes, where the inline test repeated
    // per optional property would keep the whole function from being inlined into its caller.
    else body.add("  ", `if (${s.local} !== undefined && !`, paren(check), ` && ${PROTOTYPE_KEYS.has(s.key) ? own : `${ctx.ownFunction()}(o, ${stringLiteral(s.key)})`}) return false;`);
    return [body];
  });
  const chunks = chunksOf(perField);
  for (const chunk of chunks) {
    const body = new Lines();
    if (chunk.length > 0) body.add("  ", `let ${IS_LOCAL}: unknown;`);
    for (const lines of chunk) body.append(lines);
    chunkInto(ctx, out, body, chunks.length > 1, "is", (name) => `function ${name}(o: Record<string, unknown>): boolean {`, "return true;", (name) => `if (!${name}(o)) return false;`);
  }
  if (extra !== undefined && !(extra !== false && isEmptyCheck(ctx, extra))) {
    const known = knownKey(ctx, fields.map((s) => s.key));
    out.add("  ", "for (const key in o) {");
    if (extra === false) {
      out.add("    ", "if (!Object.hasOwn(o, key) || ", paren(known), ") continue;");
      out.add("    ", "return false;");
    } else {
      out.add("    ", "if (!Object.hasOwn(o, key) || ", paren(known), ") continue;");
      out.add("    ", "const item = o[key];");
      failUnless(out, "    ", isExpr(ctx, extra, undefined, "item"));
    }
    out.add("  ", "}");
  }
  out.add("  ", "return true;");
}

export function recordCollectBody(ctx: ValidatorContext, t: RecordType, out: Lines): void {
  out.add("  ", 'if (typeof value !== "object" || value === null || Array.isArray(value)) {');
  pushIssue(out, "    ", "path", "type", "must be an object");
  out.add("    ", "return;");
  out.add("  ", "}");
  const fields = slots(ctx, t);
  const extra = t.additionalProperties;
  const checksExtra = extra !== undefined && !(extra !== false && isEmptyCheck(ctx, extra));
  if (fields.length === 0 && !checksExtra) return;
  openRecord(out);
  // One line per property (two for a required one), the reporting written once per shape (see collectorOf).
  const perField = fields.flatMap((s) => {
    const collector = collectorOf(ctx, s.field.type, s.field.facets);
    if (!s.required && collector === undefined) return [];
    const body = new Lines();
    collectField(ctx, s, collector, body);
    return [body];
  });
  const chunks = chunksOf(perField);
  for (const chunk of chunks) {
    const body = new Lines();
    for (const lines of chunk) body.append(lines);
    const issueType = chunks.length > 1 ? ctx.f.import("ValidationIssue", ctx.runtimeModule, { typeOnly: true }) : "";
    chunkInto(ctx, out, body, chunks.length > 1, "collect", (name) => js`function ${name}(o: Record<string, unknown>, path: string, issues: ${issueType}[]): void {`, undefined, (name) => `${name}(o, path, issues);`);
  }
  if (checksExtra) {
    const known = knownKey(ctx, fields.map((s) => s.key));
    const keyPath = js`${ctx.rt("pointerJoin")}(path, key)`;
    out.add("  ", "for (const key in o) {");
    out.add("    ", "if (!Object.hasOwn(o, key) || ", paren(known), ") continue;");
    if (extra === false) pushIssue(out, "    ", keyPath, "additionalProperties", "is not a known property");
    else {
      out.add("    ", "const item = o[key];");
      collectStatements(ctx, extra as TypeExpr, undefined, "item", keyPath, out, "    ");
    }
    out.add("  ", "}");
  }
}

/** The statements reporting one property's issues (see recordCollectBody). */
function collectField(ctx: ValidatorContext, s: FieldSlot, collector: ReturnType<typeof collectorOf>, out: Lines): void {
  const own = ownCheck(ctx, s);
  out.add("  ", read(s));
  const conditions: Code[] = [];
  if (s.field.nullable) conditions.push(`${s.local} !== null`);
  // "checked" collectors run after a failing check; leaf helpers check inside.
  if (collector?.kind === "checked") conditions.push(js`!${paren(isExpr(ctx, s.field.type, s.field.facets, s.local))}`);
  const report = collector === undefined ? undefined
    : collector.kind === "checked" ? js`${collector.fn}(${s.local}, ${childPath("path", s.key)}, issues);`
    : js`${collector.fn}(${s.local}, path, ${pathSegment(s.key)}, issues);`;
  if (s.required) {
    pushIssue(out, "  ", childPath("path", s.key), "required", "is required", `if (${s.local} === undefined || !${own}) `);
    if (report) out.add("  ", conditions.length > 0 ? js`else if (${joinWith(conditions, " && ")}) ` : "else ", report);
  } else {
    out.add("  ", js`if (${joinWith([`${s.local} !== undefined`, ...conditions, own], " && ")}) `, report!);
  }
}
