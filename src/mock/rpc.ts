/**
 * The gRPC / Connect mock: every method of every service of a .proto, served by the spec's generated handler
 * (`create<Service>Handler`: Connect, gRPC-Web and gRPC, binary and JSON, compression, deadlines, and protovalidate
 * rules checked with `validateRequests`, a broken request answered `invalid_argument` with the violations as a
 * detail) with an implementation that answers from the spec alone: messages of the output type drawn by the value
 * generator until the generated validator accepts them.
 *
 * - unary: one message; client streaming: one message once the client's stream ended (every request read);
 * - server streaming: `streamCount` messages (default 3), each a new draw;
 * - bidirectional: one message per request message, as the requests arrive.
 *
 * Without `dynamic`, the same call gets the same answers (values are seeded by the seed, the method and the
 * message's place in the stream).
 */
import type { IrDocument, RpcMethod, RpcService, TypeId } from "../ir/model.js";
import { connectServiceNames } from "../emitters/proto-http/emit-connect.js";
import type { Names } from "../naming/assign-names.js";
import type { LoadedSpec } from "./load.js";
import type { MockLogEntry, MockOptions } from "./rest.js";
import { ValueGenerator } from "./values.js";

type Fn = (...args: unknown[]) => unknown;
type Handler = (request: Request) => Promise<Response>;

export interface RpcMockOptions extends MockOptions {
  /** Messages per server stream (default 3). */
  readonly streamCount?: number;
}

/** The methods an RPC mock serves: every method of every proto service, with the property names the code uses. */
export function mockedRpcMethods(doc: IrDocument, names: Names): { service: RpcService; method: RpcMethod; property: string; path: string }[] {
  return connectServiceNames(doc, names).flatMap(({ service, methods }) =>
    methods.map(({ method, property }) => ({ service, method, property, path: `/${service.fullName}/${method.name}` })),
  );
}

/** A web-standard handler answering every method of the spec's services over Connect, gRPC-Web and gRPC. */
export function createRpcMock(spec: LoadedSpec, options: RpcMockOptions = {}): Handler {
  const gen = new ValueGenerator(spec.doc, { int64: spec.int64, dates: spec.dates });
  const seed = String(options.seed ?? "specforge");
  const count = options.streamCount ?? 3;
  let counter = 0;
  const notes = new Map<string, string>();
  const draw = (id: TypeId, s: string): unknown => {
    const validate = spec.module[spec.names.derived(id, "validate")] as Fn | undefined;
    const accept = (v: unknown) => (validate ? (validate(v) as unknown[]).length === 0 : true);
    const drawn = gen.validValue((x) => gen.value(id, x), accept, s);
    if (drawn) return drawn.value;
    notes.set(id, "no generated value passed the validator within the tries; sent the last one drawn");
    return gen.value(id, s);
  };
  const routes = new Map<string, Handler>();
  for (const { service, names, methods } of connectServiceNames(spec.doc, spec.names)) {
    const create = spec.module[names.createHandler] as Fn | undefined;
    if (!create) throw new Error(`generated code has no ${names.createHandler}`);
    const impl: Record<string, Fn> = {};
    for (const { method, property } of methods) {
      const base = () => (options.dynamic ? `${seed}:${method.name}:${counter++}` : `${seed}:${service.fullName}/${method.name}`);
      const out = method.output;
      if (!method.clientStreaming && !method.serverStreaming) impl[property] = async () => draw(out, base());
      else if (!method.clientStreaming) {
        impl[property] = async function* () {
          const s = base();
          for (let i = 0; i < count; i++) yield draw(out, `${s}:${i}`);
        };
      } else if (!method.serverStreaming) {
        impl[property] = async (requests: unknown) => {
          for await (const _ of requests as AsyncIterable<unknown>) void _;
          return draw(out, base());
        };
      } else {
        impl[property] = async function* (requests: unknown) {
          const s = base();
          let i = 0;
          for await (const _ of requests as AsyncIterable<unknown>) {
            void _;
            yield draw(out, `${s}:${i++}`);
          }
        };
      }
    }
    const handler = create(impl, { validateRequests: true }) as Handler;
    for (const { method } of methods) routes.set(`/${service.fullName}/${method.name}`, handler);
  }
  return async (request) => {
    const url = new URL(request.url);
    const handler = routes.get(url.pathname);
    const response = handler
      ? await handler(request)
      : new Response(JSON.stringify({ code: "unimplemented", message: `no method ${url.pathname}` }), { status: 404, headers: { "content-type": "application/json" } });
    if (options.delayMs !== undefined && options.delayMs > 0) await new Promise((r) => setTimeout(r, options.delayMs));
    const method = handler ? url.pathname.slice(1) : undefined;
    // A gRPC error sent at once (trailers-only) has its status in the headers; a Connect unary error in the status.
    const grpcStatus = response.headers.get("grpc-status");
    const note = grpcStatus !== null && grpcStatus !== "0" ? `grpc-status ${grpcStatus}${response.headers.get("grpc-message") ? `: ${decodeURIComponent(response.headers.get("grpc-message")!)}` : ""}` : undefined;
    const entry: MockLogEntry = { method: request.method, path: url.pathname, status: response.status, ...(method ? { operation: method, source: "generated" as const } : {}), ...(note ? { note } : {}) };
    options.log?.(entry);
    return response;
  };
}
