import { propertyKey } from "../../codegen/escape.js";
import { GeneratedFile } from "../../codegen/generated-file.js";
import type { RpcMethod, RpcService } from "../../ir/model.js";
import { typeIdentifier } from "../../naming/identifier.js";
import type { EmitContext } from "../artifact.js";
import { codecConstName, emitCodecConsts } from "./codec-consts.js";
import { TYPES_MODULE } from "./codec-functions.js";
import { lowerFirst, nameClaimer, propertyAccess } from "./identifiers.js";
import { clientMethodName } from "../../naming/property-name.js";

/** The names one service's declarations get in connect.ts. */
interface ServiceNames {
  readonly client: string;
  readonly implementation: string;
  readonly createClient: string;
  readonly createHandler: string;
}

interface UnaryMethod {
  readonly method: RpcMethod;
  /** Property name on the client and implementation: the rpc name with a lower-case first letter. */
  readonly property: string;
  /** Module-local constant holding its path and codecs. */
  readonly constName: string;
}

export function isUnary(m: RpcMethod): boolean {
  return !m.clientStreaming && !m.serverStreaming;
}

function streamingKind(m: RpcMethod): string {
  if (m.clientStreaming && m.serverStreaming) return "bidirectional streaming";
  return m.clientStreaming ? "client streaming" : "server streaming";
}

export function rpcServices(ctx: EmitContext): RpcService[] {
  return ctx.doc.services.filter((s): s is RpcService => s.kind === "rpc");
}

/**
 * connect.ts: Connect-protocol clients and servers for proto services (unary methods; streaming methods are listed
 * as not supported and skipped). Per service S: `SClient` + `createSClient(options)`, and `SImplementation` +
 * `createSHandler(impl, options)` giving a web-standard `(Request) => Promise<Response>`.
 */
export function emitConnect(ctx: EmitContext): GeneratedFile {
  const f = new GeneratedFile(`${ctx.dir}/connect.ts`, ctx.source);
  const services = rpcServices(ctx);
  f.jsdoc("", [
    `Connect protocol (https://connectrpc.com/docs/protocol) clients and servers for the services of ${ctx.source}.`,
    "Unary methods only: requests and answers are application/proto (default) or application/json.",
    "@packageDocumentation",
  ]);
  f.print();
  const messageIds = services.flatMap((s) => s.methods.filter(isUnary).flatMap((m) => [m.input, m.output]));
  emitCodecConsts(f, ctx, messageIds);
  const codecName = (id: string) => codecConstName(ctx.names.type(id));
  const claim = nameClaimer(ctx.doc.types.map((t) => ctx.names.type(t.id)));
  for (const service of services) {
    const base = typeIdentifier(service.fullName.split(".").pop()!).replace(/\$$/, "");
    const names: ServiceNames = {
      client: claim(`${base}Client`),
      implementation: claim(`${base}Implementation`),
      createClient: claim(`create${base}Client`),
      createHandler: claim(`create${base}Handler`),
    };
    const claimProperty = nameClaimer([]);
    const methods = service.methods.filter(isUnary).map((m) => {
      const property = claimProperty(clientMethodName(lowerFirst(m.name)));
      const constName = `${lowerFirst(base)}${m.name.replace(/[^A-Za-z0-9_$]/g, "_")}Procedure`;
      return { method: m, property, constName };
    });
    emitProcedures(f, service, methods, codecName);
    emitClient(f, ctx, service, names, methods);
    emitHandler(f, ctx, service, names, methods);
  }
  return f;
}

function emitProcedures(f: GeneratedFile, service: RpcService, methods: readonly UnaryMethod[], codecName: (id: string) => string): void {
  for (const { method, constName } of methods) {
    f.print(`const ${constName} = {`);
    f.print("  path: ", f.string(`/${service.fullName}/${method.name}`), ",");
    f.print(`  input: ${codecName(method.input)},`);
    f.print(`  output: ${codecName(method.output)},`);
    f.print("};");
    f.print();
  }
}

