/**
 * The protobuf binary codec artifact: `<dir>/protobuf.ts` with `encode<T>` / `decode<T>` for every message of a
 * proto spec, specialized straight-line code over the runtime's wire primitives.
 */
import { GeneratedFile } from "../../codegen/generated-file.js";
import type { EnumType, TypeId } from "../../ir/model.js";
import type { EmitContext } from "../artifact.js";
import type { Names } from "../../naming/assign-names.js";
import { code, type CodecContext } from "./code.js";
import { ModuleScope } from "../../naming/module-scope.js";
import { emitReader } from "./decode.js";
import { emitDefaults, hasDefaults } from "./defaults.js";
import { emitWriter } from "./encode.js";
import { emitEnumHelpers } from "./enums.js";
import { protoModel, type MessagePlan } from "./plan.js";
import { foreignModule, importShared, isOwnType, printSharedExports } from "../modules.js";

const TYPES_MODULE = "./types.js";
const RUNTIME_TYPES = new Set(["PbReader", "PbWriter", "ProtobufDecodeOptions"]);

/** Exported names of the codec file for a message, as the naming pass gave them (`Response$` -> `encodeResponse`). */
export function codecNames(names: Names, id: TypeId): { encode: string; decode: string; defaults: string } {
  return { encode: names.derived(id, "encode"), decode: names.derived(id, "decode"), defaults: names.derived(id, "defaults") };
}

export function emitProtobufCodecs(ctx: EmitContext): GeneratedFile {
  const model = protoModel(ctx.doc, ctx.names);
  const f = new GeneratedFile(`${ctx.dir}/protobuf.ts`, ctx.source);
  // A message of another input file is that file's module's: its reader and writer are imported from there.
  const messages = model.messages.filter((m) => isOwnType(ctx, m.record.id));
  const exported = messages.flatMap((m) => {
    const n = codecNames(ctx.names, m.record.id);
    return hasDefaults(m) ? [n.encode, n.decode, n.defaults] : [n.encode, n.decode];
  });
  const scope = new ModuleScope(ctx.names, exported);
  const c: CodecContext = {
    f,
    emit: ctx,
    model,
    rt: (name) => f.import(name, ctx.runtimeModule, { typeOnly: RUNTIME_TYPES.has(name) }),
    type: (id) => f.import(ctx.names.type(id), TYPES_MODULE, { typeOnly: true }),
    local: (kind, id, extra) => {
      const home = kind === "read" || kind === "write" ? foreignModule(ctx, id) : undefined;
      if (home) return importShared(f, home, "protobuf", ctx.names.shared(id, kind === "read" ? "read" : "write"));
      return scope.helper(kind, id, extra);
    },
  };

  f.jsdoc("", [
    `Protobuf binary codecs for ${ctx.source}: \`encode<T>(message)\` and \`decode<T>(bytes, options?)\` for every message.`,
    "Conventions: fields are written in field-number order, unknown fields (kept in `$unknown` as wire bytes, in the " +
      "order read) after them, so decoding and re-encoding protoc's output is byte-exact. Absent proto2/`optional` " +
      "fields stay absent after decoding (declared defaults are exported as `<T>Defaults`); proto3 fields without " +
      "`optional` are always present, with their zero value when absent on the wire. A closed (proto2) enum number " +
      "the schema does not list is kept in `$unknown`. Repeated scalars are read packed or unpacked and written as " +
      "declared. 64-bit integers are " + (ctx.int64 === "bigint" ? "bigint" : ctx.int64 === "string" ? "decimal strings" : "numbers") + ".",
    "Malformed input throws ProtobufDecodeError naming the byte offset and the field path; nesting deeper than " +
      "`options.maxDepth` (default 100) is malformed input.",
  ]);
  f.print();

  // Enum helpers are per file (each file has those its messages use), so an enum of another file gets its own here.
  for (const e of usedEnums(messages)) emitEnumHelpers(c, e);
  for (const m of messages) {
    emitExports(c, m);
    emitWriter(c, m);
    emitReader(c, m);
  }
  printSharedExports(f, ctx, messages.flatMap((m) => [
    [ctx.names.shared(m.record.id, "write"), c.local("write", m.record.id)],
    [ctx.names.shared(m.record.id, "read"), c.local("read", m.record.id)],
  ] as const));
  return f;
}

/** The message's proto name inside its package ("Tile.Layer"), the root of error paths. */
function protoName(m: MessagePlan): string {
  const full = m.record.id.replace(/^proto:\./, "");
  return m.record.scope && full.startsWith(`${m.record.scope}.`) ? full.slice(m.record.scope.length + 1) : full;
}

function usedEnums(messages: readonly MessagePlan[]): EnumType[] {
  const seen = new Map<TypeId, EnumType>();
  for (const m of messages) for (const p of m.fields) if (p.value.kind === "enum") seen.set(p.value.type.id, p.value.type);
  return [...seen.values()];
}

function emitExports(c: CodecContext, m: MessagePlan): void {
  const { f } = c;
  const id = m.record.id;
  const T = c.type(id);
  const names = codecNames(c.emit.names, id);
  const endTag = c.model.groupTypes.has(id) ? ", -1" : "";
  emitDefaults(c, m, names.defaults);
  f.jsdoc("", [`Encodes a {@link ${m.name}} as protobuf binary.`]);
  f.print(code`export function ${names.encode}(message: ${T}): Uint8Array {`);
  f.print(code`  const w = ${c.rt("pbWriter")}();`);
  f.print(`  ${c.local("write", id)}(w, message);`);
  f.print(code`  return ${c.rt("pbFinish")}(w);`);
  f.print("}");
  f.print();
  f.jsdoc("", [`Decodes a {@link ${m.name}} from protobuf binary; throws ProtobufDecodeError on malformed input.`]);
  const options = c.f.import("ProtobufDecodeOptions", c.emit.runtimeModule, { typeOnly: true });
  f.print(code`export function ${names.decode}(bytes: Uint8Array, options?: ${options}): ${T} {`);
  f.print(code`  const r = ${c.rt("pbReader")}(bytes, options);`);
  f.print("  try {");
  f.print(`    return ${c.local("read", id)}(r, r.len, 0, undefined${endTag});`);
  f.print("  } catch (e) {");
  f.print(code`    throw ${c.rt("pbRootError")}(e, ${f.string(protoName(m))});`);
  f.print("  }");
  f.print("}");
  f.print();
}
