import { stringLiteral } from "../../codegen/escape.js";
import { GeneratedFile } from "../../codegen/generated-file.js";
import type { EnumType, RecordType } from "../../ir/model.js";
import type { EmitContext } from "../artifact.js";
import { foreignModule, foreignModules, importShared, isOwnType, moduleTableName, printSharedExports } from "../modules.js";
import { typesContext } from "../types/context.js";
import { literalTs } from "../types/type-expr.js";
import { fnNames, jsonFunction, rt, type ProtoJsonContext } from "./context.js";
import { printFromJsonBody } from "./from-json.js";
import { messageLayout } from "./layout.js";
import { printToJsonBody } from "./to-json.js";
import { isWellKnown, printWellKnownFromJson, printWellKnownToJson, wellKnownName } from "./well-known.js";

export interface ProtoJsonEmitOptions {
  /** The binary codec (protobuf.ts with encode<T>/decode<T>) is generated next to this file. */
  readonly binary: boolean;
}

/**
 * The ProtoJSON artifact: `<dir>/protojson.ts` with, per message T, `toJson<T>` / `fromJson<T>` (parsed JSON values)
 * and `toJsonString<T>` / `fromJsonString<T>` (text), plus `protoJsonRegistry` for google.protobuf.Any.
 */
export function emitProtoJson(ec: EmitContext, options: ProtoJsonEmitOptions): GeneratedFile {
  const f = new GeneratedFile(`${ec.dir}/protojson.ts`, ec.source);
  const types = typesContext(ec.doc, ec.names, { int64: ec.int64, dates: ec.dates });
  const ctx: ProtoJsonContext = { f, types, runtime: ec.runtimeModule, binary: options.binary, foreign: (id) => foreignModule(ec, id) };
  f.jsdoc("", [
    `ProtoJSON (the proto3 JSON mapping) for ${ec.source}: toJson<T> / fromJson<T> work on parsed JSON values, ` +
      "toJsonString<T> / fromJsonString<T> on text.",
    "@packageDocumentation",
  ]);
  f.print();
  const allRecords = ec.doc.types.filter((t): t is RecordType => t.kind === "record");
  // Types of other input files are their modules': only this file's are declared here (the registry lists all).
  const records = allRecords.filter((t) => isOwnType(ec, t.id));
  const enums = ec.doc.types.filter((t): t is EnumType => t.kind === "enum" && isOwnType(ec, t.id));
  for (const e of enums) printEnumTable(e, ctx);
  if (enums.length > 0) f.print();
  for (const r of records) {
    printMessage(r, ctx);
    f.print();
  }
  // The messages of other input files are in their modules' registries, which this one merges.
  const imported = foreignModules(ec, allRecords.map((r) => r.id)).map((home) => importShared(f, home, "protojson", moduleTableName("protoJsonRegistry", home.dir)));
  printRegistry(records, imported, ctx);
  printSharedExports(f, ec, [
    ...enums.map((e) => [ec.names.shared(e.id, "enumTable"), fnNames.enumTable(ec.names.type(e.id))] as const),
    ...records.map((r) => [ec.names.shared(r.id, "jsonRead"), fnNames.read(ec.names.type(r.id))] as const),
    [moduleTableName("protoJsonRegistry", ec.dir), "protoJsonRegistry"] as const,
  ]);
  return f;
}

function printEnumTable(e: EnumType, ctx: ProtoJsonContext): void {
  const name = ctx.types.names.type(e.id);
  const values = e.values.map((v) => `[${literalTs(v.value)}, ${v.number ?? 0}]`).join(", ");
  const flags = e.id === "proto:.google.protobuf.NullValue" ? `open: ${e.closed === false}, nullValue: true` : `open: ${e.closed === false}`;
  ctx.f.print(
    `const ${fnNames.enumTable(name)} = /* @__PURE__ */ `, rt(ctx, "protoJsonEnum"),
    `<`, ctx.f.import(name, "./types.js", { typeOnly: true }), `>([${values}], { ${flags} });`,
  );
}

