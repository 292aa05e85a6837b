import type { ExtensionDecl, Field, Group, RecordType } from "../../ir/model.js";
import { fieldPropertyName, oneofPropertyName } from "../../naming/property-name.js";
import type { TypesContext } from "../types/context.js";
import { isList, recordProperties, keyClaimer } from "../types/properties.js";

/**
 * How a proto message's fields sit in its TypeScript type. Property names are assigned exactly as the types emitter
 * assigns them (same order, same clash suffixes), because generated code reads and writes those properties.
 */
export type Presence =
  /** proto3 scalar or enum without `optional`: always present in TypeScript, omitted from JSON when default. */
  | "implicit"
  /** proto2 `optional`, proto3 `optional`, message fields: written when set. */
  | "explicit"
  /** proto2 `required`: must be in the JSON. */
  | "required"
  | "repeated"
  | "map";

export interface JsonField {
  readonly kind: "field";
  readonly field: Field;
  readonly property: string;
  readonly presence: Presence;
}

export interface JsonOneof {
  readonly kind: "oneof";
  readonly group: Group;
  readonly property: string;
  /** Members with the `case` string the TypeScript union uses for each. */
  readonly members: readonly { readonly field: Field; readonly caseName: string }[];
}

export interface MessageLayout {
  readonly record: RecordType;
  readonly members: readonly (JsonField | JsonOneof)[];
  /** The `$extensions` property and the extensions it holds, when this schema extends the message. */
  readonly extensions?: { readonly property: string; readonly list: readonly ExtensionDecl[] };
}

export function presenceOf(field: Field): Presence {
  if (field.type.kind === "map") return "map";
  if (isList(field.occurs)) return "repeated";
  const label = field.wire.proto?.label;
  if (label === "required") return "required";
  if (label === "implicit" && field.occurs.min >= 1) return "implicit";
  return "explicit";
}

export function messageLayout(record: RecordType, ctx: TypesContext): MessageLayout {
  const claim = keyClaimer();
  const members: (JsonField | JsonOneof)[] = [];
  for (const p of recordProperties(record, ctx)) {
    if (p.kind === "field") {
      members.push({ kind: "field", field: p.field, property: claim(fieldPropertyName(p.field)), presence: presenceOf(p.field) });
    } else if (p.kind === "oneof") {
      const fields = p.group.members.filter((m): m is Field => m.kind === "field");
      members.push({
        kind: "oneof",
        group: p.group,
        property: claim(oneofPropertyName(p.group)),
        members: fields.map((field) => ({ field, caseName: fieldPropertyName(field) })),
      });
    }
  }
  const list = ctx.doc.extensions.filter((e) => e.extendee === record.id);
  return list.length > 0 ? { record, members, extensions: { property: claim("$extensions"), list } } : { record, members };
}

/** The proto field name and its JSON name: both are accepted on input, the JSON name is written by default. */
export function jsonNames(field: Field): { readonly json: string; readonly proto: string } {
  return { json: field.wire.proto?.jsonName ?? field.name, proto: field.name };
}
