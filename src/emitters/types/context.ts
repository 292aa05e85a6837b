import type { ElementDecl, ElementId, IrDocument, NamedType, TypeId } from "../../ir/model.js";
import { collectSubtypes } from "../../ir/passes/subtypes.js";
import type { Names } from "../../naming/assign-names.js";
import type { EmitModules } from "../artifact.js";

/** How 64-bit integers appear in TypeScript: `bigint` (default for proto and XSD), `string`, or `number`. */
export type Int64Mode = "bigint" | "string" | "number";

/** How JSON date-time values appear in TypeScript: the RFC 3339 `string` (default) or a `Date`. */
export type DatesMode = "string" | "Date";

export interface TypesOptions {
  readonly int64: Int64Mode;
  readonly dates: DatesMode;
}

/** Everything the type printers need, computed once per document. */
export interface TypesContext {
  readonly doc: IrDocument;
  readonly names: Names;
  readonly options: TypesOptions;
  readonly types: ReadonlyMap<TypeId, NamedType>;
  readonly elements: ReadonlyMap<ElementId, ElementDecl>;
  /** Record -> records derived from it; only XML documents use xsi:type families. */
  readonly subtypes: ReadonlyMap<TypeId, readonly TypeId[]>;
  /** Set when the output is one module per input file: where other files' types and functions are imported from. */
  readonly modules?: EmitModules;
}

export function typesContext(doc: IrDocument, names: Names, options: Partial<TypesOptions> = {}): TypesContext {
  const xml = doc.format === "wsdl" || doc.format === "xsd";
  return {
    doc,
    names,
    options: { int64: options.int64 ?? (doc.format === "openapi" ? "number" : "bigint"), dates: options.dates ?? "string" },
    types: new Map(doc.types.map((t) => [t.id, t])),
    elements: new Map(doc.elements.map((e) => [e.id, e])),
    subtypes: xml ? collectSubtypes(doc) : new Map(),
  };
}

export function lookupType(ctx: TypesContext, id: TypeId): NamedType {
  const t = ctx.types.get(id);
  if (!t) throw new Error(`internal: unresolved type reference ${id}`);
  return t;
}

/** The IR id of google.protobuf.Timestamp. */
export const TIMESTAMP_ID = "proto:.google.protobuf.Timestamp";

/** Whether a reference to type `id` is held as a JavaScript Date: google.protobuf.Timestamp under `dates: "Date"`. */
export function isDateRef(id: string, dates: DatesMode | undefined): boolean {
  return dates === "Date" && id === TIMESTAMP_ID;
}
