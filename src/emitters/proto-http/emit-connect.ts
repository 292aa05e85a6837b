import { propertyKey, stringLiteral } from "../../codegen/escape.js";
import { GeneratedFile } from "../../codegen/generated-file.js";
import type { IrDocument, RpcMethod, RpcService } from "../../ir/model.js";
import type { Names, RpcNames } from "../../naming/assign-names.js";
import { ModuleScope } from "../../naming/module-scope.js";
import type { EmitContext } from "../artifact.js";
import { emitCodecConsts } from "./codec-consts.js";
import { TYPES_MODULE } from "./codec-functions.js";
import { lowerFirst, nameClaimer, propertyAccess } from "./identifiers.js";
import { clientMethodName } from "../../naming/property-name.js";
import { protoFullName, serviceBindings, transcodeMessages, type CheckedBinding, type MethodHttp } from "./http-rules.js";

/** The names one service's declarations get in connect.ts (the naming pass's). */
export type ServiceNames = RpcNames;

export interface ServiceMethod {
  readonly method: RpcMethod;
  /** Property name on the client and implementation: the rpc name with a lower-case first letter. */
  readonly property: string;
  /** Module-local constant holding its path, kind and codecs. */
  readonly constName: string;
}

export function isUnary(m: RpcMethod): boolean {
  return !m.clientStreaming && !m.serverStreaming;
}

/** The runtime's name of a method kind (RpcMethodKind). */
function kindOf(m: RpcMethod): string {
  if (m.clientStreaming && m.serverStreaming) return "bidi_streaming";
  if (m.clientStreaming) return "client_streaming";
  return m.serverStreaming ? "server_streaming" : "unary";
}

export function rpcServices(ctx: EmitContext): RpcService[] {
  // One module per input file: a service of another file is in that file's module.
  return ctx.doc.services.filter((s): s is RpcService => s.kind === "rpc" && (ctx.modules === undefined || s.origin.file === ctx.doc.entry));
}

/**
 * connect.ts: clients and servers for proto services, all four method kinds, speaking Connect, gRPC-Web and gRPC
 * (the file keeps the name it had when it spoke Connect only). Per service S: `SClient` + `createSClient(options)`,
 * and `SImplementation` + `createSHandler(impl, options)` giving a web-standard `(Request) => Promise<Response>`.
 */
export function emitConnect(ctx: EmitContext): GeneratedFile {
  const f = new GeneratedFile(`${ctx.dir}/connect.ts`, ctx.source);
  const services = rpcServices(ctx);
  f.jsdoc("", [
    `Clients and servers for the services of ${ctx.source}, over the Connect protocol (https://connectrpc.com/docs/protocol),` +
      " gRPC-Web and gRPC. The handler answers all three; a client speaks the protocol its options name (default Connect).",
    "@packageDocumentation",
  ]);
  f.print();
  const messageIds = services.flatMap((s) => s.methods.flatMap((m) => [m.input, m.output]));
  const serviceList = connectServiceNames(ctx.doc, ctx.names);
  // The file's module-private names: after every name it declares.
  const scope = new ModuleScope(ctx.names, serviceList.flatMap(({ names, methods }) => [
    names.client, names.implementation, names.createClient, names.createHandler, ...methods.map((m) => m.constName),
  ]));
  const codecs = emitCodecConsts(f, ctx, messageIds, scope);
  const codecName = (id: string) => codecs.get(id)!;
  // google.api.http: checked here (a bad binding is a located error), served by the handler, called with protocol "rest".
  const transcoded = new Map<string, MethodHttp[]>();
  for (const { service } of serviceList) {
    const warn = (m: RpcMethod, detail: string) => ctx.warn?.(m.origin, detail);
    const methods = serviceBindings(ctx.doc, service, warn);
    if (methods.length > 0) transcoded.set(service.fullName, methods);
  }
  const tableName = transcoded.size > 0 ? emitTranscodeMessages(f, ctx, [...transcoded.values()].flat(), scope) : undefined;
  for (const { service, names, methods } of serviceList) {
    const http = new Map((transcoded.get(service.fullName) ?? []).map((m) => [m.method, m.bindings]));
    emitProcedures(f, ctx, service, methods, codecName, http, tableName);
    emitClient(f, ctx, service, names, methods, http);
    emitHandler(f, ctx, service, names, methods);
  }
  return f;
}

