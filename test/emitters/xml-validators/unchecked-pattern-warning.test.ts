/**
 * An xs:pattern the generator cannot translate (an unknown block name) is left unchecked in validate.ts, and the run
 * says so: a located warning on stderr, and `--strict` refuses the schema. A translatable pattern beside it is
 * checked and not reported.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runCli } from "../../helpers/run-cli.js";

const SCHEMA = `<?xml version="1.0"?>
<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" targetNamespace="urn:p" xmlns:p="urn:p">
  <xs:simpleType name="Odd">
    <xs:restriction base="xs:string">
      <xs:pattern value="\\p{IsNoSuchBlock}+"/>
    </xs:restriction>
  </xs:simpleType>
  <xs:simpleType name="Code">
    <xs:restriction base="xs:string">
      <xs:pattern value="[A-Z]{3}"/>
    </xs:restriction>
  </xs:simpleType>
  <xs:element name="odd" type="p:Odd"/>
  <xs:element name="code" type="p:Code"/>
</xs:schema>
`;

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function project(): string {
  const dir = mkdtempSync(path.join(tmpdir(), "specforge-xsd-pattern-"));
  dirs.push(dir);
  writeFileSync(path.join(dir, "p.xsd"), SCHEMA);
  return dir;
}

describe("an untranslatable xs:pattern", () => {
  it("is a located warning, and the generated validator says it is unchecked", async () => {
    const dir = project();
    const r = await runCli(dir, "generate", "p.xsd", "--out", "gen");
    expect(r.code).toBe(0);
    const warnings = r.err.trim().split("\n").filter((l) => l.includes("warning:"));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/^p\.xsd:3:\d+: warning: xs:pattern "\\\\p\{IsNoSuchBlock\}\+" is not checked: /);
    const validate = readFileSync(path.join(dir, "gen/p/validate.ts"), "utf8");
    expect(validate).toContain("// pattern not checked");
    expect(validate).toContain("[A-Z]{3}");
  });

  it("refuses the schema under --strict", async () => {
    const dir = project();
    const r = await runCli(dir, "generate", "p.xsd", "--out", "gen", "--strict");
    expect(r.code).not.toBe(0);
    expect(r.err).toContain("xs:pattern");
  });
});
