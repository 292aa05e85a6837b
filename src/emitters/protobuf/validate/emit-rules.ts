/**
 * protovalidate's standard rules (buf/validate/validate.proto) compiled into straight-line checks inside the proto
 * validators: each rule a comparison against constants fixed at generation time, each violation carrying
 * protovalidate's rule id and field path. See docs/protovalidate.md for what is supported.
 */
import { stringLiteral } from "../../../codegen/escape.js";
import { SpecError } from "../../../errors.js";
import type { EnumType, ExtensionDecl, Origin, RecordType, ScalarKind } from "../../../ir/model.js";
import { parseIntText } from "../../../parsers/proto/parser.js";
import { type FieldPlan, type MessagePlan, type ValueShape, member } from "../plan.js";
import { INT64_SCALARS } from "../scalars.js";
import { compileCel, CelUnsupported, selfMessage, selfOf, selfValue, type CelEnv, type Compiled } from "./cel.js";
import { asList, asTree, bool, fieldRules, ignoreOf, mergeRules, scalarOf, type RuleScalar, type RuleTree, type RuleValue } from "./rules.js";

export interface RulesCtx {
  print(line: string): void;
  /** A runtime function's local name (imported on use). */
  rt(name: string): string;
  int64: "bigint" | "string" | "number";
  /** `"Date"`: google.protobuf.Timestamp values are Dates. */
  dates?: "string" | "Date" | undefined;
  /** The plan of a message type, for well-known types (property names of Duration, Timestamp, Any, wrappers). */
  plan(type: RecordType): MessagePlan | undefined;
  warn(origin: Origin, detail: string): void;
  /** A module-level constant (compiled regexp, byte string); returns its name. */
  constant(key: string, init: string): string;
  /** The document's extensions: predefined rules are extensions of buf.validate's rule messages. */
  extensions: readonly ExtensionDecl[];
  /** The field whose rules are being compiled (for warnings); set by emitFieldRules. */
  origin: Origin;
  /** A function (name) from an enum value of the generated type (name, or number when unknown) to its number. */
  enumNumber(e: EnumType): string;
}

/** Where a value is: its JSON pointer and protovalidate field path, as expressions (evaluated only on violation). */
interface Place {
  readonly ptr: string;
  readonly fp: string;
  readonly forKey?: boolean;
}

const PROTO_KIND: Record<string, string> = { boolean: "bool" };

/** `ignore: IGNORE_ALWAYS` on the field: no rule applies to it or inside it. */
export function ignoredAlways(p: FieldPlan): boolean {
  return ignoreOf(fieldRules(p.field.wire?.proto?.rules)?.tree) === "always";
}

/** Whether a field has any rules the validators enforce (so callers can skip the rules block). */
export function hasFieldRules(p: FieldPlan): boolean {
  return (p.field.wire?.proto?.rules?.length ?? 0) > 0;
}

/**
 * The rules of one field of message `m` (read from `mVar`), printed as statements at `indent`. `path` / `fp` are the
 * message's pointer and field path variables.
 */
export function emitFieldRules(c: RulesCtx, p: FieldPlan, access: string, present: string, indent: string, oneofRule: boolean): void {
  const fr = fieldRules(p.field.wire?.proto?.rules);
  if (!fr) return;
  const tree = fr.tree;
  c.origin = p.field.origin;
  let ignore = ignoreOf(tree);
  if (oneofRule && tree["ignore"] === undefined) ignore = "if_zero";
  if (ignore === "always") return;
  const required = bool(tree["required"]);
  const name = p.field.name;
  const place: Place = { ptr: `${c.rt("pointerJoin")}(path, ${stringLiteral(p.prop)})`, fp: `${c.rt("pvField")}(fp, ${stringLiteral(name)})` };
  const at = indent;
  c.print(`${at}{`);
  c.print(`${at}  const v: any = ${access};`);
  const isSet = setTest(c, p, "v", present);
  if (required) {
    c.print(`${at}  if (!(${isSet})) ${violation(c, place, "required", '"value is required"')}`);
    c.print(`${at}  else {`);
  } else {
    const collection = p.repeated || p.mapKey !== undefined;
    const runs = ignore === "if_zero" || p.presence === "explicit" || p.presence === "required" || p.oneof !== undefined || (p.value.kind !== "scalar" && p.value.kind !== "enum" && !collection)
      ? isSet
      : collection ? "true" : "v !== undefined";
    c.print(`${at}  if (${runs}) {`);
  }
  const inner = `${at}    `;
  if (p.mapKey !== undefined) emitMapRules(c, p, tree, place, inner);
  else if (p.repeated) emitListRules(c, p, tree, place, inner);
  else emitValueRules(c, p.value, tree, "v", place, inner, p);
  for (const rule of celRules(tree)) emitCel(c, p.field.origin, `field ${p.field.name}`, rule, () => selfOf(celEnv(c), p, "v"), place, inner, p);
  c.print(`${at}  }`);
  c.print(`${at}}`);
}


/** The CEL rules of a rules tree: `cel` entries and `cel_expression` strings (whose id is the expression). */
function celRules(tree: RuleTree): { id: string; message: string; expression: string }[] {
  const str = (v: RuleValue | undefined) => {
    const x = scalarOf(v);
    return x?.kind === "string" ? x.value : "";
  };
  const out = asList(tree["cel"]).map((r) => {
    const t = asTree(r) ?? {};
    return { id: str(t["id"]), message: str(t["message"]), expression: str(t["expression"]) };
  });
  for (const e of asList(tree["cel_expression"])) out.push({ id: str(e), message: "", expression: str(e) });
  return out;
}

function celEnv(c: RulesCtx): CelEnv {
  return { plan: c.plan, rt: c.rt, constant: c.constant, enumNumber: c.enumNumber, dates: c.dates };
}

/** Print one compiled CEL rule: false or a non-empty string is a violation; a CEL error is one too. */
function emitCel(c: RulesCtx, origin: Origin, what: string, rule: { id: string; message: string; expression: string }, self: () => Compiled, place: Place, at: string, plan?: FieldPlan, extra?: () => Record<string, Compiled>): void {
  let compiled: string;
  try {
    compiled = compileCel(celEnv(c), rule.expression, self(), plan, extra?.()).js;
  } catch (e) {
    if (!(e instanceof CelUnsupported) && !(e instanceof SyntaxError)) throw e;
    c.warn(origin, `CEL rule "${rule.id}" of ${what} is not evaluated: ${(e as Error).message} (in ${JSON.stringify(rule.expression)})`);
    return;
  }
  const message = rule.message !== "" ? stringLiteral(rule.message) : stringLiteral(`"${rule.expression}" returned false`);
  c.print(`${at}{`);
  c.print(`${at}  let r: unknown;`);
  c.print(`${at}  try {`);
  c.print(`${at}    r = ${compiled};`);
  c.print(`${at}  } catch (e) {`);
  c.print(`${at}    r = "CEL error: " + (e instanceof Error ? e.message : String(e));`);
  c.print(`${at}  }`);
  c.print(`${at}  if (r === false) ${violation(c, place, rule.id, message)}`);
  c.print(`${at}  else if (typeof r === "string" && r !== "") ${violation(c, place, rule.id, "r")}`);
  c.print(`${at}}`);
}

