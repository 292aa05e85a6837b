import { keyClaimer } from "../types/properties.js";
/**
 * A proto message seen the way a codec needs it: every field with its number, wire shape, presence and the
 * TypeScript property that holds it (matching the types emitter exactly, including its clash suffixes).
 */
import { isIdentifier, stringLiteral } from "../../codegen/escape.js";
import type { EnumType, ExtensionDecl, Field, IrDocument, NamedType, RecordType, ScalarKind, TypeExpr, TypeId } from "../../ir/model.js";
import type { Names } from "../../naming/assign-names.js";
import { fieldPropertyName, oneofPropertyName } from "../../naming/property-name.js";

export type ValueShape =
  | { readonly kind: "scalar"; readonly scalar: ScalarKind }
  | { readonly kind: "enum"; readonly type: EnumType }
  | { readonly kind: "message"; readonly type: RecordType }
  | { readonly kind: "group"; readonly type: RecordType };

export interface FieldPlan {
  readonly field: Field;
  readonly number: number;
  /** Property key on the message; for a oneof member, the case name. */
  readonly prop: string;
  /** Set for oneof members: the property holding `{ case, value }`. */
  readonly oneof?: string;
  /** Set for extensions: the full name, the key inside `$extensions`. */
  readonly extension?: string;
  readonly value: ValueShape;
  /** Set for map fields (then `value` is the map's value). */
  readonly mapKey?: ScalarKind;
  readonly repeated: boolean;
  readonly packed: boolean;
  /** implicit: proto3 scalar without `optional` (zero is not written, decoded output always has it). */
  readonly presence: "explicit" | "implicit" | "required" | "repeated";
  /** Whether decoding rejects invalid UTF-8 in this field's strings (keys and values of a map alike). */
  readonly strictUtf8: boolean;
}

export interface MessagePlan {
  readonly record: RecordType;
  readonly name: string;
  /** Fields and extensions, sorted by number (the order protoc writes them in). */
  readonly fields: readonly FieldPlan[];
  readonly unknownProp: string;
  readonly extensionsProp?: string;
  /** The file's syntax guess (see proto3FilesOf); each field's own `strictUtf8` is what decoding uses. */
  readonly strictUtf8: boolean;
  readonly proto3: boolean;
}

export interface ProtoModel {
  readonly doc: IrDocument;
  readonly names: Names;
  readonly types: ReadonlyMap<TypeId, NamedType>;
  readonly messages: readonly MessagePlan[];
  /** Records used as a group somewhere: their readers stop at an end-group tag. */
  readonly groupTypes: ReadonlySet<TypeId>;
  readonly enums: readonly EnumType[];
}

export function protoModel(doc: IrDocument, names: Names): ProtoModel {
  const types = new Map(doc.types.map((t) => [t.id, t]));
  const proto3Files = proto3FilesOf(doc);
  const groupTypes = new Set<TypeId>();
  const messages: MessagePlan[] = [];
  for (const t of doc.types) {
    if (t.kind !== "record") continue;
    const plan = messagePlan(t, doc, names, types, proto3Files);
    for (const f of plan.fields) if (f.value.kind === "group") groupTypes.add(f.value.type.id);
    messages.push(plan);
  }
  const enums = doc.types.filter((t): t is EnumType => t.kind === "enum");
  return { doc, names, types, messages, groupTypes, enums };
}

/**
 * The IR keeps `syntax` only for the entry file; a file is proto3 when it declares an open enum or an
 * implicit-presence field (what only proto3 has). It decides UTF-8 strictness of fields whose hint does not say
 * (editions files resolve features.utf8_validation per field and record it as `validateUtf8`).
 */
function proto3FilesOf(doc: IrDocument): Set<string> {
  const files = new Set<string>();
  if (doc.info.syntax === "proto3" && doc.files[0] !== undefined) files.add(doc.files[0]);
  for (const t of doc.types) {
    if (t.kind === "enum" && t.closed === false) files.add(t.origin.file);
    if (t.kind === "record" && fieldsOf(t).some((f) => f.wire.proto?.label === "implicit")) files.add(t.origin.file);
  }
  return files;
}

