import { describe, expect, it } from "vitest";
import { emitConnect } from "../../../src/emitters/proto-http/emit-connect.js";
import { GREETER_PROTO, HEALTH_PROTO, protoContext } from "./emit.helpers.js";

describe("connect.ts", () => {
  const greeter = emitConnect(protoContext(GREETER_PROTO)).render();

  it("declares a client and an implementation per service, unary methods only", () => {
    expect(greeter).toContain("export interface GreeterClient {\n");
    expect(greeter).toContain("  greet(request: GreetRequest, options?: ConnectCallOptions): Promise<GreetResponse>;\n");
    expect(greeter).toContain("  fail(request: GreetRequest, context: ConnectHandlerContext): Promise<Empty>;\n");
    expect(greeter).toContain("export function createCatalogClient(options: ConnectClientOptions): CatalogClient {\n");
    expect(greeter).toContain("export function createCatalogHandler(impl: CatalogImplementation, options?: ConnectHandlerOptions): HttpHandler {\n");
    for (const streaming of ["chat", "upload", "subscribe"]) expect(greeter).not.toMatch(new RegExp(`^  ${streaming}\\(`, "m"));
  });

  it("says which streaming methods are not supported", () => {
    expect(greeter).toContain(
      "Not supported, and so not generated: Chat (bidirectional streaming), Upload (client streaming), Subscribe (server\n * streaming).",
    );
  });

  it("routes each method by its procedure path and codecs", () => {
    expect(greeter).toContain(
      [
        "const greeterGreetProcedure = {",
        '  path: "/specforge.test.v1.Greeter/Greet",',
        "  input: greetRequestCodec,",
        "  output: greetResponseCodec,",
        "};",
      ].join("\n"),
    );
    expect(greeter).toContain("    greet: (request, callOptions) => callUnary(options, greeterGreetProcedure, request, callOptions),\n");
    expect(greeter).toContain("      connectRoute(catalogListItemsProcedure, (request, context) => impl.listItems(request, context)),\n");
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

  it("emits the grpc health service with Watch skipped", () => {
    const health = emitConnect(protoContext(HEALTH_PROTO)).render();
    expect(health).toContain("Not supported, and so not generated: Watch (server streaming).");
    expect(health).toContain('  path: "/grpc.health.v1.Health/Check",');
    expect(health).not.toContain("Health/Watch");
  });
});