function unsupportedNote(service: RpcService): string | undefined {
  const streaming = service.methods.filter((m) => !isUnary(m));
  if (streaming.length === 0) return undefined;
  const list = streaming.map((m) => `${m.name} (${streamingKind(m)})`).join(", ");
  return `Not supported, and so not generated: ${list}. This Connect client and server handle unary methods only.`;
}

function emitClient(f: GeneratedFile, ctx: EmitContext, service: RpcService, names: ServiceNames, methods: readonly UnaryMethod[]): void {
  const rt = (name: string, typeOnly = false) => f.import(name, ctx.runtimeModule, { typeOnly });
  const type = (id: string) => f.import(ctx.names.type(id), TYPES_MODULE, { typeOnly: true });
  f.jsdoc("", [
    service.doc,
    `Client of service ${service.fullName} over the Connect protocol. Every failure is a ConnectError.`,
    unsupportedNote(service),
    service.deprecated ? "@deprecated" : undefined,
    `@generated from ${service.origin.construct}`,
  ]);
  f.print(`export interface ${names.client} {`);
  for (const { method, property } of methods) {
    f.jsdoc("  ", [method.doc, `POST /${service.fullName}/${method.name}`, method.deprecated ? "@deprecated" : undefined]);
    f.print(`  ${propertyKey(property)}(request: `, type(method.input), ", options?: ", rt("ConnectCallOptions", true), "): Promise<", type(method.output), ">;");
  }
  f.print("}");
  f.print();
  f.jsdoc("", [`A ${names.client} calling the service at \`options.baseUrl\`.`]);
  f.print(`export function ${names.createClient}(options: `, rt("ConnectClientOptions", true), `): ${names.client} {`);
  f.print("  return {");
  for (const { property, constName } of methods) {
    f.print(`    ${propertyKey(property)}: (request, callOptions) => `, rt("callUnary"), `(options, ${constName}, request, callOptions),`);
  }
  f.print("  };");
  f.print("}");
  f.print();
}

function emitHandler(f: GeneratedFile, ctx: EmitContext, service: RpcService, names: ServiceNames, methods: readonly UnaryMethod[]): void {
  const rt = (name: string, typeOnly = false) => f.import(name, ctx.runtimeModule, { typeOnly });
  const type = (id: string) => f.import(ctx.names.type(id), TYPES_MODULE, { typeOnly: true });
  f.jsdoc("", [
    `What a server of ${service.fullName} implements: one method per unary rpc. Throw a ConnectError to answer with` +
      " its code; any other error is answered as `internal` without details.",
    unsupportedNote(service),
    `@generated from ${service.origin.construct}`,
  ]);
  f.print(`export interface ${names.implementation} {`);
  for (const { method, property } of methods) {
    f.jsdoc("  ", [method.doc, method.deprecated ? "@deprecated" : undefined]);
    f.print(`  ${propertyKey(property)}(request: `, type(method.input), ", context: ", rt("ConnectHandlerContext", true), "): Promise<", type(method.output), ">;");
  }
  f.print("}");
  f.print();
  f.jsdoc("", [
    `A web-standard handler serving ${service.fullName} with the Connect protocol: POST /${service.fullName}/<Method>` +
      " with application/proto or application/json. Serve it with serveNode or any fetch-style server.",
  ]);
  f.print(
    `export function ${names.createHandler}(impl: ${names.implementation}, options?: `, rt("ConnectHandlerOptions", true), "): ",
    rt("HttpHandler", true), " {",
  );
  f.print("  return ", rt("connectRouter"), "(");
  f.print("    [");
  for (const { property, constName } of methods) {
    f.print("      ", rt("connectRoute"), `(${constName}, (request, context) => ${propertyAccess("impl", property)}(request, context)),`);
  }
  f.print("    ],");
  f.print("    options,");
  f.print("  );");
  f.print("}");
  f.print();
}