function printMessage(r: RecordType, ctx: ProtoJsonContext): void {
  const { f } = ctx;
  const name = ctx.types.names.type(r.id);
  const type = f.import(name, "./types.js", { typeOnly: true });
  const toOptions = rt(ctx, "ProtoToJsonOptions", true);
  const fromOptions = rt(ctx, "ProtoFromJsonOptions", true);
  const jsonValue = rt(ctx, "ProtoJsonValue", true);
  const special = wellKnownName(r);
  const full = r.id.replace(/^proto:\./, "");

  f.jsdoc("", [`{@link ${name}} (${full}) as a ProtoJSON value.`]);
  f.print(`export function ${jsonFunction(ctx, r.id, "toJson")}(message: `, type, ", options: ", toOptions, " = {}): ", jsonValue, " {");
  if (special) printWellKnownToJson(special, r, ctx);
  else printToJsonBody(messageLayout(r, ctx.types), ctx);
  f.print("}");
  f.print();

  f.jsdoc("", [`{@link ${name}} (${full}) from a ProtoJSON value; throws ProtoJsonError with the path of what is wrong.`]);
  f.print(`export function ${jsonFunction(ctx, r.id, "fromJson")}(json: unknown, options: `, fromOptions, " = {}): ", type, " {");
  f.print("  return ", rt(ctx, "protoJsonGuard"), `(() => ${fnNames.read(name)}(json, options, ""));`);
  f.print("}");
  f.print();

  f.print(`export function ${jsonFunction(ctx, r.id, "toJsonString")}(message: `, type, ", options: ", toOptions, " = {}): string {");
  f.print(`  return JSON.stringify(${jsonFunction(ctx, r.id, "toJson")}(message, options));`);
  f.print("}");
  f.print();
  f.print(`export function ${jsonFunction(ctx, r.id, "fromJsonString")}(text: string, options: `, fromOptions, " = {}): ", type, " {");
  f.print(`  return ${jsonFunction(ctx, r.id, "fromJson")}(`, rt(ctx, "parseProtoJsonText"), "(text), options);");
  f.print("}");
  f.print();

  f.print(`function ${fnNames.read(name)}(json: unknown, options: `, fromOptions, ", path: string): ", type, " {");
  if (special) printWellKnownFromJson(special, r, ctx);
  else printFromJsonBody(messageLayout(r, ctx.types), name, ctx);
  f.print("}");
}

function printRegistry(records: readonly RecordType[], imported: readonly string[], ctx: ProtoJsonContext): void {
  const { f } = ctx;
  const doc = () =>
    f.jsdoc("", [
      "Every message of this spec by full name: what google.protobuf.Any needs to write and read the messages it packs.",
      "Merge registries of several specs with createProtoJsonRegistry.",
    ]);
  // One array literal of a few thousand entries (googleapis' Compute, Ads) makes tsc give up with TS2590 ("union
  // type too complex"): past REGISTRY_CHUNK entries the list is split into typed module-local parts.
  const chunks: RecordType[][] = [];
  for (let i = 0; i < records.length; i += REGISTRY_CHUNK) chunks.push(records.slice(i, i + REGISTRY_CHUNK));
  if (chunks.length > 1) {
    const partNames = chunks.map((_, i) => `protoJsonRegistryPart${i + 1}`);
    chunks.forEach((chunk, i) => {
      f.print(`const ${partNames[i]}: readonly `, rt(ctx, "ProtoJsonMessageType", true), "[] = [");
      printRegistryEntries(chunk, ctx);
      f.print("];");
      f.print();
    });
    doc();
    f.print("export const protoJsonRegistry: ", rt(ctx, "ProtoJsonRegistry", true), " = /* @__PURE__ */ ", rt(ctx, "createProtoJsonRegistry"), `(${[...partNames, ...imported].join(", ")});`);
    return;
  }
  doc();
  f.print("export const protoJsonRegistry: ", rt(ctx, "ProtoJsonRegistry", true), " = /* @__PURE__ */ ", rt(ctx, "createProtoJsonRegistry"), "([");
  printRegistryEntries(records, ctx);
  f.print(imported.length > 0 ? `], ${imported.join(", ")});` : "]);");
}

/** Registry entries at most this many to an array literal (see printRegistry). */
const REGISTRY_CHUNK = 250;

function printRegistryEntries(records: readonly RecordType[], ctx: ProtoJsonContext): void {
  const { f } = ctx;
  for (const r of records) {
    const name = ctx.types.names.type(r.id);
    const fn = (file: string, n: string) => (file === "protojson" ? n : f.use(f.import(n, `./${file}.js`)));
    const parts = [
      `typeName: ${stringLiteral(r.id.replace(/^proto:\./, ""))}`,
      ...(isWellKnown(r) ? ["wellKnown: true"] : []),
      `toJson: ${fn("protojson", jsonFunction(ctx, r.id, "toJson"))}`,
      `fromJson: ${fn("protojson", jsonFunction(ctx, r.id, "fromJson"))}`,
    ];
    if (ctx.binary) {
      const encode = fn("protobuf", ctx.types.names.derived(r.id, "encode"));
      const decode = fn("protobuf", ctx.types.names.derived(r.id, "decode"));
      f.print(`  { ${parts.join(", ")}, encode: ${encode}, decode: (bytes: Uint8Array) => ${decode}(bytes) },`);
    } else f.print(`  { ${parts.join(", ")} },`);
  }
}
