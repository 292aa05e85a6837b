import type { Artifact } from "../artifact.js";
import { boundServices } from "./bound-operations.js";
import { emitSoapClient } from "./emit-client.js";

/** `<dir>/client.ts` for WSDL documents: a typed SOAP client per service with a document/literal binding. */
export const soapClientArtifact: Artifact = {
  name: "soap-client",
  applies: (doc) => doc.format === "wsdl" && boundServices(doc).length > 0,
  emit: (ctx) => [emitSoapClient(ctx)],
};