/** The message-level CEL rules of `m` (the message is `m`, its place `path` / `fp`). */
export function emitMessageCel(c: RulesCtx, m: MessagePlan, at: string): void {
  const r = mergeRules(m.record.protoRules, "buf.validate.message");
  if (!r) return;
  for (const rule of celRules(r.tree)) emitCel(c, m.record.origin, `message ${m.record.name}`, rule, () => selfMessage(m.record, "m"), { ptr: "path", fp: "fp" }, at);
}

/** The expression that is true when the field is "set" in protovalidate's sense. */
function setTest(c: RulesCtx, p: FieldPlan, v: string, present: string): string {
  if (p.oneof !== undefined) return present;
  if (p.mapKey !== undefined) return `(${v} !== undefined && Object.keys(${v}).length > 0)`;
  if (p.repeated) return `(${v} !== undefined && ${v}.length > 0)`;
  if (p.presence !== "implicit") return `${v} !== undefined`;
  return `(${v} !== undefined && ${nonZero(c, p.value, v)})`;
}

function nonZero(c: RulesCtx, shape: ValueShape, v: string): string {
  if (shape.kind === "enum") return `!(${zeroEnumTest(shape.type, v)})`;
  if (shape.kind !== "scalar") return `${v} !== undefined`;
  switch (shape.scalar) {
    case "bytes":
      return `${v}.length !== 0`;
    case "string":
      return `${v} !== ""`;
    case "boolean":
      return `${v} !== false`;
    case "float":
    case "double":
      // protovalidate compares with ==: -0 is the zero value here (NaN is not).
      return `${v} !== 0`;
    default:
      return INT64_SCALARS.has(shape.scalar) ? `BigInt(${v}) !== 0n` : `${v} !== 0`;
  }
}

function zeroEnumTest(e: EnumType, v: string): string {
  const zero = e.values.filter((x) => x.number === 0).map((x) => `${v} === ${stringLiteral(x.name)}`);
  return [...zero, `${v} === 0`].join(" || ");
}

function violation(c: RulesCtx, place: Place, rule: string, message: string): string {
  return `${c.rt("pvViolation")}(issues, ${place.ptr}, ${place.fp}, ${stringLiteral(rule)}, ${message}${place.forKey ? ", true" : ""});` as string;
}

// ---- repeated and map ---------------------------------------------------------------------------------------

function emitListRules(c: RulesCtx, p: FieldPlan, tree: RuleTree, place: Place, at: string): void {
  const r = asTree(tree["repeated"]);
  // Absent reads as empty (a partial message); min_items still applies.
  c.print(`${at}const list: any = v ?? [];`);
  c.print(`${at}if (Array.isArray(list)) {`);
  if (r) {
    const min = intRule(r["min_items"]);
    const max = intRule(r["max_items"]);
    if (min !== undefined) c.print(`${at}  if (list.length < ${min}) ${violation(c, place, "repeated.min_items", stringLiteral(`must contain at least ${min} item(s)`))}`);
    if (max !== undefined) c.print(`${at}  if (list.length > ${max}) ${violation(c, place, "repeated.max_items", stringLiteral(`must contain no more than ${max} item(s)`))}`);
    if (bool(r["unique"])) {
      const key = p.value.kind === "scalar" && INT64_SCALARS.has(p.value.scalar) ? "list.map((x: any) => BigInt(x))" : "list";
      c.print(`${at}  if (!${c.rt("pvUnique")}(${key})) ${violation(c, place, "repeated.unique", '"repeated value must contain unique items"')}`);
    }
  }
  const items = asTree(r?.["items"]);
  if (items && ignoreOf(items) !== "always") {
    c.print(`${at}  for (let i = 0; i < list.length; i++) {`);
    c.print(`${at}    const item: any = list[i];`);
    const itemPlace: Place = { ptr: `${c.rt("pointerJoin")}(${place.ptr}, i)`, fp: `${place.fp} + "[" + i + "]"` };
    const skip = ignoreOf(items) === "if_zero" && p.value.kind !== "message" && p.value.kind !== "group" ? `${nonZero(c, p.value, "item")}` : "true";
    c.print(`${at}    if (${skip}) {`);
    emitValueRules(c, p.value, items, "item", itemPlace, `${at}      `, p);
    for (const rule of celRules(items)) emitCel(c, p.field.origin, `the items of field ${p.field.name}`, rule, () => selfValue(celEnv(c), p.value, "item"), itemPlace, `${at}      `);
    c.print(`${at}    }`);
    c.print(`${at}  }`);
  }
  c.print(`${at}}`);
}

function emitMapRules(c: RulesCtx, p: FieldPlan, tree: RuleTree, place: Place, at: string): void {
  const r = asTree(tree["map"]);
  c.print(`${at}const map: any = v ?? {};`);
  c.print(`${at}if (typeof map === "object" && map !== null) {`);
  c.print(`${at}  const keys = Object.keys(map);`);
  if (r) {
    const min = intRule(r["min_pairs"]);
    const max = intRule(r["max_pairs"]);
    if (min !== undefined) c.print(`${at}  if (keys.length < ${min}) ${violation(c, place, "map.min_pairs", stringLiteral(`map must be at least ${min} entries`))}`);
    if (max !== undefined) c.print(`${at}  if (keys.length > ${max}) ${violation(c, place, "map.max_pairs", stringLiteral(`map must be at most ${max} entries`))}`);
  }
  const keyRules = asTree(r?.["keys"]);
  const valueRules = asTree(r?.["values"]);
  const doKeys = keyRules && ignoreOf(keyRules) !== "always";
  const doValues = valueRules && ignoreOf(valueRules) !== "always";
  if (doKeys || doValues) {
    const keyKind = p.mapKey!;
    const quoted = keyKind === "string";
    c.print(`${at}  for (const k of keys) {`);
    const entryFp = `${c.rt("pvKey")}(${place.fp}, k, ${quoted})`;
    const entryPtr = `${c.rt("pointerJoin")}(${place.ptr}, k)`;
    if (doKeys) {
      const keyValue = keyKind === "boolean" ? 'k === "true"' : INT64_SCALARS.has(keyKind) ? (c.int64 === "bigint" ? "BigInt(k)" : c.int64 === "string" ? "k" : "Number(k)") : keyKind === "string" ? "k" : "Number(k)";
      c.print(`${at}    {`);
      c.print(`${at}      const key: any = ${keyValue};`);
      const skip = ignoreOf(keyRules) === "if_zero" ? nonZero(c, { kind: "scalar", scalar: keyKind }, "key") : "true";
      c.print(`${at}      if (${skip}) {`);
      const keyPlace = { ptr: entryPtr, fp: entryFp, forKey: true };
      emitValueRules(c, { kind: "scalar", scalar: keyKind }, keyRules!, "key", keyPlace, `${at}        `, p);
      for (const rule of celRules(keyRules!)) emitCel(c, p.field.origin, `the keys of field ${p.field.name}`, rule, () => selfValue(celEnv(c), { kind: "scalar", scalar: keyKind }, "key"), keyPlace, `${at}        `);
      c.print(`${at}      }`);
      c.print(`${at}    }`);
    }
    if (doValues) {
      c.print(`${at}    {`);
      c.print(`${at}      const item: any = map[k];`);
      const skip = ignoreOf(valueRules) === "if_zero" && p.value.kind !== "message" ? nonZero(c, p.value, "item") : "true";
      c.print(`${at}      if (${skip}) {`);
      emitValueRules(c, p.value, valueRules!, "item", { ptr: entryPtr, fp: entryFp }, `${at}        `, p);
      for (const rule of celRules(valueRules!)) emitCel(c, p.field.origin, `the values of field ${p.field.name}`, rule, () => selfValue(celEnv(c), p.value, "item"), { ptr: entryPtr, fp: entryFp }, `${at}        `);
      c.print(`${at}      }`);
      c.print(`${at}    }`);
    }
    c.print(`${at}  }`);
  }
  c.print(`${at}}`);
}

