import type { Artifact } from "../artifact.js";
import { emitXml } from "./emit-xml.js";

/** XML codecs for WSDL/XSD documents: `<dir>/xml.ts`. */
export const xmlArtifact: Artifact = {
  name: "xml",
  applies: (doc) => doc.format === "wsdl" || doc.format === "xsd",
  emit: (ctx) => [emitXml(ctx)],
};
