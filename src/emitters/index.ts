import type { Artifact } from "./artifact.js";
import { emitTypes } from "./types/emit-types.js";
import { jsonValidatorsArtifact } from "./json-validators/index.js";
import { jsonSerializersArtifact } from "./json-serializers/index.js";
import { restClientArtifact } from "./rest-client/index.js";
import { restServerArtifact } from "./rest-server/index.js";
import { protoJsonArtifact } from "./protojson/artifact.js";
import { protobufCodecArtifact, protobufValidatorsArtifact } from "./protobuf/artifact.js";
import { protoTextArtifact } from "./prototext/artifact.js";
import { protoConnectArtifact, protoFeedArtifact } from "./proto-http/index.js";
import { protoOpenApiArtifact } from "./proto-openapi/index.js";
import { xmlArtifact } from "./xml/index.js";
import { xmlValidatorsArtifact } from "./xml-validators/index.js";
import { soapClientArtifact } from "./soap-client/index.js";
import { soapServerArtifact } from "./soap-server/index.js";

export type { Artifact, EmitContext } from "./artifact.js";

const typesArtifact: Artifact = {
  name: "types",
  applies: () => true,
  emit: (ctx) => [emitTypes(ctx.doc, ctx.names, { dir: ctx.dir, source: ctx.source, int64: ctx.int64, dates: ctx.dates, ...(ctx.modules ? { modules: ctx.modules } : {}) })],
};

/** Every artifact, in the order their files are listed in a spec's index.ts. Register new emitters here. */
export const ARTIFACTS: readonly Artifact[] = [
  typesArtifact,
  jsonValidatorsArtifact,
  jsonSerializersArtifact,
  restClientArtifact,
  // The REST server validates bodies with the JSON validators (./validate.js) once that artifact is registered, and
  // writes response bodies with the JSON serializers' encoders (./json.js).
  restServerArtifact(
    () => ARTIFACTS.some((a) => a.name !== "rest-server" && /valid/i.test(a.name)),
    () => ARTIFACTS.some((a) => a.name === "json-serializers"),
  ),
  protoJsonArtifact,
  protobufCodecArtifact,
  protobufValidatorsArtifact,
  protoTextArtifact,
  protoFeedArtifact,
  protoConnectArtifact,
  protoOpenApiArtifact,
  xmlArtifact,
  xmlValidatorsArtifact,
  soapClientArtifact,
  soapServerArtifact(() => ARTIFACTS.some((a) => a.name === "xml-validators")),
];
