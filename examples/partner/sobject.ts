import type { SObject } from "../../generated/partner/index.js";
import type { FieldMeta } from "./schema.js";
import type { StoredRecord } from "./store.js";

/** The namespace of a record's field elements (ens). */
export const SOBJECT_NS = "urn:sobject.api.example";

/**
 * A stored record as the wire's sObject: `type`, `Id` (nil unless selected), then the selected fields as open
 * content, in the order asked for, values in their lexical form (nil for null).
 */
export function toSObject(record: StoredRecord, fields: readonly FieldMeta[]): SObject {
  const withId = fields.some((f) => f.name === "Id");
  return {
    type: record.type,
    Id: withId ? record.id : null,
    $any: fields.filter((f) => f.name !== "Id").map((f) => ({ ns: SOBJECT_NS, name: f.name, value: record.fields.get(f.name) ?? null })),
  };
}

/** The field elements of an incoming sObject, by name as written, in document order. */
export function fieldsOf(so: SObject): { readonly name: string; readonly value: unknown }[] {
  return (so.$any ?? []).map((e) => ({ name: e.name, value: e.value }));
}
