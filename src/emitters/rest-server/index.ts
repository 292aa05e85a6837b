import type { Artifact } from "../artifact.js";
import { hasHttpService } from "../rest-client/http-shared.js";
import { emitServer } from "./emit-server.js";

/**
 * `<dir>/server.ts` for OpenAPI documents: typed handlers and a web-standard server per HTTP service.
 * `validatorsPresent` tells whether the validators artifact (./validate.js) is generated next to it; without it the
 * server still parses and checks parameters but cannot validate bodies and responses. `serializersPresent`: the JSON
 * serializers artifact (./json.js) too, whose encoders write response bodies of named types.
 */
export function restServerArtifact(validatorsPresent: () => boolean, serializersPresent: () => boolean = validatorsPresent): Artifact {
  return {
    name: "rest-server",
    applies: hasHttpService,
    emit: (ctx) => [emitServer(ctx, { validators: validatorsPresent(), serializers: validatorsPresent() && serializersPresent() })],
  };
}
