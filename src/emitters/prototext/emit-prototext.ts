/**
 * The protobuf text format artifact: `<dir>/prototext.ts` with `toText<T>(message)` for every message, printing
 * what `protoc --decode` prints. One field table per message (from the codec's plan, so property names match the
 * types exactly) drives the runtime printer: the format is rarely on a hot path, and tables keep the file small.
 */
import { GeneratedFile } from "../../codegen/generated-file.js";
import type { Printable } from "../../codegen/generated-file.js";
import type { ScalarKind, TypeId } from "../../ir/model.js";
import type { EmitContext } from "../artifact.js";
import { isDateRef } from "../types/context.js";
import { foreignModule, foreignModules, importShared, isOwnType, moduleTableName, printSharedExports } from "../modules.js";
import { code } from "../protobuf/code.js";
import { ModuleScope } from "../../naming/module-scope.js";
import { codecNames } from "../protobuf/emit-codec.js";
import type { Names } from "../../naming/assign-names.js";
import { protoModel, type FieldPlan, type MessagePlan, type ValueShape } from "../protobuf/plan.js";

/** Exported names of the text file for a message, as the naming pass gave them (`Response$` -> `toTextResponse$`). */
export function textNames(names: Names, id: TypeId): { toText: string; fromText: string } {
  return { toText: names.derived(id, "toText"), fromText: names.derived(id, "fromText") };
}

const TEXT_SCALAR: Partial<Record<ScalarKind, string>> = {
  double: "double", float: "float", int32: "int32", int64: "int64", uint32: "uint32", uint64: "uint64",
  sint32: "sint32", sint64: "sint64", fixed32: "fixed32", fixed64: "fixed64", sfixed32: "sfixed32",
  sfixed64: "sfixed64", boolean: "bool", string: "string", bytes: "bytes",
};

function textScalar(s: ScalarKind): string {
  const t = TEXT_SCALAR[s];
  if (t === undefined) throw new Error(`internal: ${s} is not a protobuf scalar`);
  return t;
}

/** The last segment of a type's full proto name: what protoc prints for a group field. */
function simpleName(id: TypeId): string {
  return id.slice(id.lastIndexOf(".") + 1);
}