// ---- one value ----------------------------------------------------------------------------------------------

function emitValueRules(c: RulesCtx, shape: ValueShape, tree: RuleTree, v: string, place: Place, at: string, p: FieldPlan): void {
  if (shape.kind === "enum") {
    const r = asTree(tree["enum"]);
    if (r) emitEnumRules(c, shape.type, r, v, place, at);
    if (r) emitPredefined(c, shape, r, v, place, at);
    return;
  }
  if (shape.kind === "message" || shape.kind === "group") {
    emitMessageValueRules(c, shape.type, tree, v, place, at);
    const kind = WKT_KIND[shape.type.id];
    const r = kind ? asTree(tree[kind]) : undefined;
    if (r) emitPredefined(c, WRAPPERS[shape.type.id] ? { kind: "scalar", scalar: WRAPPERS[shape.type.id]! } : shape, r, WRAPPERS[shape.type.id] ? `${v}?.${prop(c, shape.type, "value") ?? "value"}` : v, place, at);
    return;
  }
  const kind = PROTO_KIND[shape.scalar] ?? shape.scalar;
  const r = asTree(tree[kind]);
  if (!r) return;
  emitScalarRules(c, shape.scalar, kind, r, v, place, at);
  emitPredefined(c, shape, r, v, place, at);
}

/** The rules kind of a well-known message type (wrappers take their scalar's). */
const WKT_KIND: Record<string, string> = {
  "proto:.google.protobuf.Duration": "duration",
  "proto:.google.protobuf.Timestamp": "timestamp",
  "proto:.google.protobuf.Any": "any",
  "proto:.google.protobuf.FieldMask": "field_mask",
  "proto:.google.protobuf.DoubleValue": "double",
  "proto:.google.protobuf.FloatValue": "float",
  "proto:.google.protobuf.Int64Value": "int64",
  "proto:.google.protobuf.UInt64Value": "uint64",
  "proto:.google.protobuf.Int32Value": "int32",
  "proto:.google.protobuf.UInt32Value": "uint32",
  "proto:.google.protobuf.BoolValue": "bool",
  "proto:.google.protobuf.StringValue": "string",
  "proto:.google.protobuf.BytesValue": "bytes",
};

/**
 * Predefined rules: `(buf.validate.field).string.(my_rule) = value` where `my_rule` extends buf.validate.StringRules
 * with `(buf.validate.predefined).cel` rules; each is compiled with `this` the value and `rule` the setting.
 */
function emitPredefined(c: RulesCtx, shape: ValueShape, r: RuleTree, v: string, place: Place, at: string): void {
  for (const [key, value] of Object.entries(r)) {
    if (!key.startsWith("(")) continue;
    const name = key.slice(1, -1).replace(/^\./, "");
    const ext = c.extensions.find((e) => e.fullName === name || e.fullName.endsWith("." + name));
    if (!ext) {
      c.warn(c.origin, `predefined rule ${name} is not checked: no extension of that name`);
      continue;
    }
    const predefined = mergeRules(ext.field.wire?.proto?.rules, "buf.validate.predefined");
    const ruleValue = predefinedValue(ext, value);
    for (const rule of predefined ? celRules(predefined.tree) : []) {
      if (ruleValue === undefined) {
        c.warn(c.origin, `predefined rule ${name} is not checked: its value is not a scalar`);
        break;
      }
      emitCel(c, c.origin, `predefined rule ${name}`, rule, () => selfValue(celEnv(c), shape, v), place, at, undefined, () => ({ rule: ruleValue }));
    }
  }
}

/** The setting of a predefined rule as a CEL constant, typed by the extension's field. */
function predefinedValue(ext: ExtensionDecl, value: RuleValue): Compiled | undefined {
  const s = scalarOf(value);
  const t = ext.field.type;
  if (!s || t.kind !== "scalar") return undefined;
  if (t.scalar === "boolean") return { js: String(s.kind === "ident" && s.text === "true"), type: { k: "bool" } };
  if (t.scalar === "string") return s.kind === "string" ? { js: stringLiteral(s.value), type: { k: "string" } } : undefined;
  if (t.scalar === "float" || t.scalar === "double") return { js: `(${floatLiteral(s, t.scalar === "float")})`, type: { k: "double" } };
  const n = intText(s);
  if (n === undefined) return undefined;
  return { js: `${n}n`, type: { k: /^(uint|fixed)/.test(t.scalar) ? "uint" : "int" } };
}

