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
 * References are compared by the shape they point to, by partition refinement (as in minimizing an automaton):
 * start with all types in one class, then split classes by the types' bodies read with each reference replaced by
 * its target's class, until no class splits. Classes only ever split, so this ends after at most as many rounds as
 * there are types (a handful in practice). Two types end in one class when their bodies match level by level, also
 * through recursive references (`Node {next?: Node}` and `Chain {next?: Chain}`): they accept exactly the same
 * values, and JSON text encodes the same way.
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
  // Partition refinement: every type starts in one class; each round splits a class by the bodies of its types,
  // read with each reference replaced by the class of the type it names, until no class splits any more.
  let classOf = new Map<TypeId, number>(all.map((t) => [t.id, 0]));
  let classes = 1;
  for (;;) {
    const numbers = new Map<string, number>();
    const next = new Map<TypeId, number>();
    for (const t of all) {
      const key = `${classOf.get(t.id)}:${shapeKey(t, classOf, ignored)}`;
      let n = numbers.get(key);
      if (n === undefined) numbers.set(key, (n = numbers.size));
      next.set(t.id, n);
    }
    classOf = next;
    if (numbers.size === classes) break;
    classes = numbers.size;
  }
  const first = new Map<number, TypeId>();
  const out = new Map<TypeId, TypeId>();
  for (const t of all) {
    const n = classOf.get(t.id)!;
    const earlier = first.get(n);
    if (earlier === undefined) first.set(n, t.id);
    else out.set(t.id, earlier);
  }
  return out;
}

/** Keys of a named type that are not part of its shape (everywhere: descriptions and origins; on top: identity). */
const NOT_SHAPE: ReadonlySet<string> = new Set(["doc", "origin", "deprecated"]);
/** For declarations: only where a type or member was declared is left out. */
const DOC_ONLY: ReadonlySet<string> = new Set(["origin"]);
const IDENTITY = new Set(["id", "name", "scope", "anonymous"]);

/** The type's body as JSON text, with each reference replaced by the class of the type it names. */
function shapeKey(t: NamedType, classOf: ReadonlyMap<TypeId, number>, ignored: ReadonlySet<string>): string {
  const top: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(t)) if (!IDENTITY.has(k) && !ignored.has(k)) top[k] = v;
  // A record's base is a reference too (its fields are inherited), so it is mapped like any other.
  if (t.kind === "record" && t.base) top["base"] = { ...t.base, id: classOf.get(t.base.id) ?? t.base.id };
  return JSON.stringify(top, function (this: unknown, key: string, value: unknown) {
    if (ignored.has(key)) return undefined;
    if (key === "id" && isRef(this)) return classOf.get(value as TypeId) ?? value;
    return value;
  });
}

function isRef(holder: unknown): boolean {
  return typeof holder === "object" && holder !== null && (holder as { kind?: unknown }).kind === "ref";
}
