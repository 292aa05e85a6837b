import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";

/**
 * libxml2 as the independent judge: the WSDL's own xsd:schema elements are written out as .xsd files (with
 * schemaLocation added to their imports) behind one driver schema that imports them all, and documents are validated
 * with `xmllint --noout --schema`.
 */
export function schemaDriverFromWsdl(wsdlFile: string): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), "specforge-xsd-"));
  const wsdl = readFileSync(wsdlFile, "utf8");
  const schemas = [...wsdl.matchAll(/<xsd:schema\b[\s\S]*?<\/xsd:schema>/g)].map((m) => m[0]);
  const files = new Map<string, string>();
  schemas.forEach((s, i) => files.set(/targetNamespace="([^"]*)"/.exec(s)![1]!, `schema${i + 1}.xsd`));
  for (const [i, s] of schemas.entries()) {
    const withLocations = s.replace(/<xsd:import namespace="([^"]*)"\s*\/>/g, (all, ns: string) =>
      files.has(ns) ? `<xsd:import namespace="${ns}" schemaLocation="${files.get(ns)}"/>` : all,
    );
    writeFileSync(path.join(dir, `schema${i + 1}.xsd`), `<?xml version="1.0" encoding="UTF-8"?>\n${withLocations}\n`);
  }
  const imports = [...files].map(([ns, file]) => `  <xsd:import namespace="${ns}" schemaLocation="${file}"/>`).join("\n");
  const driver = path.join(dir, "all.xsd");
  writeFileSync(driver, `<?xml version="1.0" encoding="UTF-8"?>\n<xsd:schema xmlns:xsd="http://www.w3.org/2001/XMLSchema">\n${imports}\n</xsd:schema>\n`);
  return driver;
}

/** Validate documents (XML strings) against a schema; returns xmllint's complaints per failing document. */
export function xmllintValidate(schema: string, documents: readonly string[]): { file: string; errors: string }[] {
  const dir = mkdtempSync(path.join(os.tmpdir(), "specforge-xml-"));
  const files = documents.map((d, i) => {
    const f = path.join(dir, `doc${i}.xml`);
    writeFileSync(f, d.startsWith("<?xml") ? d : `<?xml version="1.0" encoding="UTF-8"?>\n${d}`);
    return f;
  });
  const failures: { file: string; errors: string }[] = [];
  // Batches keep the command line short.
  for (let i = 0; i < files.length; i += 200) {
    const batch = files.slice(i, i + 200);
    const r = spawnSync("xmllint", ["--noout", "--schema", schema, ...batch], { encoding: "utf8" });
    if (r.error) throw r.error;
    for (const f of batch) {
      const lines = r.stderr.split("\n").filter((l) => l.startsWith(f) && !l.endsWith(" validates"));
      if (lines.length > 0) failures.push({ file: f, errors: lines.join("\n") });
    }
  }
  return failures;
}
