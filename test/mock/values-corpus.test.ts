/**
 * The value generator over the rest of shared/corpus (issue 30): every .proto and every WSDL the parser reads, 100
 * values per named type, each passing the generated validator and surviving every generated codec of its type
 * (protobuf binary and proto JSON; XML through `xmlTypes`), as values.test.ts does for the seeds and the OAI
 * documents (helpers/values-check.ts). WSDLs the parser refuses are left out (they are spec errors, tested
 * elsewhere).
 *
 * `npm test` runs a deterministic sample (SAMPLE below: every .proto and WSDL feature the corpus has, small and
 * large); SPECFORGE_VALUES_CORPUS_ALL=1 runs every file.
 */
import { readdirSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { loadSpecForMock } from "../../src/mock/load.js";
import { SHARED } from "../helpers/seeds.js";
import { checkSpec } from "./helpers/values-check.js";

const COUNT = 100;
const CORPUS = path.join(SHARED, "corpus");
const PROTO = path.join(CORPUS, "proto");
const WSDL = path.join(CORPUS, "wsdl");
/** Refused by the parser (unknown types, missing imported schemas): not the generator's to fill. */
const UNREADABLE = new Set(["nodesoap-typeof_null_extend_check.wsdl", "onvif/devicemgmt.wsdl", "strongsoap-xsi-type-readMetadata.wsdl"]);
const ALL = process.env.SPECFORGE_VALUES_CORPUS_ALL === "1";
/**
 * The files `npm test` runs: proto2 (groups, required, extensions, the recursive messages that once ran the
 * generator out of memory) and proto3, well-known types with their own JSON forms (Any, Struct, Value, Duration...),
 * maps and oneofs; WSDLs with xsi:type families, choices, rpc/encoded and a large real schema (Salesforce v13).
 * SPECFORGE_VALUES_CORPUS_ONLY=a,b adds files (paths under shared/corpus) to the sample.
 */
const SAMPLE = new Set([
  ...(process.env.SPECFORGE_VALUES_CORPUS_ONLY ?? "").split(",").filter(Boolean),
  "proto/google/protobuf/test_messages_proto2.proto",
  "proto/google/protobuf/test_messages_proto3.proto",
  "proto/google/protobuf/struct.proto",
  "proto/tensorflow/core/example/feature.proto",
  "proto/grpc/health/v1/health.proto",
  "wsdl/sf-partner-v13.wsdl",
  "wsdl/nodesoap-mixed-sequence.wsdl",
  "wsdl/nodesoap-rpcexample.wsdl",
  "wsdl/cdyne-weather.wsdl",
]);

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = path.join(dir, n);
    return statSync(p).isDirectory() ? walk(p) : [p];
  });
}

/**
 * Types with no finite value: test_messages_proto2's TestAllRequiredTypesProto2.required_nested_message ->
 * NestedMessage.corecursive -> TestAllRequiredTypesProto2 is a cycle of `required` fields.
 */
const NO_FINITE_VALUE = new Set(["proto:.protobuf_test_messages.proto2.TestAllRequiredTypesProto2", "proto:.protobuf_test_messages.proto2.TestAllRequiredTypesProto2.NestedMessage"]);

const every = [
  ...walk(PROTO).filter((f) => f.endsWith(".proto")),
  ...walk(WSDL).filter((f) => f.endsWith(".wsdl") && !UNREADABLE.has(path.relative(WSDL, f))),
].map((f) => path.relative(CORPUS, f));
const specs = ALL ? every : every.filter((f) => SAMPLE.has(f));

describe(`valid values for the proto and WSDL corpus (${ALL ? "every file" : "sample; SPECFORGE_VALUES_CORPUS_ALL=1 for all"})`, () => {
  it("the sample names corpus files", () => {
    for (const f of SAMPLE) expect(every, f).toContain(f);
  });

  it.each(specs)("%s", async (file) => {
    const full = path.join(CORPUS, file);
    const spec = await loadSpecForMock({ spec: full, protoPaths: [PROTO, path.dirname(full)] });
    const { checked, values, failures, roundTrips, withCodec } = checkSpec(spec, COUNT, NO_FINITE_VALUE);
    console.log(`${file}: ${checked} types, ${values} values, round trips ${JSON.stringify(roundTrips)}`);
    expect(failures).toEqual([]);
    expect(checked).toBeGreaterThan(0);
    expect(values).toBe(checked * COUNT);
    const perFormat = spec.doc.format === "proto" ? ["protobuf", "protojson"] : ["xml"];
    if (withCodec > 0) for (const c of perFormat) expect(roundTrips[c], c).toBe(withCodec * COUNT);
  }, 300_000);
});
