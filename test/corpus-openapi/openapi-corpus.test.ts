import { describe, expect, it } from "vitest";
import { corpusEntries, generateCompileAndImport, LARGE_DOCUMENTS } from "./openapi-corpus.js";

/** In progress on other branches of issue 13: expected to fail until they land. */
const PENDING: string[] = [];

/** Every OpenAPI/Swagger document of the corpus but the largest (those run in test/large/). */
describe("real-world OpenAPI documents", () => {
  const entries = corpusEntries();

  it("finds the corpus: OAI 2.0/3.0/3.1 examples, Stripe and DigitalOcean", () => {
    expect(entries.filter((e) => e.startsWith("oai/v2.0/")).length).toBeGreaterThanOrEqual(8);
    expect(entries.filter((e) => e.startsWith("oai/v3")).length).toBeGreaterThanOrEqual(9);
    for (const large of LARGE_DOCUMENTS) expect(entries).toContain(large);
  });

  for (const rel of entries.filter((e) => !LARGE_DOCUMENTS.includes(e))) {
    const test = PENDING.some((p) => rel.startsWith(p)) ? it.fails : it;
    test(`${rel}: all artifacts compile strict and import`, async () => {
      await generateCompileAndImport(rel);
    });
  }
});
