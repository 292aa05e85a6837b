/**
 * protovalidate rules: our generated `validate<T>` (standard rules and CEL compiled at generation time) against
 * @bufbuild/protovalidate (with @bufbuild/protobuf messages) on the same messages: a valid sign-up request, a valid
 * order with CEL rules, and an invalid message with many violations. Inputs come from the agreement test's fixtures
 * (test/emitters/protobuf/protovalidate/fixtures); both sides see the same message, decoded from the same bytes.
 */
import path from "node:path";
import { create, toBinary, type DescMessage } from "@bufbuild/protobuf";
import { prepare } from "../test/emitters/protobuf/protovalidate/harness.js";
import { compare, type BenchResult, type BenchSuite } from "./harness.js";

const FIXTURES = path.resolve(import.meta.dirname, "../test/emitters/protobuf/protovalidate/fixtures");

export const suite: BenchSuite = {
  name: "protovalidate",
  async run(): Promise<BenchResult[]> {
    const results: BenchResult[] = [];
    const cases: [string, string, string, Record<string, unknown>][] = [
      ["service.proto", "specforge.pvsvc.v1.SignUpRequest", "validate SignUpRequest (valid, 5 rules)", { name: "ada", email: "ada@example.com", age: 36, labels: { env: "x" }, tags: ["t", "u"] }],
      ["cel.proto", "specforge.cel.v1.Order", "validate Order (valid, 28 CEL rules)", {
        start: 1n, end: 2n, email: "a@example.com", lines: [{ sku: "a", qty: 1, price: 2 }, { sku: "b", qty: 2, price: 0 }], level: 1,
        tags: ["x"], labels: { env: "prod", "x-a": "1" }, retries: 2, ratio: 0.5, blob: new Uint8Array([1]), main: { sku: "m", qty: 3 }, host: "example.com", offset: 1,
      }],
      ["rules.proto", "specforge.pv.v1.Strings", "validate Strings (invalid, 40 string rules)", {
        name: "a", email: "not-an-email", hostname: "-bad", ip: "1.2.3", uri: "http://example.com/x", uuid: "nope", requiredName: "", mixed: "b",
      }],
    ];
    for (const [file, typeName, label, init] of cases) {
      const a = await prepare(FIXTURES, file);
      try {
        const desc = a.registry.getMessage(typeName) as DescMessage;
        const theirs = create(desc, init as never);
        const shortName = typeName.slice(typeName.lastIndexOf(".") + 1);
        const ours = a.generated[`decode${shortName}`](toBinary(desc, theirs));
        const validate = a.generated[`validate${shortName}`] as (m: unknown) => unknown[];
        results.push(compare(label, () => validate(ours), { "@bufbuild/protovalidate": () => a.validator.validate(desc, theirs) }));
      } finally {
        a.remove();
      }
    }
    return results;
  },
};
