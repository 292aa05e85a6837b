/**
 * `specforge mock` on every spec of shared/corpus that has operations (issue 30): OpenAPI documents, WSDLs with
 * services and .proto files with services. Each is mocked in this process (code generated in memory), served over
 * HTTP on 127.0.0.1, and every operation is called once through the spec's generated client with a generated valid
 * input; every answer must pass the generated validator of what the operation returns. The operations served are
 * counted per format and printed.
 *
 * Stripe and DigitalOcean (402 and 408 operations; generating and transpiling each takes a minute or more on a
 * shared machine the first time) run only with SPECFORGE_MOCK_CORPUS_BIG=1.
 *
 *   nice npx vitest run test/mock/corpus-mock.test.ts
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { soapBindings, type BoundBody } from "../../src/emitters/soap-client/bound-operations.js";
import type { HttpOperation, HttpService, TypeExpr } from "../../src/ir/model.js";
import { loadSpecForMock, type LoadedSpec } from "../../src/mock/load.js";
import { createRestMock, mockBasePath, mockedOperations } from "../../src/mock/rest.js";
import { createRpcMock, mockedRpcMethods } from "../../src/mock/rpc.js";
import { bodyValue, createSoapMock, mockedSoapOperations, soapServicePaths } from "../../src/mock/soap.js";
import { ValueGenerator } from "../../src/mock/values.js";
import { connectServiceNames } from "../../src/emitters/proto-http/emit-connect.js";
import { clientMethodName } from "../../src/naming/property-name.js";
import { serveNode, type NodeServerHandle } from "../../src/runtime/http/node.js";
import { serveNodeHttp2, type NodeHttp2ServerHandle } from "../../src/runtime/http/node-http2.js";
import { SHARED } from "../helpers/seeds.js";
import { credentials, defaultStatus, requestFor, validatorFor } from "../helpers/mock-requests.js";

type Fn = (...args: any[]) => any; // eslint-disable-line @typescript-eslint/no-explicit-any

const CORPUS = path.join(SHARED, "corpus");
const BIG = process.env.SPECFORGE_MOCK_CORPUS_BIG === "1";

function files(dir: string, test: (file: string) => boolean): string[] {
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const file = path.join(dir, name);
    if (statSync(file).isDirectory()) out.push(...files(file, test));
    else if (test(file)) out.push(file);
  }
  return out;
}

const rel = (file: string) => path.relative(CORPUS, file);

/**
 * Corpus WSDLs that are fragments of a larger contract (node-soap and strong-soap test inputs that reference types
 * and elements from files not in the corpus): they are refused with a located error, which is what is checked.
 */
const INCOMPLETE: Record<string, RegExp> = {
  "wsdl/nodesoap-typeof_null_extend_check.wsdl": /nodesoap-typeof_null_extend_check\.wsdl:\d+:\d+: unknown element 'qas:QAFault'/,
  "wsdl/strongsoap-xsi-type-readMetadata.wsdl": /strongsoap-xsi-type-readMetadata\.wsdl:\d+:\d+: unknown element 'tns:CallOptions'/,
};

/**
 * OpenAPI documents: a top-level `openapi:` / `swagger:` (the parts a document $refs are not documents); in JSON the
 * key may come anywhere (Stripe's comes after its components), at the first level of indentation.
 */
