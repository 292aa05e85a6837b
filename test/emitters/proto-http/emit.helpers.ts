import path from "node:path";
import type { EmitContext } from "../../../src/emitters/artifact.js";
import { assignNames } from "../../../src/naming/assign-names.js";
import { nodeSpecHost } from "../../../src/parsers/host.js";
import { loadSpec } from "../../../src/pipeline/load-spec.js";
import { REPO, SHARED } from "../../helpers/seeds.js";

export const GREETER_PROTO = path.join(import.meta.dirname, "fixtures/greeter.proto");
export const HEALTH_PROTO = path.join(SHARED, "corpus/proto/grpc/health/v1/health.proto");
export const CONTENT_PROTO = path.join(REPO, "specs/content.proto");

/** The emit context the pipeline would build for a proto spec (output folder named after the file). */
export function protoContext(file: string): EmitContext {
  const doc = loadSpec(file, nodeSpecHost({ includeDirs: [path.join(SHARED, "corpus/proto")] }));
  return {
    doc,
    names: assignNames(doc),
    dir: path.basename(file, ".proto"),
    source: path.basename(file),
    int64: "bigint",
    runtimeModule: "specforge/runtime",
  };
}
