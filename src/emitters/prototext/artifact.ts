import type { Artifact } from "../artifact.js";
import { emitProtoText } from "./emit-prototext.js";

/** `<dir>/prototext.ts`: `toText<T>(message)` (the protobuf text format) for every message of a proto spec. */
export const protoTextArtifact: Artifact = {
  name: "prototext",
  applies: (doc) => doc.format === "proto",
  emit: (ctx) => [emitProtoText(ctx)],
};