const OPENAPI = files(path.join(CORPUS, "openapi"), (f) => {
  if (/\.ya?ml$/.test(f)) return /^(---\s*\n)?\s*(openapi|swagger)\s*:/m.test(readFileSync(f, "utf8").slice(0, 4000));
  return f.endsWith(".json") && /^(\{)?\s{0,2}"(openapi|swagger)"\s*:\s*"\d/m.test(readFileSync(f, "utf8"));
})
  .filter((f) => BIG || !/\/(stripe|digitalocean)\//.test(f));
/** WSDLs declaring a wsdl:service. */
const WSDL = files(path.join(CORPUS, "wsdl"), (f) => f.endsWith(".wsdl") && /<(\w+:)?service\b/.test(readFileSync(f, "utf8")));
/** .proto files declaring a service. */
const PROTO = [
  ...files(path.join(CORPUS, "proto"), (f) => f.endsWith(".proto") && /^service\s/m.test(readFileSync(f, "utf8"))).map((f) => ({ file: f, include: path.join(CORPUS, "proto") })),
  ...files(path.join(CORPUS, "proto-editions"), (f) => f.endsWith(".proto") && /^service\s/m.test(readFileSync(f, "utf8"))).map((f) => ({ file: f, include: path.join(CORPUS, "proto-editions") })),
];

/**
 * Stripe operations whose generated valid request the generated server refuses after the form round trip
 * (application/x-www-form-urlencoded through the generated client, then the generated server's form decoder): a
 * required array that is empty cannot be written in a form at all, and a form field whose schema is anyOf ["now",
 * integer] is kept as text by the decoder, so the integer alternative never matches. Gaps of the REST form codecs,
 * not of the mock: the test checks they are refused for exactly these reasons, and counts them apart.
 */
const KNOWN_FORM_GAPS: Record<string, RegExp> = {
  "openapi/stripe/spec3.json PostBillingPortalConfigurations": /"\/features\/subscription_update\/default_allowed_updates","rule":"required"/,
  "openapi/stripe/spec3.json PostSourcesSourceVerify": /"\/values","rule":"required"/,
  "openapi/stripe/spec3.json PostSubscriptionSchedulesSchedule": /"\/phases\/\d+\/items","rule":"required"/,
  "openapi/stripe/spec3.json PostCustomersCustomerSubscriptionsSubscriptionExposedId": /"\/trial_end","rule":"enum"/,
  "openapi/stripe/spec3.json PostSubscriptionItemsSubscriptionItemUsageRecords": /"\/timestamp","rule":"enum"/,
  "openapi/stripe/spec3.json PostSubscriptionsSubscriptionExposedId": /"\/trial_end","rule":"enum"/,
};


const served = { openapi: 0, wsdl: 0, proto: 0 };
const perSpec: string[] = [];
const servers: { close(): Promise<void> }[] = [];
afterAll(async () => {
  for (const s of servers) await s.close();
  console.log(`operations served: ${served.openapi} OpenAPI, ${served.wsdl} SOAP, ${served.proto} RPC; total ${served.openapi + served.wsdl + served.proto}\n${perSpec.join("\n")}`);
});

async function listen(handler: (r: Request) => Promise<Response>): Promise<NodeServerHandle> {
  const server = await serveNode(handler, { port: 0, host: "127.0.0.1" });
  servers.push(server);
  return server;
}

function validatorOfType(spec: LoadedSpec, type: TypeExpr): Fn | undefined {
  return type.kind === "ref" ? (spec.module[spec.names.derived(type.id, "validate")] as Fn | undefined) : undefined;
}

/**
 * The issues of a JSON answer as it came over the wire: through the generated decoder of the declared type when
 * there is one (it revives what JSON cannot hold: format byte -> Uint8Array, 64-bit integers, dates; the generated
 * REST client returns bodies as parsed JSON, without reviving), else the generated validator.
 */
function jsonAnswerIssues(spec: LoadedSpec, op: HttpOperation, status: number, body: unknown): unknown[] {
  const validate = validatorFor(spec, op, status);
  if (!validate) return [];
  const declared = op.responses.find((x) => x.status === String(status)) ?? op.responses.find((x) => x.status === `${String(status)[0]}XX`) ?? op.responses.find((x) => x.status === "default");
  const content = declared?.contents.find((x) => /json/.test(x.mediaType)) ?? declared?.contents[0];
  const decode = content?.type.kind === "ref" ? (spec.module[spec.names.derived(content.type.id, "decodeJson")] as Fn | undefined) : undefined;
  if (!decode || body === undefined) return validate(body) as unknown[];
  try {
    return validate(decode(JSON.stringify(body))) as unknown[];
  } catch (error) {
    return (error as { issues?: unknown[] }).issues ?? [String(error)];
  }
}

/** The issues of a SOAP output: its element's type validator, or each rpc part's. */
function soapOutputIssues(spec: LoadedSpec, body: BoundBody, value: unknown): unknown[] {
  if (body.kind === "element") {
    if (value === null && body.element.nullable) return [];
    return (validatorOfType(spec, body.element.type)?.(value) as unknown[] | undefined) ?? [];
  }
  if (body.parts.length === 0) return [];
  const values = body.parts.length === 1 ? { [body.parts[0]!.name]: value } : (value as Record<string, unknown>);
  return body.parts.flatMap((p) => (validatorOfType(spec, p.type)?.(values[p.name]) as unknown[] | undefined) ?? []);
}

describe("specforge mock on every corpus spec with operations", () => {
  it("finds the corpus specs", () => {
    expect(OPENAPI.length).toBeGreaterThanOrEqual(15);
    expect(WSDL.length).toBeGreaterThanOrEqual(10);
    expect(PROTO.length).toBeGreaterThanOrEqual(4);
  });

  it.each(OPENAPI.map(rel))("OpenAPI %s", async (name) => {
    const spec = await loadSpecForMock({ spec: path.join(CORPUS, name) });
    const server = await listen(createRestMock(spec));
    const gen = new ValueGenerator(spec.doc);
    let n = 0;
    let refused = 0;
    for (const [index, service] of spec.doc.services.entries()) {
      if (service.kind !== "http") continue;
      const client = (spec.module[spec.names.api(index).createClient] as Fn)({ baseUrl: server.url + mockBasePath(service as HttpService), auth: credentials(service) }) as Record<string, Fn>;
      for (const op of service.operations) {
        const call = client[spec.names.operation(op).method]!(requestFor(spec, gen, op, 3)) as Promise<{ status: number; body: unknown }>;
        const gap = KNOWN_FORM_GAPS[`${name} ${op.name}`];
        if (gap) {
          const res = (await call.catch((e: unknown) => e)) as { status: number; body: unknown };
          expect(res.status, op.name).toBe(400);
          expect(JSON.stringify(res.body), op.name).toMatch(gap);
          refused++;
          continue;
        }
        if (op.responses.length === 0) {
          // Nothing declared: a 500 saying so (Prism's NO_RESPONSE_DEFINED), which the client reports as undeclared.
          await expect(call, op.name).rejects.toMatchObject({ status: 500 });
        } else {
          const res = await call;
          expect(res.status, op.name).toBe(defaultStatus(op));
          expect(jsonAnswerIssues(spec, op, res.status, res.body), `${name} ${op.name}`).toEqual([]);
        }
        n++;
      }
    }
    expect(n + refused).toBe(mockedOperations(spec).length);
    served.openapi += n;
    perSpec.push(`  ${name}: ${n}${refused > 0 ? ` (+ ${refused} refused: form codec gaps)` : ""}`);
  }, BIG ? 600_000 : 120_000);

  it.each(WSDL.map(rel))("WSDL %s", async (name) => {
    if (INCOMPLETE[name]) {
      await expect(loadSpecForMock({ spec: path.join(CORPUS, name) })).rejects.toThrow(INCOMPLETE[name]);
      perSpec.push(`  ${name}: refused (incomplete contract, located error)`);
      return;
    }
    const spec = await loadSpecForMock({ spec: path.join(CORPUS, name) });
    const ops = mockedSoapOperations(spec.doc);
    const server = await listen(createSoapMock(spec));
    const gen = new ValueGenerator(spec.doc, { int64: spec.int64, dates: spec.dates });
    let n = 0;
    for (const { service, operation: op } of ops) {
      const client = (spec.module[spec.names.soap(service.index).createClient] as Fn)({ endpoint: `${server.url}${soapServicePaths(service)[0]}`, soapVersion: service.binding.version }) as Record<string, Fn>;
      const input = bodyValue(spec, gen, op.input, `in:${op.name}`).value;
      const answer = (await client[clientMethodName(op.name, ["endpoint", "setEndpoint"])]!(input)) as { body: unknown } | undefined;
      if (op.output !== undefined) expect(soapOutputIssues(spec, op.output, answer!.body), `${name} ${op.name}`).toEqual([]);
      n++;
    }
    // Operations the generated SOAP code does not bind (see bound-operations.ts) are listed, not served.
    const skipped = soapBindings(spec.doc).flatMap((s) => s.skipped.map((k) => `${k.name}: ${k.reason}`));
    perSpec.push(`  ${name}: ${n}${skipped.length > 0 ? ` (not bound: ${skipped.join("; ")})` : ""}`);
    served.wsdl += n;
  }, 120_000);

  it.each(PROTO.map((p) => rel(p.file)))("proto %s", async (name) => {
    const entry = PROTO.find((p) => rel(p.file) === name)!;
    const spec = await loadSpecForMock({ spec: entry.file, protoPaths: [entry.include] });
    const handler = createRpcMock(spec, { streamCount: 2 });
    const h2: NodeHttp2ServerHandle = await serveNodeHttp2(handler, { port: 0, host: "127.0.0.1" });
    servers.push(h2);
    const gen = new ValueGenerator(spec.doc, { int64: spec.int64, dates: spec.dates });
    const valid = (id: string, seed: string) => {
      const validate = validatorOfType(spec, { kind: "ref", id } as TypeExpr);
      return gen.validValue((s) => gen.value(id as never, s), (v) => !validate || (validate(v) as unknown[]).length === 0, seed)!.value;
    };
    async function* two(id: string) {
      yield valid(id, "a");
      yield valid(id, "b");
    }
    let n = 0;
    for (const { names, methods } of connectServiceNames(spec.doc, spec.names)) {
      // gRPC over HTTP/2 carries all four kinds (Connect and gRPC-Web are covered by test/mock/rpc-mock.test.ts).
      const client = (spec.module[names.createClient] as Fn)({ baseUrl: h2.url, protocol: "grpc" }) as Record<string, Fn>;
      for (const { method, property } of methods) {
        const validate = validatorOfType(spec, { kind: "ref", id: method.output } as TypeExpr);
        const check = (m: unknown) => expect(validate ? validate(m) : [], `${name} ${method.name}`).toEqual([]);
        const call = client[property]!;
        if (!method.clientStreaming && !method.serverStreaming) check(await call(valid(method.input, "in")));
        else if (!method.clientStreaming) {
          const got: unknown[] = [];
          for await (const m of call(valid(method.input, "in")) as AsyncIterable<unknown>) got.push(m);
          expect(got).toHaveLength(2);
          got.forEach(check);
        } else if (!method.serverStreaming) check(await call(two(method.input)));
        else {
          const got: unknown[] = [];
          for await (const m of call(two(method.input)) as AsyncIterable<unknown>) got.push(m);
          expect(got).toHaveLength(2);
          got.forEach(check);
        }
        n++;
      }
    }
    expect(n).toBe(mockedRpcMethods(spec.doc, spec.names).length);
    perSpec.push(`  ${name}: ${n}`);
    served.proto += n;
  }, 120_000);
});
