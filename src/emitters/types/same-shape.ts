import type { IrDocument, NamedType, TypeId } from "../../ir/model.js";
import type { TypesContext } from "./context.js";

/**
 * Named types with the same shape: the same body, field for field, value for value, once the types they refer to
 * are themselves taken up to the same shape. Large documents repeat shapes many times over (Stripe declares its
 * `maxLength: 5000` string 727 times inline, the enum `[""]` 446 times, the empty object 218 times), and a
 * validator or codec written per declaration would repeat the same code as many times. Instead the first type of
 * each shape (in document order) gets the functions, and every later one exports its names as aliases of them.
 *
 * What counts is what the JSON checks and codecs read: kinds, property names and keys, occurrence, nullability,
 * facets, values, tags and references. Descriptions, deprecation and origins do not (they only reach doc comments),
 * and neither do the types' own names and ids.
 *
 * References are compared by the shape they point to, found as a fixpoint: start with every type on its own, then
 * repeatedly group types whose bodies read the same once each reference is replaced by its group's first type,
 * until the grouping stops changing. Groups only ever merge, so this ends after at most as many rounds as there are
 * types (a handful in practice), and two types end in one group only when their bodies match level by level, also
 * through recursive references: they accept exactly the same values.
 */
export function sameShapeTypes(types: TypesContext, options: { readonly docs?: boolean } = {}): ReadonlyMap<TypeId, TypeId> {
  // validate.ts and json.ts both ask, for the same document: the grouping depends on the IR alone.
  const mode = options.docs ? "docs" : "checks";
  const cache = computed.get(types.doc) ?? new Map<string, ReadonlyMap<TypeId, TypeId>>();
  computed.set(types.doc, cache);
  let groups = cache.get(mode);
  if (!groups) {
    // With `docs`, descriptions and deprecation count too: types.ts shows them, so only types that would print the
    // same declaration (but for its name and origin) may be declared as an alias of another.
    groups = group(types.doc.types, options.docs ? DOC_ONLY : NOT_SHAPE);
    cache.set(mode, groups);
  }
  return groups;
}

const computed = new WeakMap<IrDocument, Map<string, ReadonlyMap<TypeId, TypeId>>>();

function group(all: readonly NamedType[], ignored: ReadonlySet<string>): ReadonlyMap<TypeId, TypeId> {
  let first = new Map<TypeId, TypeId>(all.map((t) => [t.id, t.id]));
  for (;;) {
    const byShape = new Map<string, TypeId>();
    const next = new Map<TypeId, TypeId>();
    for (const t of all) {
      const key = shapeKey(t, first, ignored);
      const known = byShape.get(key);
      if (known === undefined) byShape.set(key, t.id);
      next.set(t.id, known ?? t.id);
    }
    if (all.every((t) => next.get(t.id) === first.get(t.id))) break;
    first = next;
  }
  return new Map([...first].filter(([id, to]) => id !== to));
}

/** Keys of a named type that are not part of its shape (everywhere: descriptions and origins; on top: identity). */
const NOT_SHAPE: ReadonlySet<string> = new Set(["doc", "origin", "deprecated"]);
/** For declarations: only where a type or member was declared is left out. */
const DOC_ONLY: ReadonlySet<string> = new Set(["origin"]);
const IDENTITY = new Set(["id", "name", "scope", "anonymous"]);

/** The type's body as JSON text, with each reference replaced by the first type of its group. */
function shapeKey(t: NamedType, first: ReadonlyMap<TypeId, TypeId>, ignored: ReadonlySet<string>): string {
  const top: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(t)) if (!IDENTITY.has(k) && !ignored.has(k)) top[k] = v;
  // A record's base is a reference too (its fields are inherited), so it is mapped like any other.
  if (t.kind === "record" && t.base) top["base"] = { ...t.base, id: first.get(t.base.id) ?? t.base.id };
  return JSON.stringify(top, function (this: unknown, key: string, value: unknown) {
    if (ignored.has(key)) return undefined;
    if (key === "id" && isRef(this)) return first.get(value as TypeId) ?? value;
    return value;
  });
}

function isRef(holder: unknown): boolean {
  return typeof holder === "object" && holder !== null && (holder as { kind?: unknown }).kind === "ref";
}
