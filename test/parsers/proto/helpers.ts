import type { EnumType, Field, IrDocument, NamedType, RecordType } from "../../../src/ir/model.js";
import { memorySpecHost } from "../../../src/parsers/host.js";
import { parseProto } from "../../../src/parsers/proto/index.js";

/** Parse an in-memory spec: a single source becomes /spec/main.proto; a record maps absolute paths to sources. */
export function parse(source: string | Record<string, string>, entry = "/spec/main.proto", includeDirs?: string[]): IrDocument {
  const files = typeof source === "string" ? { [entry]: source } : source;
  return parseProto(entry, memorySpecHost(files, includeDirs));
}

/** The error message a parse fails with (fails the test when it parses). */
export function parseError(source: string | Record<string, string>, entry = "/spec/main.proto", includeDirs?: string[]): string {
  try {
    parse(source, entry, includeDirs);
  } catch (e) {
    return (e as Error).message;
  }
  throw new Error("expected a parse error");
}

export function type(doc: IrDocument, id: string): NamedType {
  const t = doc.types.find((x) => x.id === id);
  if (!t) throw new Error(`no type ${id}; have ${doc.types.map((x) => x.id).join(", ")}`);
  return t;
}

export function record(doc: IrDocument, id: string): RecordType {
  const t = type(doc, id);
  if (t.kind !== "record") throw new Error(`${id} is a ${t.kind}`);
  return t;
}

export function enumType(doc: IrDocument, id: string): EnumType {
  const t = type(doc, id);
  if (t.kind !== "enum") throw new Error(`${id} is a ${t.kind}`);
  return t;
}

/** All fields of a record, oneof members included, in declaration order. */
export function fields(r: RecordType): Field[] {
  const out: Field[] = [];
  for (const m of r.members) {
    if (m.kind === "field") out.push(m);
    else if (m.kind === "group") out.push(...(m.members.filter((x) => x.kind === "field") as Field[]));
  }
  return out;
}

export function field(doc: IrDocument, id: string, name: string): Field {
  const f = fields(record(doc, id)).find((x) => x.name === name);
  if (!f) throw new Error(`no field ${name} in ${id}`);
  return f;
}
