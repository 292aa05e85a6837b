import type { Artifact } from "../artifact.js";
import { emitXmlValidators } from "./emit-validators.js";

/** XSD validators for WSDL/XSD documents: `<dir>/validate.ts`. */
export const xmlValidatorsArtifact: Artifact = {
  name: "xml-validators",
  applies: (doc) => doc.format === "wsdl" || doc.format === "xsd",
  emit: (ctx) => [emitXmlValidators(ctx)],
};
