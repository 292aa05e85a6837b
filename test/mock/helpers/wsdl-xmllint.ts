import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";

/**
 * libxml2 as the independent judge of SOAP answers: the WSDL's inline schemas (any prefix, or none as in the
 * Salesforce WSDLs) are written out as .xsd files, each given the namespace declarations it inherits from
 * wsdl:definitions and schemaLocation on its imports of the others, behind a driver schema importing them all.
 */
export function wsdlSchemaDriver(wsdlFile: string): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), "specforge-mock-xsd-"));
  const wsdl = readFileSync(wsdlFile, "utf8");
  const root = /<(?:[\w.-]+:)?definitions\b([^>]*)>/.exec(wsdl);
  const inherited = [...(root?.[1] ?? "").matchAll(/\s(xmlns(?::[\w.-]+)?)\s*=\s*("[^"]*"|'[^']*')/g)].map((m) => [m[1]!, m[2]!] as const);
  const schemas = [...wsdl.matchAll(/<((?:[\w.-]+:)?)schema\b([^>]*)>([\s\S]*?)<\/\1schema>/g)];
  const files = new Map<string, string>();
  schemas.forEach((s, i) => files.set(/targetNamespace\s*=\s*["']([^"']*)["']/.exec(s[2]!)?.[1] ?? "", `schema${i + 1}.xsd`));
  for (const [i, s] of schemas.entries()) {
    const [, prefix, attrs, content] = s;
    const declared = new Set([...attrs!.matchAll(/\s(xmlns(?::[\w.-]+)?)\s*=/g)].map((m) => m[1]));
    const extra = inherited.filter(([name]) => !declared.has(name)).map(([name, value]) => ` ${name}=${value}`).join("");
    const body = content!.replace(new RegExp(`<${prefix}import\\s+namespace\\s*=\\s*["']([^"']*)["']\\s*/>`, "g"), (all, ns: string) =>
      files.has(ns) ? `<${prefix}import namespace="${ns}" schemaLocation="${files.get(ns)}"/>` : all,
    );
    writeFileSync(path.join(dir, `schema${i + 1}.xsd`), `<?xml version="1.0" encoding="UTF-8"?>\n<${prefix}schema${attrs}${extra}>${body}</${prefix}schema>\n`);
  }
  const imports = [...files].map(([ns, file]) => `  <xsd:import namespace="${ns}" schemaLocation="${file}"/>`).join("\n");
  const driver = path.join(dir, "all.xsd");
  writeFileSync(driver, `<?xml version="1.0" encoding="UTF-8"?>\n<xsd:schema xmlns:xsd="http://www.w3.org/2001/XMLSchema">\n${imports}\n</xsd:schema>\n`);
  return driver;
}

/**
 * The element inside a SOAP Body, as a document of its own: the namespace declarations it uses from the Envelope
 * and Body start tags are copied onto it.
 */
export function bodyPayload(envelope: string): string {
  const start = /<((?:[\w.-]+:)?)Envelope\b([^>]*)>/.exec(envelope);
  const body = /<((?:[\w.-]+:)?)Body\b([^>]*)>/.exec(envelope);
  if (!start || !body) throw new Error(`not a SOAP envelope: ${envelope.slice(0, 200)}`);
  const end = envelope.lastIndexOf(`</${body[1]}Body>`);
  const inner = envelope.slice(body.index + body[0].length, end).trim();
  const decls = new Map<string, string>();
  for (const attrs of [start[2]!, body[2]!]) for (const m of attrs.matchAll(/\s(xmlns(?::[\w.-]+)?)\s*=\s*("[^"]*"|'[^']*')/g)) decls.set(m[1]!, m[2]!);
  const first = /^<([\w.:-]+)([^>]*?)(\/?)>/.exec(inner);
  if (!first) throw new Error(`empty SOAP body: ${envelope.slice(0, 200)}`);
  const own = new Set([...first[2]!.matchAll(/\s(xmlns(?::[\w.-]+)?)\s*=/g)].map((m) => m[1]));
  const add = [...decls].filter(([name]) => !own.has(name)).map(([name, value]) => ` ${name}=${value}`).join("");
  return `<${first[1]}${first[2]}${add}${first[3]}>${inner.slice(first[0].length)}`;
}

/** xmllint's complaints per failing document (empty: all valid). */
export function xmllintFailures(schema: string, documents: readonly string[]): { index: number; errors: string }[] {
  const dir = mkdtempSync(path.join(os.tmpdir(), "specforge-mock-xml-"));
  const files = documents.map((d, i) => {
    const f = path.join(dir, `doc${i}.xml`);
    writeFileSync(f, d);
    return f;
  });
  const failures: { index: number; errors: string }[] = [];
  for (let i = 0; i < files.length; i += 200) {
    const batch = files.slice(i, i + 200);
    const r = spawnSync("xmllint", ["--noout", "--schema", schema, ...batch], { encoding: "utf8", timeout: 120_000 });
    if (r.error) throw r.error;
    if (r.stderr.includes("failed to compile")) throw new Error(`xmllint could not compile ${schema}:\n${r.stderr.slice(0, 2000)}`);
    batch.forEach((f, j) => {
      const lines = r.stderr.split("\n").filter((l) => l.startsWith(f) && !l.endsWith(" validates"));
      if (lines.length > 0) failures.push({ index: i + j, errors: lines.join("\n") });
    });
  }
  return failures;
}
