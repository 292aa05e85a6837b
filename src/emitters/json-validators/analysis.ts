import type { NamedType, TypeExpr, TypeId } from "../../ir/model.js";
import type { JsonKind } from "../../runtime/json/values.js";
import { lookupType, type TypesContext } from "../types/context.js";
import { recordProperties } from "../types/properties.js";

/** Static facts about types that the JSON emitters share: which JSON kinds a type accepts, which types recurse. */

const STRING_SCALARS = new Set(["string", "date", "dateTime", "time", "duration", "anyURI", "QName", "decimal", "bytes"]);

/** The JSON kinds a value of this type can have (after the opt-in conversions: a Date counts as a string). */
export function jsonKinds(t: TypeExpr, ctx: TypesContext, seen: Set<TypeId> = new Set()): Set<JsonKind> {
  switch (t.kind) {
    case "scalar":
      if (t.scalar === "any") return new Set(["null", "boolean", "number", "string", "array", "object"]);
      if (t.scalar === "boolean") return new Set(["boolean"]);
      if (STRING_SCALARS.has(t.scalar)) return new Set(["string"]);
      if (ctx.options.int64 === "string" && /64$/.test(t.scalar)) return new Set(["string"]);
      return new Set(["number"]);
    case "literal":
      return new Set([literalKind(t.value)]);
    case "list":
      return new Set(["array"]);
    case "map":
      return new Set(["object"]);
    case "union":
      return new Set(t.of.flatMap((m) => [...jsonKinds(m, ctx, seen)]));
    case "ref": {
      if (seen.has(t.id)) return new Set();
      seen.add(t.id);
      const named = lookupType(ctx, t.id);
      switch (named.kind) {
        case "record":
          return new Set(["object"]);
        case "enum":
          return new Set(named.values.map((v) => literalKind(v.value)));
        case "alias":
          return jsonKinds(named.target, ctx, seen);
        case "union":
          return new Set(named.variants.flatMap((v) => [...jsonKinds(v.type, ctx, seen)]));
      }
    }
  }
}

function literalKind(value: string | number | boolean | null): JsonKind {
  return value === null ? "null" : typeof value === "string" ? "string" : typeof value === "number" ? "number" : "boolean";
}

/** The named types a type expression refers to directly. */
export function refsOf(t: TypeExpr): TypeId[] {
  switch (t.kind) {
    case "ref":
      return [t.id];
    case "list":
      return refsOf(t.of);
    case "map":
      return [...refsOf(t.key), ...refsOf(t.value)];
    case "union":
      return t.of.flatMap(refsOf);
    default:
      return [];
  }
}

/**
 * The named types a named type's body refers to directly (record fields include inherited ones), and those its
 * checks test (allOf parts, `not`, the branches an unevaluated check tries): validation recurses through both.
 */
export function namedRefs(t: NamedType, ctx: TypesContext): TypeId[] {
  return [...bodyRefs(t, ctx), ...(t.checks ? checkRefs(t.checks, []) : [])];
}

/** Every `{kind: "ref", id}` inside checks (their type expressions sit at several depths). */
function checkRefs(node: unknown, out: TypeId[]): TypeId[] {
  if (Array.isArray(node)) {
    for (const x of node) checkRefs(x, out);
  } else if (node !== null && typeof node === "object") {
    const o = node as Record<string, unknown>;
    if (o["kind"] === "ref" && typeof o["id"] === "string") out.push(o["id"]);
    else for (const v of Object.values(o)) checkRefs(v, out);
  }
  return out;
}

/** The named types a named type's body (not its checks) refers to directly. */
export function bodyRefs(t: NamedType, ctx: TypesContext): TypeId[] {
  switch (t.kind) {
    case "record": {
      const fields = recordProperties(t, ctx).flatMap((p) => (p.kind === "field" ? refsOf(p.field.type) : []));
      const extra = t.additionalProperties ? refsOf(t.additionalProperties) : [];
      return [...fields, ...extra];
    }
    case "alias":
      return refsOf(t.target);
    case "union":
      return t.variants.flatMap((v) => refsOf(v.type));
    case "enum":
      return [];
  }
}

/**
 * Types whose validation can recurse without bound: those on a reference cycle and those that reach one. Their
 * public entry points catch stack exhaustion (a hostile, deeply nested value) and report it instead of crashing.
 */
export function typesReachingCycles(ctx: TypesContext): Set<TypeId> {
  const edges = new Map(ctx.doc.types.map((t) => [t.id, namedRefs(t, ctx)]));
  const reaches = (from: TypeId, target: TypeId): boolean => {
    const stack = [...(edges.get(from) ?? [])];
    const seen = new Set<TypeId>();
    while (stack.length > 0) {
      const id = stack.pop()!;
      if (id === target) return true;
      if (seen.has(id)) continue;
      seen.add(id);
      stack.push(...(edges.get(id) ?? []));
    }
    return false;
  };
  const cyclic = ctx.doc.types.filter((t) => reaches(t.id, t.id)).map((t) => t.id);
  // Everything that reaches a cyclic type: walk the reversed edges from all of them at once.
  const reversed = new Map<TypeId, TypeId[]>();
  for (const [from, tos] of edges) for (const to of tos) reversed.set(to, [...(reversed.get(to) ?? []), from]);
  const out = new Set<TypeId>();
  const stack = [...cyclic];
  while (stack.length > 0) {
    const id = stack.pop()!;
    if (out.has(id)) continue;
    out.add(id);
    stack.push(...(reversed.get(id) ?? []));
  }
  return out;
}