/** The names connect.ts declares for each proto service, in order (also what the TanStack Query plugin imports). */
export function connectServiceNames(doc: IrDocument, typeNames: Names): { service: RpcService; names: ServiceNames; methods: ServiceMethod[] }[] {
  return doc.services.flatMap((service, index) => {
    if (service.kind !== "rpc") return [];
    const names = typeNames.rpc(index);
    const claimProperty = nameClaimer([]);
    const methods = service.methods.map((m, i) => {
      const property = claimProperty(clientMethodName(lowerFirst(m.name)));
      return { method: m, property, constName: names.procedure(i) };
    });
    return [{ service, names, methods }];
  });
}

/**
 * The module-local table of the fields transcoded routes reach (TranscodeMessages): proto and JSON names and URL
 * kinds, which the runtime uses to place path variables and query parameters in the ProtoJSON request.
 */
function emitTranscodeMessages(f: GeneratedFile, ctx: EmitContext, methods: readonly MethodHttp[], scope: ModuleScope): string {
  const name = scope.fixed("httpMessages");
  const table = transcodeMessages(ctx.doc, methods);
  f.print(`const ${name}: `, f.import("TranscodeMessages", ctx.runtimeModule, { typeOnly: true }), " = {");
  for (const [message, fields] of table) {
    f.print("  ", f.string(message), ": [");
    for (const field of fields) {
      const parts = [`name: ${stringLiteral(field.name)}`, `json: ${stringLiteral(field.json)}`, `kind: "${field.kind}"`];
      if (field.repeated) parts.push("repeated: true");
      if (field.message !== undefined) parts.push(`message: ${stringLiteral(field.message)}`);
      f.print(`    { ${parts.join(", ")} },`);
    }
    f.print("  ],");
  }
  f.print("};");
  f.print();
  return name;
}

function emitProcedures(
  f: GeneratedFile,
  ctx: EmitContext,
  service: RpcService,
  methods: readonly ServiceMethod[],
  codecName: (id: string) => string,
  http: ReadonlyMap<RpcMethod, readonly CheckedBinding[]>,
  tableName: string | undefined,
): void {
  const type = (id: string) => f.import(ctx.names.type(id), TYPES_MODULE, { typeOnly: true });
  for (const { method, constName } of methods) {
    f.print(`const ${constName}: `, f.import("RpcProcedure", ctx.runtimeModule, { typeOnly: true }), "<", type(method.input), ", ", type(method.output), "> = {");
    f.print("  path: ", f.string(`/${service.fullName}/${method.name}`), ",");
    f.print(`  kind: "${kindOf(method)}",`);
    f.print(`  input: ${codecName(method.input)},`);
    f.print(`  output: ${codecName(method.output)},`);
    const bindings = http.get(method);
    if (bindings !== undefined && tableName !== undefined) {
      f.print("  http: {");
      f.print("    bindings: [");
      for (const b of bindings) {
        const parts = [`method: ${stringLiteral(b.method)}`, `path: ${stringLiteral(b.path)}`];
        if (b.body !== undefined) parts.push(`body: ${stringLiteral(b.body)}`);
        if (b.responseBody !== undefined) parts.push(`responseBody: ${stringLiteral(b.responseBody)}`);
        f.print(`      { ${parts.join(", ")} },`);
      }
      f.print("    ],");
      f.print(`    messages: ${tableName},`);
      f.print("    input: ", f.string(protoFullName(method.input)), ",");
      f.print("    output: ", f.string(protoFullName(method.output)), ",");
      f.print("  },");
    }
    f.print("};");
    f.print();
  }
}

/** Client call function and method signature parts per kind. */
const CLIENT_CALL: Readonly<Record<string, string>> = {
  unary: "rpcCallUnary",
  server_streaming: "rpcCallServerStream",
  client_streaming: "rpcCallClientStream",
  bidi_streaming: "rpcCallBidiStream",
};
const SERVER_ROUTE: Readonly<Record<string, string>> = {
  unary: "rpcUnaryRoute",
  server_streaming: "rpcServerStreamRoute",
  client_streaming: "rpcClientStreamRoute",
  bidi_streaming: "rpcBidiStreamRoute",
};

function kindNote(m: RpcMethod): string | undefined {
  if (m.clientStreaming && m.serverStreaming) return "Bidirectional streaming: needs HTTP/2 (protocol \"grpc\" or an HTTP/2 transport).";
  if (m.clientStreaming) return "Client streaming: over fetch the requests are sent as one body once the iterable ends.";
  return m.serverStreaming ? "Server streaming: answers arrive as they are produced." : undefined;
}

/** The doc lines of a method's REST routes. */
function restLines(bindings: readonly CheckedBinding[] | undefined): string[] {
  if (bindings === undefined) return [];
  return bindings.map((b, i) => `${i === 0 ? "REST (protocol \"rest\")" : "also"}: ${b.method} ${b.path}${b.body !== undefined ? ` (body: ${b.body})` : ""}`);
}