function fieldsOf(t: RecordType): Field[] {
  return t.members.flatMap((m) => (m.kind === "field" ? [m] : m.kind === "group" ? m.members.filter((x): x is Field => x.kind === "field") : []));
}

function messagePlan(t: RecordType, doc: IrDocument, names: Names, types: Map<TypeId, NamedType>, proto3Files: ReadonlySet<string>): MessagePlan {
  const proto3 = proto3Files.has(t.origin.file);
  // Property keys exactly as the types emitter claims them: declaration order, clashes get "_2", "_3", ...
  const claim = keyClaimer();
  const fields: FieldPlan[] = [];
  for (const m of t.members) {
    if (m.kind === "field") fields.push(fieldPlan(m, claim(fieldPropertyName(m)), undefined, types, proto3));
    else if (m.kind === "group" && m.oneofName !== undefined) {
      const prop = claim(oneofPropertyName(m));
      for (const f of m.members) if (f.kind === "field") fields.push(fieldPlan(f, fieldPropertyName(f), prop, types, proto3));
    }
  }
  const extensions = doc.extensions.filter((e) => e.extendee === t.id);
  const extensionsProp = extensions.length > 0 ? claim("$extensions") : undefined;
  for (const e of extensions) fields.push(extensionPlan(e, types, proto3));
  const unknownProp = claim("$unknown");
  fields.sort((a, b) => a.number - b.number);
  return {
    record: t,
    name: names.type(t.id),
    fields,
    unknownProp,
    ...(extensionsProp !== undefined ? { extensionsProp } : {}),
    strictUtf8: proto3,
    proto3,
  };
}

function extensionPlan(e: ExtensionDecl, types: Map<TypeId, NamedType>, proto3File: boolean): FieldPlan {
  return { ...fieldPlan(e.field, e.fullName, undefined, types, proto3File), extension: e.fullName };
}

/** `proto3File`: whether the field's file is taken to be proto3 (the UTF-8 default when the hint does not say). */
function fieldPlan(field: Field, prop: string, oneof: string | undefined, types: Map<TypeId, NamedType>, proto3File: boolean): FieldPlan {
  const hint = field.wire.proto;
  if (!hint) throw new Error(`internal: field ${field.name} has no proto wire hint`);
  const repeated = hint.label === "repeated";
  let value: ValueShape;
  let mapKey: ScalarKind | undefined;
  if (field.type.kind === "map") {
    if (field.type.key.kind !== "scalar") throw new Error(`internal: map key of ${field.name} is not a scalar`);
    mapKey = field.type.key.scalar;
    value = valueShape(field.type.value, types, false);
  } else value = valueShape(field.type, types, hint.group === true);
  const presence = repeated ? "repeated" : hint.label === "required" ? "required" : hint.label === "implicit" && value.kind !== "message" ? "implicit" : "explicit";
  return {
    field,
    number: hint.number,
    prop,
    ...(oneof !== undefined ? { oneof } : {}),
    value,
    ...(mapKey !== undefined ? { mapKey } : {}),
    repeated: repeated && mapKey === undefined,
    packed: hint.packed === true && mapKey === undefined,
    presence: mapKey !== undefined ? "repeated" : presence,
    strictUtf8: hint.validateUtf8 ?? proto3File,
  };
}

function valueShape(t: TypeExpr, types: Map<TypeId, NamedType>, group: boolean): ValueShape {
  if (t.kind === "scalar") return { kind: "scalar", scalar: t.scalar };
  if (t.kind !== "ref") throw new Error(`internal: unexpected proto type ${t.kind}`);
  const target = types.get(t.id);
  if (!target) throw new Error(`internal: unresolved type reference ${t.id}`);
  if (target.kind === "enum") return { kind: "enum", type: target };
  if (target.kind === "record") return { kind: group ? "group" : "message", type: target };
  throw new Error(`internal: proto field refers to a ${target.kind}`);
}

/** `obj.key` when key is a plain identifier, `obj["key"]` otherwise. */
export function member(obj: string, key: string): string {
  return isIdentifier(key) && key !== "__proto__" ? `${obj}.${key}` : `${obj}[${stringLiteral(key)}]`;
}
