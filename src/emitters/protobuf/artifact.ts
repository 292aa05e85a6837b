import type { Artifact } from "../artifact.js";
import { emitProtobufCodecs } from "./emit-codec.js";
import { emitProtoValidators } from "./validate/emit-validate.js";

/** `<dir>/protobuf.ts`: binary encode/decode functions for every message of a proto spec. */
export const protobufCodecArtifact: Artifact = {
  name: "protobuf",
  applies: (doc) => doc.format === "proto",
  emit: (ctx) => [emitProtobufCodecs(ctx)],
};

/** `<dir>/validate.ts`: `validate<T>(message)` for every message of a proto spec. */
export const protobufValidatorsArtifact: Artifact = {
  // Not named "...valid...": the REST server artifact takes such a name to mean JSON validators exist.
  name: "proto-checks",
  applies: (doc) => doc.format === "proto",
  emit: (ctx) => [emitProtoValidators(ctx)],
};
