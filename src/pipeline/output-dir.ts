import path from "node:path";

/**
 * The folder (under the output root) that a spec's generated files go to: its file name without the format
 * suffixes, e.g. "specs/webhooks.openapi.yaml" -> "webhooks", "specs/partner.wsdl" -> "partner", "specs/Service.wsdl.xml" -> "Service".
 */
export function outputDirFor(specFile: string): string {
  let base = path.basename(specFile);
  base = base.replace(/\.(xml|txt)$/i, "").replace(/\.(wsdl|xsd|proto|ya?ml|json)$/i, "").replace(/\.(openapi|swagger)$/i, "");
  const safe = base.replace(/[^A-Za-z0-9._-]+/g, "-").replace(/^[.-]+/, "");
  return safe === "" ? "spec" : safe;
}
