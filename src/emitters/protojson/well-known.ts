import type { RecordType } from "../../ir/model.js";
import { valueCodec } from "./codecs.js";
import { rt, type ProtoJsonContext } from "./context.js";

/**
 * The well-known types with a JSON form of their own (not an object of fields). Recognised by full name, as every
 * ProtoJSON implementation does; google.protobuf.Empty is an ordinary message ({}), so it is not listed here.
 */
const SPECIAL = new Set([
  "Any", "Timestamp", "Duration", "FieldMask", "Struct", "Value", "ListValue",
  "DoubleValue", "FloatValue", "Int64Value", "UInt64Value", "Int32Value", "UInt32Value", "BoolValue", "StringValue", "BytesValue",
]);

const PREFIX = "proto:.google.protobuf.";

export function wellKnownName(record: RecordType): string | undefined {
  if (!record.id.startsWith(PREFIX)) return undefined;
  const name = record.id.slice(PREFIX.length);
  return SPECIAL.has(name) ? name : undefined;
}

/** Inside an Any these are written as {"@type", "value"}; Empty is an ordinary message there too, as in upb and protobuf-es. */
export function isWellKnown(record: RecordType): boolean {
  return wellKnownName(record) !== undefined;
}

/** The registry expression `Any` resolves type URLs with. */
function registry(): string {
  return "options.typeRegistry ?? protoJsonRegistry";
}

/** 64-bit `seconds` come back from the runtime as bigint; convert to the spec's int64 representation. */
function seconds(ctx: ProtoJsonContext): string {
  const mode = ctx.types.options.int64;
  return mode === "bigint" ? "t.seconds" : mode === "string" ? "t.seconds.toString()" : "Number(t.seconds)";
}

export function printWellKnownToJson(name: string, record: RecordType, ctx: ProtoJsonContext): void {
  const { f } = ctx;
  switch (name) {
    case "Any":
      f.print("  return ", rt(ctx, "anyToJson"), `(message, options, ${registry()});`);
      return;
    case "Timestamp":
    case "Duration":
      f.print("  return ", rt(ctx, name === "Timestamp" ? "timestampToJson" : "durationToJson"), "(message.seconds, message.nanos);");
      return;
    case "FieldMask":
      f.print("  return ", rt(ctx, "fieldMaskToJson"), "(message.paths ?? []);");
      return;
    case "Struct":
    case "Value":
    case "ListValue":
      f.print("  return ", rt(ctx, name === "Struct" ? "structToJson" : name === "Value" ? "valueToJson" : "listValueToJson"), "(message);");
      return;
    default:
      f.print("  return ", valueCodec(wrappedType(record), ctx).write("message.value"), ";");
  }
}

export function printWellKnownFromJson(name: string, record: RecordType, ctx: ProtoJsonContext): void {
  const { f } = ctx;
  switch (name) {
    case "Any":
      f.print("  return ", rt(ctx, "anyFromJson"), `(json, options, ${registry()}, path);`);
      return;
    case "Timestamp":
    case "Duration":
      f.print("  const t = ", rt(ctx, name === "Timestamp" ? "timestampFromJson" : "durationFromJson"), "(json, path);");
      f.print(`  return { seconds: ${seconds(ctx)}, nanos: t.nanos };`);
      return;
    case "FieldMask":
      f.print("  return { paths: ", rt(ctx, "fieldMaskFromJson"), "(json, path) };");
      return;
    case "Struct":
    case "Value":
    case "ListValue":
      f.print("  return ", rt(ctx, name === "Struct" ? "structFromJson" : name === "Value" ? "valueFromJson" : "listValueFromJson"), "(json, path);");
      return;
    default:
      f.print("  return { value: ", valueCodec(wrappedType(record), ctx).read("json", "path", "undefined"), " };");
  }
}

function wrappedType(record: RecordType) {
  const field = record.members.find((m) => m.kind === "field" && m.name === "value");
  if (!field || field.kind !== "field") throw new Error(`internal: ${record.id} has no value field`);
  return field.type;
}
