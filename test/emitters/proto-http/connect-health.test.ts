import protobuf from "protobufjs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ConnectError } from "../../../src/runtime/connect/error.js";
import type { HttpHandler } from "../../../src/runtime/http/handler.js";
import { bodyOf } from "../../../src/runtime/http/message-codec.js";
import { serveNode, type NodeServerHandle } from "../../../src/runtime/http/node.js";
import { HEALTH_PROTO } from "./emit.helpers.js";
import { generateToTemp, type TempOutput } from "./generate-temp.js";

/** The shapes of generated/health/connect.ts this test uses (the module is generated at test time). */
type Status = string | number;
interface HealthClient {
  check(request: { service: string }, options?: { timeoutMs?: number }): Promise<{ status: Status }>;
  list(request: object): Promise<{ statuses?: Record<string, { status: Status }> }>;
  watch(request: { service: string }): AsyncIterable<{ status: Status }>;
}
interface HealthModule {
  createHealthClient(options: { baseUrl: string; format?: "proto" | "json"; fetch?: typeof fetch }): HealthClient;
  createHealthHandler(impl: {
    check(request: { service: string }): Promise<{ status: Status }>;
    list(request: object): Promise<{ statuses: Record<string, { status: Status }> }>;
    watch(request: { service: string }): AsyncIterable<{ status: Status }>;
  }): HttpHandler;
}

const STATUSES: Record<string, Status> = { "": "SERVING", "content.Feed": "NOT_SERVING" };

let out: TempOutput;
let health: HealthModule;
let server: NodeServerHandle;
const root = protobuf.loadSync(HEALTH_PROTO);
const CheckRequest = root.lookupType("grpc.health.v1.HealthCheckRequest");
const CheckResponse = root.lookupType("grpc.health.v1.HealthCheckResponse");

beforeAll(async () => {
  out = generateToTemp(HEALTH_PROTO);
  health = (await import(`${out.dir}/connect.ts`)) as HealthModule;
  server = await serveNode(
    health.createHealthHandler({
      check: async ({ service }) => {
        const status = Object.hasOwn(STATUSES, service) ? STATUSES[service] : undefined;
        if (status === undefined) throw new ConnectError("not_found", `unknown service ${service}`);
        return { status };
      },
      list: async () => ({ statuses: Object.fromEntries(Object.entries(STATUSES).map(([k, status]) => [k, { status }])) }),
      async *watch({ service }) {
        yield { status: STATUSES[service] ?? "SERVICE_UNKNOWN" };
        yield { status: "SERVING" };
      },
    }),
  );
});

afterAll(async () => {
  await server?.close();
  out?.remove();
});

describe("grpc.health.v1.Health over Connect (generated client and server)", () => {
  it("streams the server-streaming Watch method", async () => {
    const seen: Status[] = [];
    for await (const answer of health.createHealthClient({ baseUrl: server.url }).watch({ service: "content.Feed" })) seen.push(answer.status);
    expect(seen).toEqual(["NOT_SERVING", "SERVING"]);
  });

  it.each(["proto", "json"] as const)("Check and List with %s", async (format) => {
    const client = health.createHealthClient({ baseUrl: server.url, format });
    expect(await client.check({ service: "" })).toMatchObject({ status: "SERVING" });
    expect(await client.check({ service: "content.Feed" })).toMatchObject({ status: "NOT_SERVING" });
    const list = await client.list({});
    expect(Object.keys(list.statuses ?? {}).sort()).toEqual(["", "content.Feed"]);
    expect(list.statuses?.["content.Feed"]?.status).toBe("NOT_SERVING");
  });

  it.each(["proto", "json"] as const)("an unknown service is a not_found ConnectError (%s)", async (format) => {
    const error = await health.createHealthClient({ baseUrl: server.url, format }).check({ service: "nope" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectError);
    expect((error as ConnectError).code).toBe("not_found");
    expect((error as ConnectError).rawMessage).toBe("unknown service nope");
  });

  it("the server speaks the wire format protobufjs does", async () => {
    const response = await fetch(`${server.url}/grpc.health.v1.Health/Check`, {
      method: "POST",
      headers: { "content-type": "application/proto", "connect-protocol-version": "1" },
      body: bodyOf(CheckRequest.encode({ service: "content.Feed" }).finish()),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/proto");
    const decoded = CheckResponse.decode(new Uint8Array(await response.arrayBuffer()));
    expect(CheckResponse.toObject(decoded, { enums: String })).toEqual({ status: "NOT_SERVING" });
  });

  it("the server answers ProtoJSON as the Connect JSON codec writes it", async () => {
    const response = await fetch(`${server.url}/grpc.health.v1.Health/Check`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ service: "" }),
    });
    expect(await response.json()).toEqual({ status: "SERVING" });
  });

  it("the client sends what protobufjs decodes, to any Connect server", async () => {
    const seen: { service: string; contentType: string | null }[] = [];
    const fake = await serveNode(async (request) => {
      const message = CheckRequest.decode(new Uint8Array(await request.arrayBuffer()));
      seen.push({ service: (message as unknown as { service: string }).service, contentType: request.headers.get("content-type") });
      const body = CheckResponse.encode({ status: 3 }).finish();
      return new Response(bodyOf(body), { headers: { "content-type": "application/proto" } });
    });
    try {
      const answer = await health.createHealthClient({ baseUrl: fake.url }).check({ service: "svc" });
      expect(answer.status).toBe("SERVICE_UNKNOWN");
      expect(seen).toEqual([{ service: "svc", contentType: "application/proto" }]);
    } finally {
      await fake.close();
    }
  });

  it("a request body that is not a HealthCheckRequest is invalid_argument", async () => {
    const response = await fetch(`${server.url}/grpc.health.v1.Health/Check`, {
      method: "POST",
      headers: { "content-type": "application/proto" },
      body: new Uint8Array([0x0a, 0x05, 0x61]), // field 1, length 5, only 1 byte follows
    });
    expect(response.status).toBe(400);
    expect((await response.json()).code).toBe("invalid_argument");
  });
});
