import type { Artifact } from "../artifact.js";
import { soapBindings } from "./bound-operations.js";
import { emitSoapClient } from "./emit-client.js";

/**
 * `<dir>/client.ts` for WSDL documents: a typed SOAP client per service with a SOAP binding (document/literal, rpc
 * literal or encoded); a service none of whose operations can be served gets a comment saying why.
 */
export const soapClientArtifact: Artifact = {
  name: "soap-client",
  applies: (doc) => doc.format === "wsdl" && soapBindings(doc).length > 0,
  emit: (ctx) => [emitSoapClient(ctx)],
};
