/**
 * `specforge mock` under the load the emulators pass (issue 30, item 6): for each format, CLIENTS concurrent clients ×
 * OPERATIONS calls through the generated client (REST: the webhooks seed, every operation in turn; SOAP: the partner
 * seed, every operation in turn; RPC: 100 concurrent ContentFeed.StreamEntries streams over Connect, gRPC-Web and
 * gRPC). Every call must be answered with the mock's default answer, valid by the generated validator: 0 errors.
 * Then the heap must settle within the emulators' bound.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { HttpService } from "../../src/ir/model.js";
import { loadSpecForMock, type LoadedSpec } from "../../src/mock/load.js";
import { createRestMock, mockBasePath, mockedOperations } from "../../src/mock/rest.js";
import { createRpcMock } from "../../src/mock/rpc.js";
import { bodyValue, createSoapMock, mockedSoapOperations, soapServicePaths } from "../../src/mock/soap.js";
import { ValueGenerator } from "../../src/mock/values.js";
import { clientMethodName } from "../../src/naming/property-name.js";
import { serveNode, type NodeServerHandle } from "../../src/runtime/http/node.js";
import { serveNodeHttp2, type NodeHttp2ServerHandle } from "../../src/runtime/http/node-http2.js";
import { credentials, defaultStatus, requestFor, validatorFor, type Fn } from "../helpers/mock-requests.js";
import { REPO } from "../helpers/seeds.js";
import { CLIENTS, OPERATIONS, runClients, SETTLED_BOUND_BYTES, settledHeap } from "./helpers.js";

const servers: (NodeServerHandle | NodeHttp2ServerHandle)[] = [];
afterAll(async () => {
  for (const s of servers) await s.close();
});

let rest: LoadedSpec;
let soapSpec: LoadedSpec;
let rpc: LoadedSpec;
beforeAll(async () => {
  rest = await loadSpecForMock({ spec: `${REPO}/specs/webhooks.openapi.yaml` });
  soapSpec = await loadSpecForMock({ spec: `${REPO}/specs/partner.wsdl`, cwd: REPO });
  rpc = await loadSpecForMock({ spec: `${REPO}/specs/content-stream.proto` });
}, 180_000);

/**
 * CLIENTS concurrent clients, each making OPERATIONS calls in order: `client(c)` sets client c up and gives its call
 * i, which resolves true for a right answer. Wrong answers and thrown errors are counted as errors.
 */
async function callEach(client: (c: number) => (i: number) => Promise<boolean>): Promise<{ errors: number; answered: number }> {
  let errors = 0;
  let answered = 0;
  await runClients(CLIENTS, async (c) => {
    const call = client(c);
    for (let i = 0; i < OPERATIONS; i++) {
      try {
        if (await call(i)) answered++;
        else errors++;
      } catch {
        errors++;
      }
    }
  });
  return { errors, answered };
}

