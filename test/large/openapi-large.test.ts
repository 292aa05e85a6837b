import { describe, it } from "vitest";
import { generateCompileAndImport, LARGE_DOCUMENTS } from "../corpus-openapi/openapi-corpus.js";

/**
 * Stripe (402 operations, 4 MB) and DigitalOcean (2,034 files): all artifacts compile strict and import. Each takes
 * tens of seconds and about a gigabyte in the type checker, so they run in the "large" vitest project.
 */
describe("large real-world OpenAPI documents", () => {
  for (const rel of LARGE_DOCUMENTS) {
    // In progress on other branches of issue 13 (parameter styles, references): expected to fail until they land.
    it.fails(`${rel}: all artifacts compile strict and import`, async () => {
      await generateCompileAndImport(rel);
    }, 300_000);
  }
});
