import type { HttpParameter, NamedType, RecordType, TypeExpr, TypeId } from "./model.js";

/**
 * What an HTTP parameter's value can be, in the terms OpenAPI's serialization styles use: a primitive, an array or
 * an object (`shapes`, several for a union such as Stripe's `integer | {gt, lt}`), and whether any array item or
 * object property is itself an array or object (`nested`: RFC 6570 styles cannot write that; only the bracket
 * convention of deepObject can). The parser checks styles against it; the REST emitters pick the code to print.
 */
export type ParameterShape = "primitive" | "array" | "object";

export interface ParameterShapeInfo {
  readonly shapes: ReadonlySet<ParameterShape>;
  readonly nested: boolean;
  /** True when the value is unconstrained (`any`): nothing can be checked ahead of time. */
  readonly unknown: boolean;
}

/** `lookup` answers undefined (or null, for a type still being built) when the type is not known yet. */
export type NamedLookup = (id: TypeId) => NamedType | null | undefined;

export function parameterShape(t: TypeExpr, lookup: NamedLookup): ParameterShapeInfo {
  const shapes = new Set<ParameterShape>();
  const state = { nested: false, unknown: false };
  collect(t, lookup, shapes, state, new Set(), true);
  return { shapes, nested: state.nested, unknown: state.unknown };
}

function collect(
  t: TypeExpr,
  lookup: NamedLookup,
  shapes: Set<ParameterShape>,
  state: { nested: boolean; unknown: boolean },
  seen: Set<TypeId>,
  top: boolean,
): void {
  switch (t.kind) {
    case "scalar":
      if (t.scalar === "any") state.unknown = true;
      else shapes.add("primitive");
      return;
    case "literal":
      shapes.add("primitive");
      return;
    case "list":
      shapes.add("array");
      if (top) markNested(t.of, lookup, state, seen);
      return;
    case "map":
      shapes.add("object");
      if (top) markNested(t.value, lookup, state, seen);
      return;
    case "union":
      for (const m of t.of) collect(m, lookup, shapes, state, seen, top);
      return;
    case "ref": {
      const named = lookup(t.id);
      if (named && seen.has(t.id) && named.kind === "record") {
        // A record met again inside itself: an object (its inside was looked at the first time).
        shapes.add("object");
        return;
      }
      if (!named || seen.has(t.id)) {
        state.unknown = true;
        return;
      }
      seen.add(t.id);
      try {
        if (named.kind === "enum") shapes.add("primitive");
        else if (named.kind === "alias") collect(named.target, lookup, shapes, state, seen, top);
        else if (named.kind === "union") for (const v of named.variants) collect(v.type, lookup, shapes, state, seen, top);
        else {
          shapes.add("object");
          if (top) markRecordNested(named, lookup, state, seen);
        }
      } finally {
        seen.delete(t.id);
      }
    }
  }
}

/** A record's properties (its base's included): nested when one can be an array or object itself. */
function markRecordNested(record: RecordType, lookup: NamedLookup, state: { nested: boolean; unknown: boolean }, seen: Set<TypeId>): void {
  for (const m of record.members) {
    if (m.kind !== "field") state.nested = true;
    else if (m.occurs.max === "unbounded" || m.occurs.max > 1) state.nested = true;
    else markNested(m.type, lookup, state, seen);
  }
  if (record.additionalProperties) markNested(record.additionalProperties, lookup, state, seen);
  const base = record.base && !seen.has(record.base.id) ? lookup(record.base.id) : undefined;
  if (base?.kind === "record" && record.base) {
    seen.add(record.base.id);
    markRecordNested(base, lookup, state, seen);
    seen.delete(record.base.id);
  }
}

/** An item or property of a parameter: nested when it can be an array or object itself. */
function markNested(t: TypeExpr, lookup: NamedLookup, state: { nested: boolean; unknown: boolean }, seen: Set<TypeId>): void {
  const inner = new Set<ParameterShape>();
  const innerState = { nested: false, unknown: false };
  collect(t, lookup, inner, innerState, seen, false);
  if (inner.has("array") || inner.has("object")) state.nested = true;
}

/** Styles per location; the first is the default. `tabDelimited` is Swagger 2.0's `collectionFormat: tsv`. */
export const PARAMETER_STYLES_AT: { readonly [where in HttpParameter["in"]]: readonly string[] } = {
  path: ["simple", "label", "matrix"],
  query: ["form", "spaceDelimited", "pipeDelimited", "tabDelimited", "deepObject"],
  header: ["simple"],
  cookie: ["form"],
};

/**
 * The style and explode a parameter is written and read with: as declared, else OpenAPI's defaults (query and
 * cookie: form; path and header: simple; explode true for form, and for deepObject, whose only defined form is
 * the exploded one).
 */
export function parameterSerialization(p: Pick<HttpParameter, "in" | "style" | "explode">): { readonly style: string; readonly explode: boolean } {
  const style = p.style ?? PARAMETER_STYLES_AT[p.in][0]!;
  return { style, explode: p.explode ?? (style === "form" || style === "deepObject") };
}