function emitScalarRules(c: RulesCtx, scalar: ScalarKind, kind: string, r: RuleTree, v: string, place: Place, at: string): void {
  if (scalar === "string") return emitStringRules(c, r, v, place, at);
  if (scalar === "bytes") return emitBytesRules(c, r, v, place, at);
  if (scalar === "boolean") {
    const k = scalarOf(r["const"]);
    if (k) c.print(`${at}if (typeof ${v} === "boolean" && ${v} !== ${k.kind === "ident" && k.text === "true"}) ${violation(c, place, "bool.const", stringLiteral(`must equal ${k.kind === "ident" ? k.text : ""}`))}`);
    return;
  }
  const isFloat = scalar === "float" || scalar === "double";
  const is64 = INT64_SCALARS.has(scalar);
  const lit = (s: RuleScalar): string => (isFloat ? floatLiteral(s, scalar === "float") : is64 ? `${intText(s)}n` : String(Number(intText(s))));
  const n = is64 ? "n" : v;
  c.print(`${at}if (${is64 ? `(typeof ${v} === "bigint" || typeof ${v} === "string" || Number.isInteger(${v}))` : `typeof ${v} === "number"`}) {`);
  if (is64) c.print(`${at}  const n = BigInt(${v});`);
  const i = `${at}  `;
  const nan = isFloat ? `Number.isNaN(${n}) || ` : "";
  const k = scalarOf(r["const"]);
  if (k) c.print(`${i}if (${n} !== ${lit(k)}) ${violation(c, place, `${kind}.const`, stringLiteral(`must equal ${show(k)}`))}`);
  emitRange(c, kind, r, n, lit, nan, place, i);
  const inList = asList(r["in"]).map((x) => scalarOf(x)).filter((x): x is RuleScalar => x !== undefined);
  if (inList.length) c.print(`${i}if (!(${inList.map((x) => `${n} === ${lit(x)}`).join(" || ")})) ${violation(c, place, `${kind}.in`, stringLiteral(`must be in list [${inList.map(show).join(", ")}]`))}`);
  const notIn = asList(r["not_in"]).map((x) => scalarOf(x)).filter((x): x is RuleScalar => x !== undefined);
  if (notIn.length) c.print(`${i}if (${notIn.map((x) => `${n} === ${lit(x)}`).join(" || ")}) ${violation(c, place, `${kind}.not_in`, stringLiteral(`must not be in list [${notIn.map(show).join(", ")}]`))}`);
  if (isFloat && bool(r["finite"])) c.print(`${i}if (!Number.isFinite(${n})) ${violation(c, place, `${kind}.finite`, '"must be finite"')}`);
  c.print(`${at}}`);
}

/** lt/lte/gt/gte and their combinations, with protovalidate's ids ("int32.gt_lt", "double.gte_lte_exclusive"). */
function emitRange(c: RulesCtx, kind: string, r: RuleTree, n: string, lit: (s: RuleScalar) => string, nan: string, place: Place, i: string, cmp?: (a: string, op: string, b: string) => string): void {
  const test = cmp ?? ((a: string, op: string, b: string) => `${a} ${op} ${b}`);
  const lt = scalarOf(r["lt"]);
  const lte = scalarOf(r["lte"]);
  const gt = scalarOf(r["gt"]);
  const gte = scalarOf(r["gte"]);
  const upper = lt ? { s: lt, name: "lt", fail: ">=", ok: "<" } : lte ? { s: lte, name: "lte", fail: ">", ok: "<=" } : undefined;
  const lower = gt ? { s: gt, name: "gt", fail: "<=", ok: ">" } : gte ? { s: gte, name: "gte", fail: "<", ok: ">=" } : undefined;
  const words: Record<string, string> = { lt: "less than", lte: "less than or equal to", gt: "greater than", gte: "greater than or equal to" };
  if (upper && !lower) {
    c.print(`${i}if (${nan}${test(n, upper.fail, lit(upper.s))}) ${violation(c, place, `${kind}.${upper.name}`, stringLiteral(`must be ${words[upper.name]} ${show(upper.s)}`))}`);
  } else if (lower && !upper) {
    c.print(`${i}if (${nan}${test(n, lower.fail, lit(lower.s))}) ${violation(c, place, `${kind}.${lower.name}`, stringLiteral(`must be ${words[lower.name]} ${show(lower.s)}`))}`);
  } else if (lower && upper) {
    // protovalidate: upper >= lower is a range (gt_lt ...); reversed bounds exclude the middle (..._exclusive).
    const inclusive = upperAtLeastLower(upper.s, lower.s);
    const id = `${kind}.${lower.name}_${upper.name}`;
    if (inclusive) {
      const msg = `must be ${words[lower.name]} ${show(lower.s)} and ${words[upper.name]} ${show(upper.s)}`;
      c.print(`${i}if (${nan}${test(n, upper.fail, lit(upper.s))} || ${test(n, lower.fail, lit(lower.s))}) ${violation(c, place, id, stringLiteral(msg))}`);
    } else {
      // An excluded middle: the value must lie outside [upper, lower].
      const msg = `must be ${words[lower.name]} ${show(lower.s)} or ${words[upper.name]} ${show(upper.s)}`;
      const upperIn = upper.name === "lt" ? ">=" : ">";
      const lowerIn = lower.name === "gt" ? "<=" : "<";
      c.print(`${i}if (${nan}(${test(n, upperIn, lit(upper.s))} && ${test(n, lowerIn, lit(lower.s))})) ${violation(c, place, `${id}_exclusive`, stringLiteral(msg))}`);
    }
  }
}

/** Whether upper >= lower, comparing rule constants exactly (integers as bigint, floats and durations as numbers). */
function upperAtLeastLower(upper: RuleValue, lower: RuleValue): boolean {
  const num = (v: RuleValue): number | bigint => {
    const s = scalarOf(v);
    if (s) {
      if (s.kind === "number") {
        try {
          return intText(s) === undefined ? floatValue(s) : BigInt(intText(s)!);
        } catch {
          return floatValue(s);
        }
      }
      return 0;
    }
    const t = asTree(v);
    return t ? BigInt(intText(scalarOf(t["seconds"])) ?? "0") * 1000000000n + BigInt(intText(scalarOf(t["nanos"])) ?? "0") : 0;
  };
  const a = num(upper);
  const b = num(lower);
  return typeof a === "bigint" && typeof b === "bigint" ? a >= b : Number(a) >= Number(b);
}

function show(s: RuleScalar): string {
  return s.kind === "string" ? s.value : s.text;
}

/** An integer constant's decimal text (hex and octal read as protoc does); undefined for non-integers. */
function intText(s: RuleScalar | undefined): string | undefined {
  if (!s || s.kind !== "number") return undefined;
  const neg = s.text.startsWith("-");
  const body = neg ? s.text.slice(1) : s.text;
  if (!/^(0[xX][0-9A-Fa-f]+|[0-9]+)$/.test(body)) return undefined;
  const v = parseIntText(body);
  return (neg ? -v : v).toString();
}

function floatValue(s: RuleScalar): number {
  if (s.kind !== "number") return NaN;
  const t = s.text.toLowerCase().replace(/f$/, "");
  if (/^-?inf(inity)?$/.test(t)) return t.startsWith("-") ? -Infinity : Infinity;
  if (/^-?nan$/.test(t)) return NaN;
  const iv = intText(s);
  return iv !== undefined ? Number(iv) : Number(t);
}

function floatLiteral(s: RuleScalar, float32: boolean): string {
  let n = floatValue(s);
  if (float32) n = Math.fround(n);
  if (Number.isNaN(n)) return "NaN";
  if (!Number.isFinite(n)) return n > 0 ? "Infinity" : "-Infinity";
  return Object.is(n, -0) ? "-0" : String(n);
}

