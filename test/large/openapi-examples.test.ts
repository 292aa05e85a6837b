import { describe } from "vitest";
import { LARGE_DOCUMENTS } from "../openapi-examples/documents.js";
import { agreementTests } from "../openapi-examples/suite.js";

/**
 * The example agreement test (test/openapi-examples) on Stripe (4 MB, read with positions in seconds) and
 * DigitalOcean (2,034 files, about 2,000 examples and 24,000 values to compare, about 40 s).
 */
describe("examples of large real-world OpenAPI documents: generated validators agree with ajv", () => {
  agreementTests(LARGE_DOCUMENTS);
});
