import type { Artifact } from "./artifact.js";
import { emitTypes } from "./types/emit-types.js";

export type { Artifact, EmitContext } from "./artifact.js";

const typesArtifact: Artifact = {
  name: "types",
  applies: () => true,
  emit: (ctx) => [emitTypes(ctx.doc, ctx.names, { dir: ctx.dir, source: ctx.source, int64: ctx.int64 })],
};

/** Every artifact, in the order their files are listed in a spec's index.ts. Register new emitters here. */
export const ARTIFACTS: readonly Artifact[] = [typesArtifact];
