/**
 * Every example in the real OpenAPI documents of the corpus (and one-change variants of each) goes through the
 * generated validator of the schema it belongs to and through ajv + ajv-formats; the verdicts must agree, or one of
 * the deliberate differences listed in docs/validators.md must explain the disagreement (suite.ts). Stripe and
 * DigitalOcean run in the "large" project (test/large/openapi-examples.test.ts).
 */
import { describe, expect, it } from "vitest";
import { corpusEntries } from "../corpus-openapi/openapi-corpus.js";
import { DIFFERENCES, documentedDifferences } from "./differences.js";
import { DOCUMENTS, LARGE_DOCUMENTS } from "./documents.js";
import { ADJUSTMENTS, agreementTests } from "./suite.js";

describe("examples of real OpenAPI documents: generated validators agree with ajv", () => {
  agreementTests(DOCUMENTS);

  it("every entry document of the corpus is listed", () => {
    expect([...DOCUMENTS, ...LARGE_DOCUMENTS].map((d) => d.file).sort()).toEqual(corpusEntries().sort());
  });

  it("docs/validators.md lists exactly the differences the test knows, each shown by a document of the corpus", () => {
    expect(documentedDifferences().sort()).toEqual([...ADJUSTMENTS].sort());
    const listed = [...DOCUMENTS, ...LARGE_DOCUMENTS].map((d) => d.file);
    for (const a of ADJUSTMENTS) {
      const documents = DIFFERENCES[a].seenIn;
      expect(documents.length, `${a} names no document`).toBeGreaterThan(0);
      for (const d of documents) expect(listed, `${a}: ${d}`).toContain(d);
    }
  });
});
