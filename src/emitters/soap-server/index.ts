import type { Artifact } from "../artifact.js";
import { boundServices } from "../soap-client/bound-operations.js";
import { emitSoapServer } from "./emit-server.js";

/**
 * `<dir>/server.ts` for WSDL documents: typed handlers and a web-standard SOAP server per service. Requests are
 * validated with the XSD validators (./validate.js) when that artifact is registered (`hasValidators`).
 */
export function soapServerArtifact(hasValidators: () => boolean): Artifact {
  return {
    name: "soap-server",
    applies: (doc) => doc.format === "wsdl" && boundServices(doc).length > 0,
    emit: (ctx) => [emitSoapServer(ctx, { validate: hasValidators() })],
  };
}
