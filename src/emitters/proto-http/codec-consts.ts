import type { GeneratedFile } from "../../codegen/generated-file.js";
import type { TypeId } from "../../ir/model.js";
import type { EmitContext } from "../artifact.js";
import { BINARY_CODEC_MODULE, codecFunctionNames, JSON_CODEC_MODULE, TYPES_MODULE } from "./codec-functions.js";
import type { ModuleScope } from "../../naming/module-scope.js";
import { docHasRules } from "../protobuf/validate/emit-validate.js";
import { foreignModule } from "../modules.js";

/**
 * Module-local `HttpMessageCodec` constants: one object per message bundling its generated binary and JSON
 * functions, which the runtime's HTTP helpers call. Returns the constant's name for each message.
 */
export function emitCodecConsts(f: GeneratedFile, ctx: EmitContext, ids: readonly TypeId[], scope: ModuleScope): Map<TypeId, string> {
  const consts = new Map<TypeId, string>();
  const codecType = f.import("HttpMessageCodec", ctx.runtimeModule, { typeOnly: true });
  const withRules = docHasRules(ctx.doc);
  for (const id of ids) {
    if (consts.has(id)) continue;
    const typeName = ctx.names.type(id);
    const fns = codecFunctionNames(ctx.names, id);
    const constName = scope.helper("codec", id);
    consts.set(id, constName);
    // A message of another input file: its functions are its module's.
    const home = foreignModule(ctx, id);
    const from = (sibling: string) => (home ? `${home.specifier}/${sibling.slice(2)}` : sibling);
    f.print(`const ${constName}: `, codecType, "<", f.import(typeName, TYPES_MODULE, { typeOnly: true }), "> = {");
    f.print("  encode: ", f.import(fns.encode, from(BINARY_CODEC_MODULE)), ",");
    f.print("  decode: ", f.import(fns.decode, from(BINARY_CODEC_MODULE)), ",");
    f.print("  toJson: ", f.import(fns.toJson, from(JSON_CODEC_MODULE)), ",");
    f.print("  fromJson: ", f.import(fns.fromJson, from(JSON_CODEC_MODULE)), ",");
    // Specs with protovalidate rules: servers can check requests (RpcHandlerOptions.validateRequests).
    if (withRules) f.print("  validate: ", f.import(ctx.names.derived(id, "validate"), from("./validate.js")), ",");
    f.print("};");
    f.print();
  }
  return consts;
}
