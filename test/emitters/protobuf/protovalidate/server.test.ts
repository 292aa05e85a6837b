/**
 * Servers validate requests when asked (`validateRequests`): a request that breaks its protovalidate rules is
 * answered invalid_argument with a buf.validate.Violations detail, over Connect (JSON) and gRPC (binary, HTTP/2);
 * the detail is decoded with @bufbuild/protovalidate's own schema. Without the option the handler sees the request.
 */
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fromBinary } from "@bufbuild/protobuf";
import { ViolationsSchema } from "@bufbuild/protovalidate/gen/buf/validate/validate_pb.js";
import { serveNode, type NodeServerHandle } from "../../../../src/runtime/http/node.js";
import { serveNodeHttp2, type NodeHttp2ServerHandle } from "../../../../src/runtime/http/node-http2.js";
import { RpcError } from "../../../../src/runtime/connect/error.js";
import { prepare, type Agreement } from "./harness.js";

const FIXTURES = path.join(path.dirname(fileURLToPath(import.meta.url)), "fixtures");

let a: Agreement;
let strict: NodeServerHandle;
let strictH2: NodeHttp2ServerHandle;
let lax: NodeServerHandle;
const seen: string[] = [];

beforeAll(async () => {
  a = await prepare(FIXTURES, "service.proto");
  const impl = {
    signUp: async (r: { name: string }) => {
      seen.push(r.name);
      return { id: `id-${r.name}` };
    },
    signUpMany: async (requests: AsyncIterable<{ name: string }>) => {
      const names: string[] = [];
      for await (const r of requests) names.push(r.name);
      return { id: names.join(",") };
    },
  };
  const handler = a.generated.createAccountsHandler(impl, { validateRequests: true });
  strict = await serveNode(handler);
  strictH2 = await serveNodeHttp2(handler);
  lax = await serveNode(a.generated.createAccountsHandler(impl));
}, 60_000);
afterAll(async () => {
  await Promise.all([strict?.close(), strictH2?.close(), lax?.close()]);
  a?.remove();
});

const BAD = { name: "a", email: "not-an-email", age: -5, labels: { long: "x" }, tags: ["ok", ""] };
const GOOD = { name: "ada", email: "ada@example.com", age: 36, labels: { env: "x" }, tags: ["t"] };

async function rejection(p: Promise<unknown>): Promise<RpcError> {
  try {
    await p;
  } catch (e) {
    expect(e).toBeInstanceOf(RpcError);
    return e as RpcError;
  }
  throw new Error("expected the call to fail");
}

function violationsOf(e: RpcError): string[] {
  expect(e.code).toBe("invalid_argument");
  const detail = e.details.find((d) => d.type === "buf.validate.Violations");
  expect(detail).toBeDefined();
  const v = fromBinary(ViolationsSchema, detail!.value);
  return v.violations.map((x) => {
    const field = x.field?.elements.map((el) => el.fieldName + (el.subscript.case === "stringKey" ? `["${el.subscript.value}"]` : el.subscript.case === "index" ? `[${el.subscript.value}]` : "")).join(".");
    return `${field} ${x.ruleId}${x.forKey ? " (key)" : ""}`;
  });
}

const EXPECTED = ["name string.min_len", "email string.email", "age int32.gte_lte", 'labels["long"] string.max_len (key)', "tags[1] string.min_len"];

describe("servers validate requests when asked", () => {
  it.each([
    ["Connect JSON", () => strict.url, { protocol: "connect", format: "json" }],
    ["Connect binary", () => strict.url, { protocol: "connect", format: "proto" }],
    ["gRPC over HTTP/2", () => strictH2.url, { protocol: "grpc" }],
  ] as const)("%s: invalid_argument with buf.validate.Violations", async (_name, url, options) => {
    const client = a.generated.createAccountsClient({ baseUrl: url(), ...options });
    const before = seen.length;
    expect(violationsOf(await rejection(client.signUp(BAD))).sort()).toEqual([...EXPECTED].sort());
    expect(seen.length).toBe(before);
    expect(await client.signUp(GOOD)).toEqual({ id: "id-ada" });
  });

  it("checks every message of a client stream", async () => {
    const client = a.generated.createAccountsClient({ baseUrl: strictH2.url, protocol: "grpc" });
    expect(await client.signUpMany([GOOD, { ...GOOD, name: "bob" }])).toEqual({ id: "ada,bob" });
    expect(violationsOf(await rejection(client.signUpMany([GOOD, { ...GOOD, name: "x" }])))).toEqual(["name string.min_len"]);
  });

  it("without validateRequests the handler sees the request", async () => {
    const client = a.generated.createAccountsClient({ baseUrl: lax.url, format: "json" });
    expect(await client.signUp(BAD)).toEqual({ id: "id-a" });
  });
});