export function emitProtoText(ctx: EmitContext): GeneratedFile {
  const model = protoModel(ctx.doc, ctx.names);
  const f = new GeneratedFile(`${ctx.dir}/prototext.ts`, ctx.source);
  // A message of another input file is its module's: its table is imported from there.
  const messages = model.messages.filter((m) => isOwnType(ctx, m.record.id));
  const scope = new ModuleScope(ctx.names, messages.flatMap((m) => Object.values(textNames(ctx.names, m.record.id))));
  const tableOf = (id: TypeId) => {
    const home = foreignModule(ctx, id);
    if (home) return importShared(f, home, "prototext", ctx.names.shared(id, "text"));
    return scope.helper("text", id);
  };
  const TextMessage = f.import("TextMessage", ctx.runtimeModule, { typeOnly: true });
  const TextPrintOptions = f.import("TextPrintOptions", ctx.runtimeModule, { typeOnly: true });

  f.jsdoc("", [
    `Protobuf text format for ${ctx.source}: \`toText<T>(message)\` for every message, as \`protoc --decode\` prints it ` +
      "(fields in number order, unknown fields by number after them, map entries sorted by key, non-ASCII bytes " +
      "of strings in octal); \`fromText<T>(text)\` reads it back (through the binary decoder, so the result has the " +
      "shape and checks of a decoded message) and throws TextFormatError with line:column on bad text.",
  ]);
  f.print();

  const value = (v: ValueShape): Printable[] => {
    if (v.kind === "scalar") return [`{ kind: "scalar", scalar: "${textScalar(v.scalar)}" }`];
    if (v.kind === "enum") {
      const zero = v.type.values.find((x) => x.number === 0);
      const parts: Printable[] = ['{ kind: "enum"'];
      if (zero) parts.push(", zero: ", f.string(zero.name));
      parts.push(", values: [");
      v.type.values.forEach((x, i) => parts.push(i > 0 ? ", [" : "[", f.string(x.name), `, ${x.number}]`));
      parts.push("]");
      if (v.type.closed === true) parts.push(", closed: true");
      parts.push(" }");
      return parts;
    }
    // A google.protobuf.Timestamp held as a Date (dates: "Date") is printed from the Date's seconds and nanos.
    const date = v.kind === "message" && isDateRef(v.type.id, ctx.dates) ? ", date: true" : "";
    return [`{ kind: "message", message: () => ${tableOf(v.type.id)}${v.kind === "group" ? ", group: true" : ""}${date} }`];
  };
  const field = (p: FieldPlan): Printable[] => {
    const name = p.extension !== undefined ? `[${p.extension.replace(/^\./, "")}]` : p.value.kind === "group" ? simpleName(p.value.type.id) : p.field.name;
    const parts: Printable[] = code`{ name: ${f.string(name)}, number: ${String(p.number)}, prop: ${f.string(p.prop)}`;
    if (p.oneof !== undefined) parts.push(code`, oneof: ${f.string(p.oneof)}`);
    if (p.extension !== undefined) parts.push(", extension: true");
    parts.push(", value: ", ...value(p.value));
    if (p.mapKey !== undefined) parts.push(`, mapKey: "${textScalar(p.mapKey)}"`);
    if (p.repeated) parts.push(", repeated: true");
    if (p.presence === "implicit") parts.push(", implicit: true");
    parts.push(" },");
    return parts;
  };
  const table = (m: MessagePlan) => {
    f.print(code`const ${tableOf(m.record.id)}: ${TextMessage} = {`);
    if (m.record.id === "proto:.google.protobuf.Any") f.print("  any: true,");
    f.print("  fields: [");
    for (const p of m.fields) f.print("    ", ...field(p));
    f.print("  ],");
    f.print(code`  unknownProp: ${f.string(m.unknownProp)},`);
    if (m.extensionsProp !== undefined) f.print(code`  extensionsProp: ${f.string(m.extensionsProp)},`);
    f.print("};");
    f.print();
  };

  const typesName = scope.fixed("textTypes");
  const printText = f.import("printText", ctx.runtimeModule);
  const parseText = f.import("parseTextToBinary", ctx.runtimeModule);
  for (const m of messages) {
    table(m);
    const T = f.import(m.name, "./types.js", { typeOnly: true });
    f.jsdoc("", [`{@link ${m.name}} in the protobuf text format.`]);
    f.print(code`export function ${textNames(ctx.names, m.record.id).toText}(message: ${T}, options?: ${TextPrintOptions}): string {`);
    f.print(code`  return ${printText}(message, ${tableOf(m.record.id)}, options, ${typesName});`);
    f.print("}");
    f.print();
    const names = textNames(ctx.names, m.record.id);
    const decode = f.import(codecNames(ctx.names, m.record.id).decode, "./protobuf.js");
    f.jsdoc("", [`{@link ${m.name}} from the protobuf text format; throws TextFormatError (line:column) on bad text.`]);
    f.print(code`export function ${names.fromText}(text: string): ${T} {`);
    f.print(code`  return ${decode}(${parseText}(text, ${tableOf(m.record.id)}, ${typesName}));`);
    f.print("}");
    f.print();
  }
  // Every message of the file by full name, for Any values written as `[type.googleapis.com/pkg.Type] { ... }`.
  const TextTypes = f.import("TextTypes", ctx.runtimeModule, { typeOnly: true });
  // The messages of other input files are in their modules' maps, which this one merges.
  const imported = foreignModules(ctx, model.messages.map((m) => m.record.id)).map((home) => importShared(f, home, "prototext", moduleTableName("textTypes", home.dir)));
  f.print(code`const ${typesName}: ${TextTypes} = new Map([`);
  for (const m of messages) {
    const decode = f.import(codecNames(ctx.names, m.record.id).decode, "./protobuf.js");
    f.print(code`  [${f.string(m.record.id.replace(/^proto:\./, ""))}, { table: ${tableOf(m.record.id)}, decode: (bytes: Uint8Array) => ${decode}(bytes) }],`);
  }
  for (const other of imported) f.print(`  ...${other},`);
  f.print("]);");
  printSharedExports(f, ctx, [
    ...messages.map((m) => [ctx.names.shared(m.record.id, "text"), tableOf(m.record.id)] as const),
    [moduleTableName("textTypes", ctx.dir), typesName] as const,
  ]);
  return f;
}
