/**
 * protoc-gen-specforge (descriptors) reads validation options too: the fixtures compiled by protoc (with the real
 * buf/validate/validate.proto) and lowered from descriptors give validators that agree with @bufbuild/protovalidate
 * exactly as the .proto text front end's do (fewer messages per type here; agreement.test.ts has the full run).
 */
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DescMessage } from "@bufbuild/protobuf";
import { prepare, randomMessage, rng, verdicts, type Agreement } from "./harness.js";

const FIXTURES = path.join(path.dirname(fileURLToPath(import.meta.url)), "fixtures");
const PER_MESSAGE = 150;

const CASES: [string, string, string[]][] = [
  ["rules.proto", "specforge.pv.v1", ["Numbers", "Strings", "Enums", "Collections", "Messages", "Oneofs", "MessageOneof", "Nested"]],
  ["cel.proto", "specforge.cel.v1", ["Order"]],
  ["predefined.proto", "specforge.pre.v1", ["M"]],
];

const prepared = new Map<string, Agreement>();
beforeAll(async () => {
  for (const [file] of CASES) prepared.set(file, await prepare(FIXTURES, file, file, "descriptors"));
}, 120_000);
afterAll(() => {
  for (const a of prepared.values()) a.remove();
});

describe("validation options from descriptors (protoc-gen-specforge)", () => {
  for (const [file, pkg, names] of CASES) {
    it.each(names)(`${file} %s: same verdicts and rule ids as @bufbuild/protovalidate`, (name) => {
      const a = prepared.get(file)!;
      expect(a.specWarnings).toEqual([]);
      const desc = a.registry.getMessage(`${pkg}.${name}`) as DescMessage;
      const r = rng(0xd35c + name.length);
      let violations = 0;
      for (let i = 0; i < PER_MESSAGE; i++) {
        const { ours, theirs } = verdicts(a, desc, randomMessage(r, desc));
        expect(ours).toEqual(theirs);
        violations += theirs.length;
      }
      expect(violations).toBeGreaterThan(0);
    });
  }
});
