import { UsageError } from "../errors.js";
import type { ElementDecl, IrDocument, NamedType, TypeId } from "../ir/model.js";
import type { Names } from "../naming/assign-names.js";

/**
 * What `--type` names, resolved against a spec's IR. The generated functions are found by the names the naming pass
 * gives them (`names.derived(id, "decode")`, ...; an element's `decode<E>Element` by its stem), so convert never
 * needs its own reflective codec.
 */
export type ConvertTarget =
  | { readonly kind: "type"; readonly display: string; readonly id: TypeId; readonly tsName: string }
  | {
      readonly kind: "element";
      readonly display: string;
      /** xml.ts's codec functions of the element, as the naming pass named them. */
      readonly encode: string;
      readonly decode: string;
      /** The element's named type, for its validator; undefined for a builtin-typed element. */
      readonly typeId: TypeId | undefined;
    };

/**
 * Accepts the TypeScript name or the spec's own name: a proto full name (`contentApi.Response`, with or without the
 * leading dot) or its name inside the package (`Response`, `Outer.Inner`); an XSD element as `{ns}local` or its
 * local name, or the TS name of its type when exactly one element has it; an OpenAPI schema name.
 */
export function resolveConvertTarget(doc: IrDocument, names: Names, query: string): ConvertTarget {
  return doc.format === "wsdl" || doc.format === "xsd" ? resolveElement(doc, names, query) : resolveType(doc, names, query);
}

function resolveType(doc: IrDocument, names: Names, query: string): ConvertTarget {
  // Only records and unions have codecs of their own in every format; enums and aliases travel inside them.
  const candidates = doc.types.filter((t) => (doc.format === "proto" ? t.kind === "record" && !t.protoGroup : true));
  const full = query.replace(/^\./, "");
  const found = firstUnique(query, [
    candidates.filter((t) => t.id === `proto:.${full}`),
    // One tier, so that a TS name like "Same" (a.Same) next to b.Same (TS "Same_2") is ambiguous, not a guess.
    candidates.filter((t) => names.type(t.id) === query || t.name === query || inPackageName(t) === full),
  ], (t) => specName(t));
  if (!found) throw notFound(query, candidates.map(specName));
  return { kind: "type", display: specName(found), id: found.id, tsName: names.type(found.id) };
}

function resolveElement(doc: IrDocument, names: Names, query: string): ConvertTarget {
  const stem = (el: ElementDecl) => names.element(el.id).stem;
  const typeName = (el: ElementDecl): string | undefined => (el.type.kind === "ref" ? names.type(el.type.id) : undefined);
  const found = firstUnique(query, [
    doc.elements.filter((el) => `{${el.name.ns}}${el.name.local}` === query),
    doc.elements.filter((el) => el.name.local === query),
    doc.elements.filter((el) => stem(el) === query || typeName(el) === query),
  ], elementKey);
  if (!found) throw notFound(query, doc.elements.map(elementKey));
  return { kind: "element", display: elementKey(found), encode: names.element(found.id).encode, decode: names.element(found.id).decode, typeId: found.type.kind === "ref" ? found.type.id : undefined };
}

/** The first rule that matches anything decides; more than one match under that rule is an error, not a guess. */
function firstUnique<T>(query: string, tiers: readonly (readonly T[])[], show: (t: T) => string): T | undefined {
  for (const tier of tiers) {
    if (tier.length === 1) return tier[0];
    if (tier.length > 1) {
      throw new UsageError(`--type ${query} is ambiguous: ${tier.map(show).join(", ")}; use the full name`);
    }
  }
  return undefined;
}

function notFound(query: string, known: readonly string[]): UsageError {
  const lower = query.toLowerCase().replace(/^\./, "");
  const near = known.filter((k) => k.toLowerCase().includes(lower) || lower.includes(k.toLowerCase().split(/[.}]/).pop() ?? ""));
  const show = (near.length > 0 ? near : known).slice(0, 8);
  const more = (near.length > 0 ? near : known).length > show.length ? ", ..." : "";
  return new UsageError(`--type ${query}: no such type in the spec${show.length ? ` (${near.length ? "did you mean" : "known"}: ${show.join(", ")}${more})` : ""}`);
}

function elementKey(el: ElementDecl): string {
  return `{${el.name.ns}}${el.name.local}`;
}

/** The name users know from the spec: proto full name, otherwise the source name. */
function specName(t: NamedType): string {
  return t.id.startsWith("proto:.") ? t.id.slice("proto:.".length) : t.name;
}

function inPackageName(t: NamedType): string | undefined {
  if (!t.id.startsWith("proto:.")) return undefined;
  const full = t.id.slice("proto:.".length);
  return t.scope && full.startsWith(`${t.scope}.`) ? full.slice(t.scope.length + 1) : full;
}
