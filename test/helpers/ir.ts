import type {
  EnumType, Field, IrDocument, NamedType, Occurs, Origin, RecordType, TypeExpr, Member,
} from "../../src/ir/model.js";

/** Small builders for IR in emitter and naming tests (given IR, want text). */
export const at = (construct = "test"): Origin => ({ file: "t.spec", line: 1, column: 1, pointer: "/", construct });

export const scalar = (s: Extract<TypeExpr, { kind: "scalar" }>["scalar"]): TypeExpr => ({ kind: "scalar", scalar: s });
export const ref = (id: string): TypeExpr => ({ kind: "ref", id });

export function field(name: string, type: TypeExpr, occurs: Partial<Occurs> = {}, extra: Partial<Field> = {}): Field {
  return {
    kind: "field", name, type, occurs: { min: occurs.min ?? 1, max: occurs.max ?? 1 }, nullable: false,
    origin: at(`field ${name}`), wire: {}, ...extra,
  };
}

export function record(id: string, members: Member[], extra: Partial<RecordType> = {}): RecordType {
  return { kind: "record", id, name: id.replace(/^.*[}:.]/, ""), scope: "", members, origin: at(`record ${id}`), ...extra };
}

export function enumType(id: string, values: string[], extra: Partial<EnumType> = {}): EnumType {
  return {
    kind: "enum", id, name: id.replace(/^.*[}:.]/, ""), scope: "", base: { kind: "scalar", scalar: "string" },
    values: values.map((v) => ({ name: v, value: v, origin: at() })), origin: at(`enum ${id}`), ...extra,
  };
}

export function doc(types: NamedType[], extra: Partial<IrDocument> = {}): IrDocument {
  return { format: "xsd", entry: "t.spec", files: ["t.spec"], info: {}, types, elements: [], extensions: [], services: [], ...extra };
}