describe("specforge mock under load", () => {
  it(`REST: ${CLIENTS} clients x ${OPERATIONS} calls, every answer the default one and valid`, async () => {
    const server = await serveNode(createRestMock(rest, { seed: 1 }), { port: 0, host: "127.0.0.1" });
    servers.push(server);
    const service = rest.doc.services.find((s): s is HttpService => s.kind === "http")!;
    const ops = mockedOperations(rest).map((o) => o.operation);
    const gen = new ValueGenerator(rest.doc, { int64: rest.int64, dates: rest.dates });
    const inputs = ops.map((op, i) => requestFor(rest, gen, op, i));
    const before = await settledHeap();
    const { errors, answered } = await callEach((c) => {
      const client = (rest.module[rest.names.api(0).createClient] as Fn)({ baseUrl: server.url + mockBasePath(service), auth: credentials(service) }) as Record<string, Fn>;
      return async (i) => {
        const k = (c + i) % ops.length;
        const op = ops[k]!;
        const res = (await client[rest.names.operation(op).method]!(inputs[k])) as { status: number; body: unknown };
        const issues = (validatorFor(rest, op, res.status)?.(res.body) as unknown[] | undefined) ?? [];
        return res.status === defaultStatus(op) && issues.length === 0;
      };
    });
    expect({ errors, answered }).toEqual({ errors: 0, answered: CLIENTS * OPERATIONS });
    expect((await settledHeap()) - before).toBeLessThan(SETTLED_BOUND_BYTES);
  }, 300_000);

  it(`SOAP: ${CLIENTS} clients x ${OPERATIONS} calls, every answer valid`, async () => {
    const server = await serveNode(createSoapMock(soapSpec, { seed: 1 }), { port: 0, host: "127.0.0.1" });
    servers.push(server);
    const bound = mockedSoapOperations(soapSpec.doc);
    const service = bound[0]!.service;
    const endpoint = `${server.url}${soapServicePaths(service)[0]}`;
    const create = soapSpec.module[soapSpec.names.soap(service.index).createClient] as Fn;
    const gen = new ValueGenerator(soapSpec.doc, { int64: soapSpec.int64, dates: soapSpec.dates });
    const ops = bound.map((b) => b.operation).filter((op) => op.output?.kind === "element");
    const inputs = ops.map((op) => bodyValue(soapSpec, gen, op.input, `in:${op.name}`).value);
    const validators = ops.map((op) => {
      const el = op.output?.kind === "element" ? op.output.element : undefined;
      return el?.type.kind === "ref" ? (soapSpec.module[soapSpec.names.derived(el.type.id, "validate")] as Fn | undefined) : undefined;
    });
    const before = await settledHeap();
    const { errors, answered } = await callEach((c) => {
      const client = create({ endpoint }) as Record<string, Fn>;
      return async (i) => {
        const k = (c + i) % ops.length;
        const answer = (await client[clientMethodName(ops[k]!.name, ["endpoint", "setEndpoint"])]!(inputs[k])) as { body: unknown };
        const issues = (validators[k]?.(answer.body) as unknown[] | undefined) ?? [];
        return answer.body !== undefined && issues.length === 0;
      };
    });
    expect({ errors, answered }).toEqual({ errors: 0, answered: CLIENTS * OPERATIONS });
    expect((await settledHeap()) - before).toBeLessThan(SETTLED_BOUND_BYTES);
  }, 300_000);

  it("RPC: 100 concurrent streams mixing Connect, gRPC-Web and gRPC, every message valid", async () => {
    const handler = createRpcMock(rpc, { seed: 1, streamCount: 20 });
    const h1 = await serveNode(handler, { port: 0, host: "127.0.0.1" });
    const h2 = await serveNodeHttp2(handler, { port: 0, host: "127.0.0.1" });
    servers.push(h1, h2);
    const create = rpc.module.createContentFeedClient as Fn;
    const clients = [
      create({ baseUrl: h1.url, protocol: "connect" }),
      create({ baseUrl: h1.url, protocol: "grpc-web" }),
      create({ baseUrl: h2.url, protocol: "grpc" }),
    ] as { streamEntries(input: unknown): AsyncIterable<unknown> }[];
    const validate = rpc.module.validateStreamedEntry as Fn;
    const before = await settledHeap();
    let errors = 0;
    let messages = 0;
    await runClients(100, async (c) => {
      try {
        let got = 0;
        for await (const m of clients[c % clients.length]!.streamEntries({ start: c })) {
          if ((validate(m) as unknown[]).length > 0) errors++;
          got++;
        }
        if (got !== 20) errors++;
        messages += got;
      } catch {
        errors++;
      }
    });
    expect({ errors, messages }).toEqual({ errors: 0, messages: 100 * 20 });
    expect((await settledHeap()) - before).toBeLessThan(SETTLED_BOUND_BYTES);
  }, 300_000);
});
