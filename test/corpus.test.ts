import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { nodeSpecHost } from "../src/parsers/host.js";
import { generateSpec } from "../src/pipeline/generate-files.js";
import { CORPUS, PROTO_ROOT, walk } from "./helpers/corpus-run.js";
import { typecheckFileSets } from "./helpers/typecheck.js";

/**
 * Every WSDL/XSD and .proto of the real-world corpus (../shared/corpus) goes through generate, and the output
 * must type-check under strict. Inputs we cannot handle yet are listed in KNOWN_GAPS with the reason, and the test
 * checks that they still fail with that reason (so a gap that gets fixed is noticed and removed from the list).
 */
/** Editions files (protoc's -I proto-editions -I proto: they import the well-known types from proto/). */
const EDITIONS_ROOT = path.join(CORPUS, "proto-editions");

/** corpus-relative path -> the start of the error message we expect, and why. */
const KNOWN_GAPS: Record<string, { error: string; reason: string }> = {
  "wsdl/nodesoap-typeof_null_extend_check.wsdl": {
    error: "wsdl/nodesoap-typeof_null_extend_check.wsdl:83:9: unknown element 'qas:QAFault'",
    reason: "a message part names an element the file never declares (its missing types are warnings, typed anyType)",
  },
  "wsdl/strongsoap-xsi-type-readMetadata.wsdl": {
    error: "wsdl/strongsoap-xsi-type-readMetadata.wsdl:94:3: unknown element 'tns:CallOptions'",
    reason: "a trimmed test fixture whose header messages use elements its schema does not declare",
  },
  "wsdl/onvif/devicemgmt.wsdl": {
    error: "wsdl/onvif/devicemgmt.wsdl:1979:6: unknown type 'tt:DeviceEntity' ({http://www.onvif.org/ver10/schema}DeviceEntity); the schema of 'http://www.onvif.org/ver10/schema' was not read (its schemaLocation at wsdl/onvif/devicemgmt.wsdl:14:4 names no file)",
    reason: "imports ../../../ver10/schema/onvif.xsd, outside the corpus tree: generated with an XML catalog (--catalog) in test/parsers/xml/catalog.test.ts",
  },
  "wsdl/onvif/onvif.xsd": {
    error: "schema import 'http://www.w3.org/2005/05/xmlmime' is remote and specforge never fetches",
    reason: "imports schemas over http; specforge never fetches remote schemas (--catalog maps them: test/parsers/xml/catalog.test.ts)",
  },
  "wsdl/onvif/b-2.xsd": {
    error: "schema import 'http://www.w3.org/2005/08/addressing/ws-addr.xsd' is remote and specforge never fetches",
    reason: "imports WS-Addressing over http; specforge never fetches remote schemas (--catalog maps them: test/parsers/xml/catalog.test.ts)",
  },
  "wsdl/onvif/bf-2.xsd": {
    error: "schema import 'http://www.w3.org/2005/08/addressing/ws-addr.xsd' is remote and specforge never fetches",
    reason: "imports WS-Addressing over http; specforge never fetches remote schemas (--catalog maps them: test/parsers/xml/catalog.test.ts)",
  },
  "wsdl/onvif/r-2.xsd": {
    error: "schema import 'http://docs.oasis-open.org/wsrf/bf-2.xsd' is remote and specforge never fetches",
    reason: "imports WS-BaseFaults over http; specforge never fetches remote schemas (--catalog maps them: test/parsers/xml/catalog.test.ts)",
  },
};

const host = nodeSpecHost({ cwd: CORPUS, includeDirs: [PROTO_ROOT] });
const editionsHost = nodeSpecHost({ cwd: CORPUS, includeDirs: [EDITIONS_ROOT, PROTO_ROOT] });
const inputs = [
  ...[...walk(path.join(CORPUS, "wsdl"), /\.(wsdl|xsd)$/), ...walk(PROTO_ROOT, /\.proto$/)].map((file) => ({ file, host })),
  ...walk(EDITIONS_ROOT, /\.proto$/).map((file) => ({ file, host: editionsHost })),
];

/** What generating one input gave: its output files, or the error it threw. */
type Outcome = { files: Map<string, string>; typeCount: number } | { error: unknown };

const outcomes = new Map<string, Outcome>();
let diagnostics = new Map<string, string[]>();

beforeAll(() => {
  for (const { file, host } of inputs) {
    const rel = corpusRelative(file);
    try {
      const out = generateSpec({ file, display: rel }, host);
      outcomes.set(rel, { files: new Map(out.files.map((f) => [f.path, f.content])), typeCount: out.doc.types.length + out.doc.services.length });
    } catch (error) {
      outcomes.set(rel, { error });
    }
  }
  // One program for every output: the runtime and lib.dom are checked once instead of once per input.
  const sets = new Map<string, Map<string, string>>();
  for (const [rel, outcome] of outcomes) if ("files" in outcome) sets.set(rel, outcome.files);
  diagnostics = typecheckFileSets(sets);
  // Generating the whole corpus and type-checking it as one program: ~60 s alone on 2 cores, and more than the
  // project's 120 s hook limit when the machine is busy with the rest of the suite.
}, 600_000);

function corpusRelative(file: string): string {
  return path.relative(CORPUS, file).split(path.sep).join("/");
}

describe("corpus", () => {
  it("finds the corpus", () => {
    expect(inputs.length).toBeGreaterThan(40);
  });

  for (const { file } of inputs) {
    const rel = corpusRelative(file);
    const gap = KNOWN_GAPS[rel];
    it(gap ? `${rel} (known gap: ${gap.reason})` : `${rel} generates strict-clean TypeScript`, () => {
      const outcome = outcomes.get(rel)!;
      if (gap) {
        expect(outcome).toHaveProperty("error");
        expect(() => { throw (outcome as { error: unknown }).error; }).toThrow(gap.error);
        return;
      }
      if ("error" in outcome) throw outcome.error;
      expect(outcome.typeCount).toBeGreaterThan(0);
      expect(diagnostics.get(rel)).toEqual([]);
    });
  }
});