function emitClient(
  f: GeneratedFile,
  ctx: EmitContext,
  service: RpcService,
  names: ServiceNames,
  methods: readonly ServiceMethod[],
  http: ReadonlyMap<RpcMethod, readonly CheckedBinding[]>,
): void {
  const rt = (name: string, typeOnly = false) => f.import(name, ctx.runtimeModule, { typeOnly });
  const type = (id: string) => f.import(ctx.names.type(id), TYPES_MODULE, { typeOnly: true });
  f.jsdoc("", [
    service.doc,
    `Client of service ${service.fullName} over Connect, gRPC-Web or gRPC (\`options.protocol\`). Every failure is an RpcError.`,
    service.deprecated ? "@deprecated" : undefined,
    `@generated from ${service.origin.construct}`,
  ]);
  f.print(`export interface ${names.client} {`);
  for (const { method, property } of methods) {
    f.jsdoc("  ", [method.doc, `POST /${service.fullName}/${method.name}`, ...restLines(http.get(method)), kindNote(method), method.deprecated ? "@deprecated" : undefined]);
    const input = method.clientStreaming
      ? ["requests: AsyncIterable<", type(method.input), "> | Iterable<", type(method.input), ">"]
      : ["request: ", type(method.input)];
    const output = method.serverStreaming ? ["AsyncIterable<", type(method.output), ">"] : ["Promise<", type(method.output), ">"];
    f.print(`  ${propertyKey(property)}(`, ...input, ", options?: ", rt("RpcCallOptions", true), "): ", ...output, ";");
  }
  f.print("}");
  f.print();
  f.jsdoc("", [`A ${names.client} calling the service at \`options.baseUrl\`.`]);
  f.print(`export function ${names.createClient}(options: `, rt("RpcClientOptions", true), `): ${names.client} {`);
  f.print("  const client = ", rt("rpcClient"), "(options);");
  f.print("  return {");
  for (const { method, property, constName } of methods) {
    const arg = method.clientStreaming ? "requests" : "request";
    f.print(`    ${propertyKey(property)}: (${arg}, callOptions) => `, rt(CLIENT_CALL[kindOf(method)]!), `(client, ${constName}, ${arg}, callOptions),`);
  }
  f.print("  };");
  f.print("}");
  f.print();
}

function emitHandler(f: GeneratedFile, ctx: EmitContext, service: RpcService, names: ServiceNames, methods: readonly ServiceMethod[]): void {
  const rt = (name: string, typeOnly = false) => f.import(name, ctx.runtimeModule, { typeOnly });
  const type = (id: string) => f.import(ctx.names.type(id), TYPES_MODULE, { typeOnly: true });
  f.jsdoc("", [
    `What a server of ${service.fullName} implements: one method per rpc (streams as async iterables, e.g. async` +
      " generators). Throw an RpcError to answer with its code; any other error is answered as `internal` without details.",
    `@generated from ${service.origin.construct}`,
  ]);
  f.print(`export interface ${names.implementation} {`);
  for (const { method, property } of methods) {
    f.jsdoc("  ", [method.doc, method.deprecated ? "@deprecated" : undefined]);
    const input = method.clientStreaming ? ["requests: AsyncIterable<", type(method.input), ">"] : ["request: ", type(method.input)];
    const output = method.serverStreaming ? ["AsyncIterable<", type(method.output), ">"] : ["Promise<", type(method.output), ">"];
    f.print(`  ${propertyKey(property)}(`, ...input, ", context: ", rt("RpcHandlerContext", true), "): ", ...output, ";");
  }
  f.print("}");
  f.print();
  f.jsdoc("", [
    `A web-standard handler serving ${service.fullName}: POST /${service.fullName}/<Method> over Connect (application/proto,` +
      " application/json, application/connect+proto|json), gRPC-Web (application/grpc-web[-text]) and gRPC (application/grpc," +
      " served through serveNodeHttp2). Serve Connect and gRPC-Web with serveNode or any fetch-style server.",
  ]);
  f.print(
    `export function ${names.createHandler}(impl: ${names.implementation}, options?: `, rt("RpcHandlerOptions", true), "): ",
    rt("HttpHandler", true), " {",
  );
  f.print("  return ", rt("rpcRouter"), "(");
  f.print("    [");
  for (const { method, property, constName } of methods) {
    const arg = method.clientStreaming ? "requests" : "request";
    f.print("      ", rt(SERVER_ROUTE[kindOf(method)]!), `(${constName}, (${arg}, context) => ${propertyAccess("impl", property)}(${arg}, context)),`);
  }
  f.print("    ],");
  f.print("    options,");
  f.print("  );");
  f.print("}");
  f.print();
}
