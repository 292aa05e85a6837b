/**
 * Every Swagger 2.0 example of the OpenAPI Initiative (shared/corpus/openapi/oai/v2.0, including petstore-separate
 * split over several files) lowers to a service with operations and yields every REST artifact. That the output
 * type-checks strict and imports is test/corpus-openapi's job, for all corpus documents alike.
 */
import path from "node:path";
import { describe, expect, it } from "vitest";
import { nodeSpecHost } from "../../../src/parsers/host.js";
import { generateSpec } from "../../../src/pipeline/generate-files.js";
import { SHARED } from "../../helpers/seeds.js";

const CORPUS = path.join(SHARED, "corpus");
const DOCS = [
  "api-with-examples.yaml",
  "petstore-expanded.yaml",
  "petstore-minimal.yaml",
  "petstore-separate/spec/swagger.yaml",
  "petstore-simple.yaml",
  "petstore-with-external-docs.yaml",
  "petstore.yaml",
  "uber.yaml",
].map((f) => `openapi/oai/v2.0/${f}`);

describe("Swagger 2.0 corpus", () => {
  const host = nodeSpecHost({ cwd: CORPUS });
  const outputs = DOCS.map((rel, i) => ({ rel, out: generateSpec({ file: path.join(CORPUS, rel), display: rel, outDir: `v2_${i}` }, host) }));

  it("reads petstore-separate's parameters and schemas from four more files", () => {
    expect(outputs.find((o) => o.rel.includes("petstore-separate"))!.out.doc.files).toHaveLength(5);
  });

  for (const { rel, out } of outputs) {
    it(`${rel} generates every REST artifact from a service with operations`, () => {
      expect(out.files.map((f) => path.basename(f.path)).sort()).toEqual(["client.ts", "index.ts", "json.ts", "server.ts", "types.ts", "validate.ts"]);
      const service = out.doc.services[0]!;
      expect(service.kind === "http" && service.operations.length > 0).toBe(true);
    });
  }
});