function intRule(v: RuleValue | undefined): string | undefined {
  return intText(scalarOf(v));
}

// ---- strings and bytes --------------------------------------------------------------------------------------

const STRING_FORMATS: Record<string, { test: (c: RulesCtx, v: string) => string; empty: boolean; message: string }> = {
  email: { test: (c, v) => call(c, "pvIsEmail", v), empty: true, message: "must be a valid email address" },
  hostname: { test: (c, v) => call(c, "pvIsHostname", v), empty: true, message: "must be a valid hostname" },
  ip: { test: (c, v) => call(c, "pvIsIp", v, "0"), empty: true, message: "must be a valid IP address" },
  ipv4: { test: (c, v) => call(c, "pvIsIp", v, "4"), empty: true, message: "must be a valid IPv4 address" },
  ipv6: { test: (c, v) => call(c, "pvIsIp", v, "6"), empty: true, message: "must be a valid IPv6 address" },
  uri: { test: (c, v) => call(c, "pvIsUri", v), empty: true, message: "must be a valid URI" },
  uri_ref: { test: (c, v) => call(c, "pvIsUriRef", v), empty: false, message: "must be a valid URI Reference" },
  address: { test: (c, v) => `(${call(c, "pvIsHostname", v)} || ${call(c, "pvIsIp", v, "0")})`, empty: true, message: "must be a valid hostname, or ip address" },
  uuid: { test: (_c, v) => `/^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/.test(${v})`, empty: true, message: "must be a valid UUID" },
  tuuid: { test: (_c, v) => `/^[0-9a-fA-F]{32}$/.test(${v})`, empty: true, message: "must be a valid trimmed UUID" },
  ip_with_prefixlen: { test: (c, v) => call(c, "pvIsIpPrefix", v, "0", "false"), empty: true, message: "must be a valid IP prefix" },
  ipv4_with_prefixlen: { test: (c, v) => call(c, "pvIsIpPrefix", v, "4", "false"), empty: true, message: "must be a valid IPv4 address with prefix length" },
  ipv6_with_prefixlen: { test: (c, v) => call(c, "pvIsIpPrefix", v, "6", "false"), empty: true, message: "must be a valid IPv6 address with prefix length" },
  ip_prefix: { test: (c, v) => call(c, "pvIsIpPrefix", v, "0", "true"), empty: true, message: "must be a valid IP prefix" },
  ipv4_prefix: { test: (c, v) => call(c, "pvIsIpPrefix", v, "4", "true"), empty: true, message: "must be a valid IPv4 prefix" },
  ipv6_prefix: { test: (c, v) => call(c, "pvIsIpPrefix", v, "6", "true"), empty: true, message: "must be a valid IPv6 prefix" },
  host_and_port: { test: (c, v) => call(c, "pvIsHostAndPort", v, "true"), empty: true, message: "must be a valid host (hostname or IP address) and port pair" },
  ulid: { test: (_c, v) => `/^[0-7][0-9A-HJKMNP-TV-Za-hjkmnp-tv-z]{25}$/.test(${v})`, empty: true, message: "must be a valid ULID" },
  protobuf_fqn: { test: (_c, v) => `/^[A-Za-z_][A-Za-z_0-9]*(\\.[A-Za-z_][A-Za-z_0-9]*)*$/.test(${v})`, empty: true, message: "must be a valid fully-qualified Protobuf name" },
  protobuf_dot_fqn: { test: (_c, v) => `/^\\.[A-Za-z_][A-Za-z_0-9]*(\\.[A-Za-z_][A-Za-z_0-9]*)*$/.test(${v})`, empty: true, message: "must be a valid fully-qualified Protobuf name with a leading dot" },
};

function call(c: RulesCtx, fn: string, ...args: string[]): string {
  return `${c.rt(fn)}(${args.join(", ")})`;
}

function emitStringRules(c: RulesCtx, r: RuleTree, v: string, place: Place, at: string): void {
  c.print(`${at}if (typeof ${v} === "string") {`);
  const i = `${at}  `;
  const str = (k: string) => {
    const s = scalarOf(r[k]);
    return s?.kind === "string" ? s.value : undefined;
  };
  const k = str("const");
  if (k !== undefined) c.print(`${i}if (${v} !== ${stringLiteral(k)}) ${violation(c, place, "string.const", stringLiteral(`must equal \`${k}\``))}`);
  const lens: [string, string, string, (n: string) => string][] = [
    ["len", "!==", "string.len", (n) => `must be ${n} characters`],
    ["min_len", "<", "string.min_len", (n) => `must be at least ${n} characters`],
    ["max_len", ">", "string.max_len", (n) => `must be at most ${n} characters`],
  ];
  const byteLens: [string, string, string, (n: string) => string][] = [
    ["len_bytes", "!==", "string.len_bytes", (n) => `must be ${n} bytes`],
    ["min_bytes", "<", "string.min_bytes", (n) => `must be at least ${n} bytes`],
    ["max_bytes", ">", "string.max_bytes", (n) => `must be at most ${n} bytes`],
  ];
  if (lens.some(([key]) => r[key] !== undefined)) {
    c.print(`${i}const runes = ${call(c, "pvRunes", v)};`);
    for (const [key, op, id, msg] of lens) {
      const n = intRule(r[key]);
      if (n !== undefined) c.print(`${i}if (runes ${op} ${n}) ${violation(c, place, id, stringLiteral(msg(n)))}`);
    }
  }
  if (byteLens.some(([key]) => r[key] !== undefined)) {
    c.print(`${i}const bytes = ${call(c, "pvUtf8Bytes", v)};`);
    for (const [key, op, id, msg] of byteLens) {
      const n = intRule(r[key]);
      if (n !== undefined) c.print(`${i}if (bytes ${op} ${n}) ${violation(c, place, id, stringLiteral(msg(n)))}`);
    }
  }
  const pattern = str("pattern");
  const source = pattern === undefined ? undefined : patternOrWarn(c, pattern);
  if (pattern !== undefined && source !== undefined) {
    const re = c.constant(`re ${pattern}`, source);
    c.print(`${i}if (!${re}.test(${v})) ${violation(c, place, "string.pattern", stringLiteral(`does not match regex pattern \`${pattern}\``))}`);
  }
  const sub: [string, string, string, string][] = [
    ["prefix", "startsWith", "string.prefix", "does not have prefix"],
    ["suffix", "endsWith", "string.suffix", "does not have suffix"],
    ["contains", "includes", "string.contains", "does not contain substring"],
  ];
  for (const [key, fn, id, msg] of sub) {
    const s = str(key);
    if (s !== undefined) c.print(`${i}if (!${v}.${fn}(${stringLiteral(s)})) ${violation(c, place, id, stringLiteral(`${msg} \`${s}\``))}`);
  }
  const nc = str("not_contains");
  if (nc !== undefined) c.print(`${i}if (${v}.includes(${stringLiteral(nc)})) ${violation(c, place, "string.not_contains", stringLiteral(`contains substring \`${nc}\``))}`);
  const list = (key: string) => asList(r[key]).map((x) => scalarOf(x)).filter((x): x is Extract<RuleScalar, { kind: "string" }> => x?.kind === "string").map((x) => x.value);
  const inList = list("in");
  if (inList.length) c.print(`${i}if (!(${inList.map((s) => `${v} === ${stringLiteral(s)}`).join(" || ")})) ${violation(c, place, "string.in", stringLiteral(`must be in list [${inList.join(", ")}]`))}`);
  const notIn = list("not_in");
  if (notIn.length) c.print(`${i}if (${notIn.map((s) => `${v} === ${stringLiteral(s)}`).join(" || ")}) ${violation(c, place, "string.not_in", stringLiteral(`must not be in list [${notIn.join(", ")}]`))}`);
  for (const [key, f] of Object.entries(STRING_FORMATS)) {
    if (!bool(r[key])) continue;
    if (f.empty) {
      c.print(`${i}if (${v} === "") ${violation(c, place, `string.${key}_empty`, stringLiteral(`value is empty, which is not a valid ${key}`))}`);
      c.print(`${i}else if (!${f.test(c, v)}) ${violation(c, place, `string.${key}`, stringLiteral(f.message))}`);
    } else c.print(`${i}if (!${f.test(c, v)}) ${violation(c, place, `string.${key}`, stringLiteral(f.message))}`);
  }
  const wk = scalarOf(r["well_known_regex"]);
  if (wk) {
    const text = wk.kind === "string" ? wk.value : wk.text;
    const which = text === "KNOWN_REGEX_HTTP_HEADER_NAME" || text === "1" ? 1 : text === "KNOWN_REGEX_HTTP_HEADER_VALUE" || text === "2" ? 2 : 0;
    const strict = r["strict"] === undefined || bool(r["strict"]);
    if (which === 1) {
      const re = strict ? "/^:?[0-9a-zA-Z!#$%&'*+\\-.^_|~`]+$/" : "/^[^\\u0000\\u000A\\u000D]+$/";
      c.print(`${i}if (${v} === "") ${violation(c, place, "string.well_known_regex.header_name_empty", '"value is empty, which is not a valid HTTP header name"')}`);
      c.print(`${i}else if (!${re}.test(${v})) ${violation(c, place, "string.well_known_regex.header_name", '"must be a valid HTTP header name"')}`);
    } else if (which === 2) {
      const re = strict ? "/^[^\\u0000-\\u0008\\u000A-\\u001F\\u007F]*$/" : "/^[^\\u0000\\u000A\\u000D]*$/";
      c.print(`${i}if (!${re}.test(${v})) ${violation(c, place, "string.well_known_regex.header_value", '"must be a valid HTTP header value"')}`);
    }
  }
  c.print(`${at}}`);
}

