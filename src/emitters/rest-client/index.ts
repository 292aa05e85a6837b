import type { Artifact } from "../artifact.js";
import { emitClient } from "./emit-client.js";
import { hasHttpService } from "./http-shared.js";

/** `<dir>/client.ts` for OpenAPI documents: a typed fetch client per HTTP service. */
export const restClientArtifact: Artifact = {
  name: "rest-client",
  applies: hasHttpService,
  emit: (ctx) => [emitClient(ctx)],
};
