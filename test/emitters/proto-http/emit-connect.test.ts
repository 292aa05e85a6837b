import { describe, expect, it } from "vitest";
import { emitConnect } from "../../../src/emitters/proto-http/emit-connect.js";
import { GREETER_PROTO, HEALTH_PROTO, protoContext } from "./emit.helpers.js";

describe("connect.ts", () => {
  const greeter = emitConnect(protoContext(GREETER_PROTO)).render();

  it("declares a client and an implementation per service, every method kind", () => {
    expect(greeter).toContain("export interface GreeterClient {\n");
    expect(greeter).toContain("  greet(request: GreetRequest, options?: RpcCallOptions): Promise<GreetResponse>;\n");
    expect(greeter).toContain("  fail(request: GreetRequest, context: RpcHandlerContext): Promise<Empty>;\n");
    expect(greeter).toContain("export function createCatalogClient(options: RpcClientOptions): CatalogClient {\n");
    expect(greeter).toContain("export function createCatalogHandler(impl: CatalogImplementation, options?: RpcHandlerOptions): HttpHandler {\n");
    for (const streaming of ["chat", "upload", "subscribe"]) expect(greeter).toMatch(new RegExp(`^  ${streaming}\\(`, "m"));
  });

  it("types streams as async iterables on both sides", () => {
    expect(greeter).toMatch(/^  chat\(requests: AsyncIterable<\w+> \| Iterable<\w+>, options\?: RpcCallOptions\): AsyncIterable<\w+>;$/m);
    expect(greeter).toMatch(/^  upload\(requests: AsyncIterable<\w+>, context: RpcHandlerContext\): Promise<\w+>;$/m);
    expect(greeter).toMatch(/^  subscribe\(request: \w+, context: RpcHandlerContext\): AsyncIterable<\w+>;$/m);
    expect(greeter).toContain("Bidirectional streaming: needs HTTP/2");
  });

  it("routes each method by its procedure path and codecs", () => {
    expect(greeter).toContain(
      [
        "const greeterGreetProcedure: RpcProcedure<GreetRequest, GreetResponse> = {",
        '  path: "/specforge.test.v1.Greeter/Greet",',
        '  kind: "unary",',
        "  input: greetRequestCodec,",
        "  output: greetResponseCodec,",
        "};",
      ].join("\n"),
    );
    expect(greeter).toContain("    greet: (request, callOptions) => rpcCallUnary(client, greeterGreetProcedure, request, callOptions),\n");
    expect(greeter).toContain("      rpcUnaryRoute(catalogListItemsProcedure, (request, context) => impl.listItems(request, context)),\n");
  });

  it("imports the per-message functions of the codec artifacts and nothing but the runtime besides", () => {
    const imports = greeter.split("\n").filter((l) => l.startsWith("import "));
    expect(imports.map((l) => l.replace(/^.* from /, ""))).toEqual(['"./protobuf.js";', '"./protojson.js";', '"./types.js";', '"specforge/runtime";']);
    expect(greeter).toContain("  encode: encodeGreetRequest,\n  decode: decodeGreetRequest,\n  toJson: toJsonGreetRequest,\n  fromJson: fromJsonGreetRequest,\n");
  });

  it("escapes spec text in doc comments", () => {
    expect(greeter).toContain("A comment with *\\/ must not end the doc comment early.");
    expect(greeter.match(/\*\//g)?.length).toBe(greeter.match(/\/\*\*/g)?.length);
  });

  it("emits the grpc health service with its server-streaming Watch", () => {
    const health = emitConnect(protoContext(HEALTH_PROTO)).render();
    expect(health).toContain('  path: "/grpc.health.v1.Health/Check",');
    expect(health).toContain('  path: "/grpc.health.v1.Health/Watch",\n  kind: "server_streaming",');
    expect(health).toContain("rpcServerStreamRoute(healthWatchProcedure,");
  });
});
