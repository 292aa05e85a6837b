/**
 * protoc-gen-specforge: one CodeGeneratorRequest in, one CodeGeneratorResponse out. Each file to generate becomes
 * one spec, lowered from its descriptors (src/parsers/proto-descriptors) and emitted exactly as `specforge generate`
 * emits the .proto: into "<file without .proto>/" under the plugin's output folder, self-contained (it carries the
 * types of its imports, as the CLI's output does).
 *
 * Problems with the input (an edition newer than the front end knows, a bad parameter) go to the response's `error` field, with
 * file:line:col when known, as the plugin protocol asks; protoc and buf print it and fail.
 */
import { create, fromBinary, toBinary } from "@bufbuild/protobuf";
import {
  CodeGeneratorRequestSchema,
  CodeGeneratorResponse_Feature,
  CodeGeneratorResponse_FileSchema,
  CodeGeneratorResponseSchema,
  Edition,
  type CodeGeneratorResponse,
} from "@bufbuild/protobuf/wkt";
import { SpecError, UsageError } from "../errors.js";
import { lowerDescriptors, SUPPORTED_DESCRIPTOR_EDITIONS } from "../parsers/proto-descriptors/index.js";
import { generateFromDocument } from "../pipeline/generate-files.js";
import { parsePluginParameter } from "./parameters.js";

/**
 * What the plugin declares to protoc/buf: proto3 `optional` (synthetic oneofs) and editions, from proto2 (the
 * oldest a compiler can name) to the newest edition the descriptor front end resolves. Compilers refuse to hand
 * an editions file to a plugin that does not declare its edition.
 */
export const SUPPORTED_FEATURES = BigInt(CodeGeneratorResponse_Feature.PROTO3_OPTIONAL | CodeGeneratorResponse_Feature.SUPPORTS_EDITIONS);
export const MINIMUM_EDITION = Edition.EDITION_PROTO2;
export const MAXIMUM_EDITION = SUPPORTED_DESCRIPTOR_EDITIONS[SUPPORTED_DESCRIPTOR_EDITIONS.length - 1]!;

export function runPlugin(requestBytes: Uint8Array): Uint8Array {
  return toBinary(CodeGeneratorResponseSchema, respond(requestBytes));
}

function respond(requestBytes: Uint8Array): CodeGeneratorResponse {
  const response = create(CodeGeneratorResponseSchema, { supportedFeatures: SUPPORTED_FEATURES, minimumEdition: MINIMUM_EDITION, maximumEdition: MAXIMUM_EDITION });
  try {
    const request = fromBinary(CodeGeneratorRequestSchema, requestBytes);
    const params = parsePluginParameter(request.parameter ?? "");
    for (const name of request.fileToGenerate) {
      const doc = lowerDescriptors(request.protoFile, name);
      const output = generateFromDocument(doc, {
        file: name,
        display: name,
        outDir: name.replace(/\.proto$/, ""),
        ...(params.int64 ? { int64: params.int64 } : {}),
        ...(params.runtimeModule ? { runtimeModule: params.runtimeModule } : {}),
        ...(params.artifactNames ? { artifactNames: params.artifactNames } : {}),
      });
      for (const f of output.files) response.file.push(create(CodeGeneratorResponse_FileSchema, { name: f.path, content: f.content }));
    }
  } catch (e) {
    if (!(e instanceof SpecError || e instanceof UsageError)) throw e;
    response.file = [];
    response.error = e.message;
  }
  return response;
}
