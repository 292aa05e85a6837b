import type { Artifact } from "../artifact.js";
import { emitProtoJson } from "./emit-protojson.js";

/** ProtoJSON for every .proto spec. Any needs the binary codec, which is generated for every .proto spec as well. */
export const protoJsonArtifact: Artifact = {
  name: "protojson",
  applies: (doc) => doc.format === "proto",
  emit: (ctx) => [emitProtoJson(ctx, { binary: true })],
};