/** The RegExp of a pattern rule, or a warning (and no check) when JavaScript cannot read the RE2 pattern. */
function patternOrWarn(c: RulesCtx, pattern: string): string | undefined {
  try {
    return regexpSource(pattern);
  } catch (e) {
    if (!(e instanceof SyntaxError)) throw e;
    c.warn(c.origin, `pattern ${JSON.stringify(pattern)} is not checked: JavaScript cannot read it (${e.message})`);
    return undefined;
  }
}

/** An RE2 pattern as a JavaScript RegExp literal expression (unicode mode; RE2-only syntax is a spec error). */
function regexpSource(pattern: string): string {
  // (?i) and similar leading flag groups are RE2 syntax JavaScript lacks: map the common ones to flags.
  let flags = "u";
  let body = pattern;
  const m = /^\(\?([ims]+)\)/.exec(body);
  if (m) {
    body = body.slice(m[0].length);
    for (const f of m[1]!) if (!flags.includes(f)) flags += f;
  }
  body = body.replace(/\\z/g, "$").replace(/\\A/g, "^");
  new RegExp(body, flags);
  return `new RegExp(${stringLiteral(body)}, ${stringLiteral(flags)})`;
}

function bytesLiteral(c: RulesCtx, s: RuleScalar): string {
  const bytes = s.kind === "string" ? s.bytes : "";
  const arr = Array.from(bytes, (ch) => ch.charCodeAt(0));
  return c.constant(`bytes ${arr.join(",")}`, `/* @__PURE__ */ new Uint8Array([${arr.join(", ")}])`);
}

function hex(s: RuleScalar): string {
  return s.kind === "string" ? Array.from(s.bytes, (ch) => ch.charCodeAt(0).toString(16).padStart(2, "0")).join("") : "";
}

