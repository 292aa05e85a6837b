/**
 * Test helper: fast-check arbitraries for proto messages, built from the IR (the same plans the codec emitter uses),
 * producing values in exactly the TypeScript shapes the types emitter declares. Every value they produce is valid:
 * it must survive encode -> decode unchanged.
 */
import fc from "fast-check";
import type { ScalarKind, TypeId } from "../../../src/ir/model.js";
import type { Int64Mode } from "../../../src/emitters/types/context.js";
import type { FieldPlan, MessagePlan, ProtoModel, ValueShape } from "../../../src/emitters/protobuf/plan.js";

type Value = unknown;

/** Message fields below this depth are left out unless required (recursive schemas stay finite). */
const MAX_DEPTH = 3;

export function messageArbitrary(model: ProtoModel, id: TypeId, int64: Int64Mode, depth = 0): fc.Arbitrary<Record<string, Value>> {
  const plan = model.messages.find((m) => m.record.id === id);
  if (!plan) throw new Error(`no message ${id}`);
  return fc.constant(null).chain(() => build(model, plan, int64, depth));
}

function build(model: ProtoModel, plan: MessagePlan, int64: Int64Mode, depth: number): fc.Arbitrary<Record<string, Value>> {
  const spec: Record<string, fc.Arbitrary<Value>> = {};
  const required: string[] = [];
  const deep = depth >= MAX_DEPTH;
  const oneofs = new Map<string, FieldPlan[]>();
  const extensions: Record<string, fc.Arbitrary<Value>> = {};
  for (const p of plan.fields) {
    const nested = p.value.kind === "message" || p.value.kind === "group";
    if (p.oneof !== undefined) {
      oneofs.set(p.oneof, [...(oneofs.get(p.oneof) ?? []), p]);
      continue;
    }
    if (deep && nested && p.presence !== "required") continue;
    const arb = fieldArbitrary(model, p, int64, depth);
    if (p.extension !== undefined) extensions[p.extension] = arb;
    else {
      spec[p.prop] = arb;
      if (p.presence === "required" || p.presence === "implicit") required.push(p.prop);
    }
  }
  for (const [prop, members] of oneofs) {
    const usable = deep ? members.filter((m) => m.value.kind !== "message" && m.value.kind !== "group") : members;
    if (usable.length === 0) continue;
    spec[prop] = fc.oneof(...usable.map((m) => valueArbitrary(model, m, m.value, int64, depth).map((value) => ({ case: m.prop, value }))));
  }
  if (plan.extensionsProp !== undefined && Object.keys(extensions).length > 0) {
    spec[plan.extensionsProp] = fc.record(extensions, { requiredKeys: [] }).filter((e) => Object.keys(e).length > 0);
  }
  return fc.record(spec, { requiredKeys: required }) as fc.Arbitrary<Record<string, Value>>;
}

function fieldArbitrary(model: ProtoModel, p: FieldPlan, int64: Int64Mode, depth: number): fc.Arbitrary<Value> {
  const one = valueArbitrary(model, p, p.value, int64, depth);
  if (p.mapKey !== undefined) {
    // Empty maps and lists are not written, so they decode as absent: generate non-empty ones.
    return fc.dictionary(mapKeyArbitrary(p.mapKey), one, { minKeys: 1, maxKeys: 3 });
  }
  if (p.repeated) return fc.array(one, { minLength: 1, maxLength: 3 });
  return one;
}

function mapKeyArbitrary(key: ScalarKind): fc.Arbitrary<string> {
  if (key === "string") return fc.string({ maxLength: 8 });
  if (key === "boolean") return fc.constantFrom("true", "false");
  const s = scalarArbitrary(key, "string") as fc.Arbitrary<string | number>;
  return s.map(String);
}

function valueArbitrary(model: ProtoModel, p: FieldPlan, v: ValueShape, int64: Int64Mode, depth: number): fc.Arbitrary<Value> {
  switch (v.kind) {
    case "scalar":
      return scalarArbitrary(v.scalar, int64);
    case "enum": {
      // One name per number: an alias decodes as the first name of its number.
      const seen = new Set<number>();
      const names = v.type.values.filter((x) => x.number !== undefined && !seen.has(x.number) && (seen.add(x.number), true)).map((x) => x.name);
      const known = fc.constantFrom(...names);
      if (v.type.closed !== false) return known;
      const unknown = fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }).filter((n) => !seen.has(n));
      return fc.oneof(known, unknown);
    }
    case "message":
    case "group":
      return messageArbitrary(model, v.type.id, int64, depth + 1);
  }
  throw new Error(`unreachable ${String(p.number)}`);
}

function scalarArbitrary(s: ScalarKind, int64: Int64Mode): fc.Arbitrary<Value> {
  const big = (min: bigint, max: bigint) => {
    const b = fc.bigInt({ min, max });
    return int64 === "bigint" ? b : int64 === "string" ? b.map(String) : fc.integer({ min: Number(min < -(2n ** 52n) ? -(2n ** 52n) : min), max: 2 ** 52 });
  };
  switch (s) {
    case "int32":
    case "sint32":
    case "sfixed32":
      return fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 });
    case "uint32":
    case "fixed32":
      return fc.integer({ min: 0, max: 2 ** 32 - 1 });
    case "int64":
    case "sint64":
    case "sfixed64":
      return big(-(2n ** 63n), 2n ** 63n - 1n);
    case "uint64":
    case "fixed64":
      return big(0n, 2n ** 64n - 1n);
    case "float":
      return fc.float();
    case "double":
      return fc.double();
    case "boolean":
      return fc.boolean();
    case "string":
      return fc.oneof(fc.string({ unit: "grapheme", maxLength: 12 }), fc.string({ minLength: 40, maxLength: 150 }));
    case "bytes":
      return fc.uint8Array({ maxLength: 16 });
    default:
      throw new Error(`not a proto scalar: ${s}`);
  }
}

/**
 * Whether a message has finite valid values: false when required message fields lead back to it (protobuf's own
 * test protos have such "corecursive" required fields, which only a partial message can hold).
 */
export function hasFiniteValues(model: ProtoModel, id: TypeId, visiting = new Set<TypeId>()): boolean {
  if (visiting.has(id)) return false;
  const plan = model.messages.find((m) => m.record.id === id);
  if (!plan) return true;
  visiting.add(id);
  const ok = plan.fields.every(
    (p) => p.presence !== "required" || (p.value.kind !== "message" && p.value.kind !== "group") || hasFiniteValues(model, p.value.type.id, visiting),
  );
  visiting.delete(id);
  return ok;
}