function emitBytesRules(c: RulesCtx, r: RuleTree, v: string, place: Place, at: string): void {
  c.print(`${at}if (${v} instanceof Uint8Array) {`);
  const i = `${at}  `;
  const get = (k: string) => {
    const s = scalarOf(r[k]);
    return s?.kind === "string" ? s : undefined;
  };
  const k = get("const");
  if (k) c.print(`${i}if (!${call(c, "pvBytesEqual", v, bytesLiteral(c, k))}) ${violation(c, place, "bytes.const", stringLiteral(`must be ${hex(k)}`))}`);
  const lens: [string, string, string][] = [["len", "!==", "bytes.len"], ["min_len", "<", "bytes.min_len"], ["max_len", ">", "bytes.max_len"]];
  for (const [key, op, id] of lens) {
    const n = intRule(r[key]);
    if (n !== undefined) c.print(`${i}if (${v}.length ${op} ${n}) ${violation(c, place, id, stringLiteral(`length must be ${key.replace("_len", "imum")} ${n} bytes`))}`);
  }
  const pattern = scalarOf(r["pattern"]);
  const source = pattern?.kind === "string" ? patternOrWarn(c, pattern.value) : undefined;
  if (pattern?.kind === "string" && source !== undefined) {
    const re = c.constant(`re ${pattern.value}`, source);
    c.print(`${i}{`);
    c.print(`${i}  const text = ${call(c, "pvBytesText", v)};`);
    c.print(`${i}  if (text === undefined) ${violation(c, place, "bytes.pattern", '"must be valid UTF-8 to apply regexp"')}`);
    c.print(`${i}  else if (!${re}.test(text)) ${violation(c, place, "bytes.pattern", stringLiteral(`must match regex pattern \`${pattern.value}\``))}`);
    c.print(`${i}}`);
  }
  const p = get("prefix");
  if (p) c.print(`${i}if (!${call(c, "pvBytesStartsWith", v, bytesLiteral(c, p))}) ${violation(c, place, "bytes.prefix", stringLiteral(`does not have prefix ${hex(p)}`))}`);
  const s = get("suffix");
  if (s) c.print(`${i}if (!${call(c, "pvBytesEndsWith", v, bytesLiteral(c, s))}) ${violation(c, place, "bytes.suffix", stringLiteral(`does not have suffix ${hex(s)}`))}`);
  const ct = get("contains");
  if (ct) c.print(`${i}if (${call(c, "pvBytesIndexOf", v, bytesLiteral(c, ct))} < 0) ${violation(c, place, "bytes.contains", stringLiteral(`does not contain ${hex(ct)}`))}`);
  const list = (key: string) => asList(r[key]).map((x) => scalarOf(x)).filter((x): x is RuleScalar => x?.kind === "string");
  const inList = list("in");
  if (inList.length) c.print(`${i}if (!(${inList.map((x) => call(c, "pvBytesEqual", v, bytesLiteral(c, x))).join(" || ")})) ${violation(c, place, "bytes.in", '"must be in list"')}`);
  const notIn = list("not_in");
  if (notIn.length) c.print(`${i}if (${notIn.map((x) => call(c, "pvBytesEqual", v, bytesLiteral(c, x))).join(" || ")}) ${violation(c, place, "bytes.not_in", '"must not be in list"')}`);
  const sizes: [string, string, string][] = [["ip", `${v}.length === 4 || ${v}.length === 16`, "must be a valid IP address"], ["ipv4", `${v}.length === 4`, "must be a valid IPv4 address"], ["ipv6", `${v}.length === 16`, "must be a valid IPv6 address"], ["uuid", `${v}.length === 16`, "must be a valid UUID"]];
  for (const [key, ok, msg] of sizes) {
    if (!bool(r[key])) continue;
    c.print(`${i}if (${v}.length === 0) ${violation(c, place, `bytes.${key}_empty`, stringLiteral(`value is empty, which is not a valid ${key}`))}`);
    c.print(`${i}else if (!(${ok})) ${violation(c, place, `bytes.${key}`, stringLiteral(msg))}`);
  }
  c.print(`${at}}`);
}

// ---- enums --------------------------------------------------------------------------------------------------

function emitEnumRules(c: RulesCtx, e: EnumType, r: RuleTree, v: string, place: Place, at: string): void {
  // Known values are names, unknown ones of an open enum are numbers: a rule on numbers matches both forms.
  const is = (num: string) => [...e.values.filter((x) => String(x.number) === num).map((x) => `${v} === ${stringLiteral(x.name)}`), `${v} === ${num}`].join(" || ");
  const k = intRule(r["const"]);
  if (k !== undefined) c.print(`${at}if (!(${is(k)})) ${violation(c, place, "enum.const", stringLiteral(`must equal ${k}`))}`);
  if (bool(r["defined_only"])) {
    const known = [...new Set(e.values.map((x) => x.number))];
    c.print(`${at}if (typeof ${v} === "number" && !(${known.map((n) => `${v} === ${n}`).join(" || ") || "false"})) ${violation(c, place, "enum.defined_only", '"value must be one of the defined enum values"')}`);
  }
  const nums = (key: string) => asList(r[key]).map((x) => intText(scalarOf(x))).filter((x): x is string => x !== undefined);
  const inList = nums("in");
  if (inList.length) c.print(`${at}if (!(${inList.map(is).join(" || ")})) ${violation(c, place, "enum.in", stringLiteral(`must be in list [${inList.join(", ")}]`))}`);
  const notIn = nums("not_in");
  if (notIn.length) c.print(`${at}if (${notIn.map(is).join(" || ")}) ${violation(c, place, "enum.not_in", stringLiteral(`must not be in list [${notIn.join(", ")}]`))}`);
}

// ---- messages: well-known types -----------------------------------------------------------------------------

const WRAPPERS: Record<string, ScalarKind> = {
  "proto:.google.protobuf.DoubleValue": "double",
  "proto:.google.protobuf.FloatValue": "float",
  "proto:.google.protobuf.Int64Value": "int64",
  "proto:.google.protobuf.UInt64Value": "uint64",
  "proto:.google.protobuf.Int32Value": "int32",
  "proto:.google.protobuf.UInt32Value": "uint32",
  "proto:.google.protobuf.BoolValue": "boolean",
  "proto:.google.protobuf.StringValue": "string",
  "proto:.google.protobuf.BytesValue": "bytes",
};

function prop(c: RulesCtx, type: RecordType, field: string): string | undefined {
  return c.plan(type)?.fields.find((f) => f.field.name === field)?.prop;
}

function emitMessageValueRules(c: RulesCtx, type: RecordType, tree: RuleTree, v: string, place: Place, at: string): void {
  const wrapped = WRAPPERS[type.id];
  if (wrapped) {
    const kind = PROTO_KIND[wrapped] ?? wrapped;
    const r = asTree(tree[kind]);
    const valueProp = prop(c, type, "value");
    if (!r || !valueProp) return;
    c.print(`${at}if (typeof ${v} === "object" && ${v} !== null) {`);
    c.print(`${at}  const w: any = ${member(v, valueProp)};`);
    emitScalarRules(c, wrapped, kind, r, "w", place, `${at}  `);
    c.print(`${at}}`);
    return;
  }
  if (type.id === "proto:.google.protobuf.Duration" || type.id === "proto:.google.protobuf.Timestamp") {
    const kind = type.id.endsWith("Duration") ? "duration" : "timestamp";
    const r = asTree(tree[kind]);
    const secs = prop(c, type, "seconds");
    const nanos = prop(c, type, "nanos");
    if (!r || !secs || !nanos) return;
    if (kind === "timestamp" && c.dates === "Date") {
      // A Timestamp held as a Date: its milliseconds as nanoseconds.
      c.print(`${at}if (${v} instanceof Date && !Number.isNaN(${v}.getTime())) {`);
      c.print(`${at}  const t = BigInt(${v}.getTime()) * 1000000n;`);
    } else {
      c.print(`${at}if (typeof ${v} === "object" && ${v} !== null) {`);
      c.print(`${at}  const t = BigInt(${member(v, secs)} ?? 0) * 1000000000n + BigInt(${member(v, nanos)} ?? 0);`);
    }
    const i = `${at}  `;
    const lit = (s: RuleValue): string => {
      const t = asTree(s);
      const sec = intText(scalarOf(t?.["seconds"])) ?? "0";
      const ns = intText(scalarOf(t?.["nanos"])) ?? "0";
      return `${BigInt(sec) * 1000000000n + BigInt(ns)}n`;
    };
    const showT = (s: RuleValue) => lit(s).replace(/n$/, "ns");
    const k = r["const"];
    if (k !== undefined) c.print(`${i}if (t !== ${lit(k)}) ${violation(c, place, `${kind}.const`, stringLiteral(`must equal ${showT(k)}`))}`);
    emitDurationRange(c, kind, r, lit, showT, place, i);
    const inList = asList(r["in"]);
    if (inList.length) c.print(`${i}if (!(${inList.map((x) => `t === ${lit(x)}`).join(" || ")})) ${violation(c, place, `${kind}.in`, '"must be in list"')}`);
    const notIn = asList(r["not_in"]);
    if (notIn.length) c.print(`${i}if (${notIn.map((x) => `t === ${lit(x)}`).join(" || ")}) ${violation(c, place, `${kind}.not_in`, '"must not be in list"')}`);
    if (kind === "timestamp") {
      const now = "BigInt(Date.now()) * 1000000n";
      if (bool(r["lt_now"])) c.print(`${i}if (t > ${now}) ${violation(c, place, "timestamp.lt_now", '"must be less than now"')}`);
      if (bool(r["gt_now"])) c.print(`${i}if (t < ${now}) ${violation(c, place, "timestamp.gt_now", '"must be greater than now"')}`);
      const within = r["within"];
      if (within !== undefined) {
        c.print(`${i}{`);
        c.print(`${i}  const now = ${now};`);
        c.print(`${i}  if (t < now - ${lit(within)} || t > now + ${lit(within)}) ${violation(c, place, "timestamp.within", stringLiteral(`must be within ${showT(within)} of now`))}`);
        c.print(`${i}}`);
      }
    }
    c.print(`${at}}`);
    return;
  }
  if (type.id === "proto:.google.protobuf.FieldMask") {
    const r = asTree(tree["field_mask"]);
    const paths = prop(c, type, "paths");
    if (!r || !paths) return;
    c.print(`${at}if (typeof ${v} === "object" && ${v} !== null) {`);
    c.print(`${at}  const paths: string[] = ${member(v, paths)} ?? [];`);
    const k = asTree(r["const"]);
    if (k) {
      const want = stringsOf(k["paths"]);
      c.print(`${at}  if (!(paths.length === ${want.length}${want.map((w, i) => ` && paths[${i}] === ${stringLiteral(w)}`).join("")})) ${violation(c, place, "field_mask.const", stringLiteral(`must equal paths [${want.join(", ")}]`))}`);
    }
    const covered = (list: string[]) => `(p: string) => ${list.map((f) => `p === ${stringLiteral(f)} || p.startsWith(${stringLiteral(f + ".")})`).join(" || ") || "false"}`;
    const inList = stringsOf(r["in"]);
    if (inList.length) c.print(`${at}  if (!paths.every(${covered(inList)})) ${violation(c, place, "field_mask.in", stringLiteral(`must only contain paths in [${inList.join(", ")}]`))}`);
    const notIn = stringsOf(r["not_in"]);
    if (notIn.length) c.print(`${at}  if (paths.some(${covered(notIn)})) ${violation(c, place, "field_mask.not_in", stringLiteral(`must not contain any paths in [${notIn.join(", ")}]`))}`);
    c.print(`${at}}`);
    return;
  }
  if (type.id === "proto:.google.protobuf.Any") {
    const r = asTree(tree["any"]);
    const url = prop(c, type, "type_url");
    if (!r || !url) return;
    c.print(`${at}if (typeof ${v} === "object" && ${v} !== null) {`);
    c.print(`${at}  const url = ${member(v, url)};`);
    const inList = stringsOf(r["in"]);
    if (inList.length) c.print(`${at}  if (!(${inList.map((u) => `url === ${stringLiteral(u)}`).join(" || ")})) ${violation(c, place, "any.in", '"type URL must be in the allow list"')}`);
    const notIn = stringsOf(r["not_in"]);
    if (notIn.length) c.print(`${at}  if (${notIn.map((u) => `url === ${stringLiteral(u)}`).join(" || ")}) ${violation(c, place, "any.not_in", '"type URL must not be in the block list"')}`);
    c.print(`${at}}`);
    return;
  }
}

/** The string members of a rule value that is a list (`in`, `not_in`, a FieldMask's `paths`); other members are ignored. */
function stringsOf(v: RuleValue | undefined): string[] {
  return asList(v).map((x) => scalarOf(x)).filter((x): x is Extract<RuleScalar, { kind: "string" }> => x?.kind === "string").map((x) => x.value);
}

function emitDurationRange(c: RulesCtx, kind: string, r: RuleTree, lit: (s: RuleValue) => string, showT: (s: RuleValue) => string, place: Place, i: string): void {
  const asScalar = (v: RuleValue | undefined): RuleScalar | undefined => (v === undefined ? undefined : { kind: "number", text: lit(v).replace(/n$/, "") });
  const shown: Record<string, string> = {};
  const ranged: Record<string, RuleValue> = {};
  for (const key of ["lt", "lte", "gt", "gte"]) {
    const v = r[key];
    if (v !== undefined) {
      ranged[key] = asScalar(v)!;
      shown[key] = showT(v);
    }
  }
  emitRange(c, kind, ranged, "t", (s) => `${(s as { text: string }).text}n`, "", place, i);
}

// ---- oneofs and message-level rules -------------------------------------------------------------------------

/** `(buf.validate.oneof).required` / protoc-gen-validate's `(validate.required)` on a oneof. */
export function oneofRequired(options: Parameters<typeof mergeRules>[0]): boolean {
  const pv = mergeRules(options, "buf.validate.oneof");
  if (pv && bool(pv.tree["required"])) return true;
  const pgv = (options ?? []).find((o) => o.extension === "validate.required");
  return pgv !== undefined && pgv.value.kind === "ident" && pgv.value.text === "true";
}

/** `(buf.validate.message).oneof` rules: lists of field names at most one (or exactly one) of which is set. */
export function messageOneofRules(m: MessagePlan): { fields: FieldPlan[]; required: boolean }[] {
  const r = mergeRules(m.record.protoRules, "buf.validate.message");
  if (!r) return [];
  return asList(r.tree["oneof"]).map((o) => {
    const t = asTree(o) ?? {};
    const names = asList(t["fields"]).map((x) => scalarOf(x)).map((x) => (x?.kind === "string" ? x.value : ""));
    const fields = names.map((n) => {
      const f = m.fields.find((p) => p.field.name === n && p.extension === undefined);
      if (!f) throw new SpecError(r.at.file, r.at.line, r.at.column, `field "${n}" of a (buf.validate.message).oneof rule is not a field of ${m.record.name}`);
      return f;
    });
    if (fields.length === 0) throw new SpecError(r.at.file, r.at.line, r.at.column, `a (buf.validate.message).oneof rule needs at least one field`);
    return { fields, required: bool(t["required"]) };
  });
}


/** The "is set" test of a field for message oneof rules and `required` (m is the message variable). */
export function fieldSetTest(c: RulesCtx, p: FieldPlan, mVar: string): string {
  if (p.oneof !== undefined) return `${member(mVar, p.oneof)}?.case === ${stringLiteral(p.prop)}`;
  const v = member(mVar, p.prop);
  return setTest(c, p, v, "");
}

export { violation as ruleViolation };
export type { Place as RulePlace };
