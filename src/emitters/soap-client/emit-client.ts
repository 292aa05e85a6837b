import { objectLiteralKey, propertyKey, stringLiteral } from "../../codegen/escape.js";
import { clientMethodName } from "../../naming/property-name.js";
import { GeneratedFile, type Printable } from "../../codegen/generated-file.js";
import type { EmitContext } from "../artifact.js";
import { soapBindings, type BoundOperation, type BoundService } from "./bound-operations.js";
import { emitRpcMessages } from "./rpc-messages.js";
import { clark, elementCodecs, TYPES_MODULE, type ElementCodecs } from "./names.js";

/** Members every SOAP client has besides its operations. */
const CLIENT_MEMBERS = ["endpoint", "setEndpoint"];

/**
 * The SOAP client artifact: `<dir>/client.ts` with, per SOAP service, an interface `<Service>Client` (one method
 * per bound operation) and `create<Service>Client(options)`. Types come from types.ts (`<Service>Operations`), codecs
 * from xml.ts; HTTP, envelopes and faults from the runtime's `createSoapConnection`.
 */
export function emitSoapClient(ctx: EmitContext): GeneratedFile {
  const f = new GeneratedFile(`${ctx.dir}/client.ts`, ctx.source);
  const codecs = elementCodecs(f, ctx.names);
  for (const s of soapBindings(ctx.doc)) {
    // Never silent: what the client leaves out is a warning at the binding operation and a comment here.
    for (const k of s.skipped) ctx.warn?.(k.origin, `no client or server method for SOAP operation ${k.name}: ${k.reason}`);
    if (s.operations.length > 0) emitServiceClient(f, s, ctx, codecs);
    else {
      f.jsdoc("", [
        `No client for ${s.service.name} (SOAP ${s.binding.version}, binding ${s.binding.name.local}): none of its operations can be generated.`,
        ...s.skipped.map((k) => `Not generated: ${k.name} (${k.reason}).`),
      ]);
      f.print("export {};");
      f.print();
    }
  }
  return f;
}

function emitServiceClient(f: GeneratedFile, s: BoundService, ctx: EmitContext, codecs: ElementCodecs): void {
  const rt = (name: string, typeOnly = false) => f.import(name, ctx.runtimeModule, { typeOnly });
  const ops = f.import(ctx.names.service(s.index), TYPES_MODULE, { typeOnly: true });
  const names = ctx.names.soap(s.index);
  const clientName = names.client;
  const bindingConst = names.clientBinding;
  const opType = (op: BoundOperation, part: string): Printable => [ops, `[${stringLiteral(op.name)}][${stringLiteral(part)}]`];
  const rpc = emitRpcMessages(f, ctx, s, names.clientMessages, opType);

  f.jsdoc("", [
    `Client of ${s.service.name} (SOAP ${s.binding.version}, binding ${s.binding.name.local}): one method per operation.`,
    "A method resolves to `{ body, headers }`: the response element's value and the response's SOAP headers. A SOAP " +
      "fault rejects with SoapFaultError, whose `fault` names the wsdl:fault and whose `detail` is the decoded detail " +
      "element; a non-SOAP error answer with HttpStatusError, a timeout with HttpTimeoutError, an abort like fetch.",
    ...s.skipped.map((k) => `Not generated: ${k.name} (${k.reason}).`),
  ]);
  f.print(`export interface ${clientName} {`);
  f.print("  /** The address calls go to. */");
  f.print("  readonly endpoint: string;");
  f.print("  /** Send later calls to another address, e.g. the serverUrl a login returned. */");
  f.print("  setEndpoint(url: string): void;");
  for (const op of s.operations) {
    f.jsdoc("  ", [op.doc, op.faults.length ? `Faults: ${op.faults.map((x) => x.name).join(", ")}.` : undefined]);
    f.print(`  ${propertyKey(clientMethodName(op.name, CLIENT_MEMBERS))}(`);
    f.print("    input: ", opType(op, "input"), ",");
    f.print("    options?: ", rt("SoapCallOptions", true), "<", opType(op, "requestHeaders"), ">,");
    f.print("  ): Promise<", rt("SoapResponse", true), "<", opType(op, "output"), ", ", opType(op, "responseHeaders"), ">>;");
  }
  f.print("}");
  f.print();

  f.print(`const ${bindingConst}: `, rt("SoapClientBinding", true), " = {");
  f.print(`  version: ${stringLiteral(s.binding.version)},`);
  f.print("  requestHeaders: {");
  for (const h of s.requestHeaders) f.print(`    ${objectLiteralKey(h.key)}: `, codecs.encode(h.element), ",");
  f.print("  },");
  f.print("  responseHeaders: {");
  for (const h of s.responseHeaders) {
    f.print("    ", clark(f, h.element), `: { name: ${stringLiteral(h.key)}, decode: `, codecs.decode(h.element), " },");
  }
  f.print("  },");
  f.print("  faults: {");
  for (const fl of s.faults) {
    f.print("    ", clark(f, fl.element), `: { name: ${stringLiteral(fl.name)}, decode: `, codecs.decode(fl.element), " },");
  }
  f.print("  },");
  f.print("};");
  f.print();

  f.jsdoc("", [
    `A {@link ${clientName}} calling \`options.endpoint\`.`,
    "@example",
    `const client = ${names.createClient}({ endpoint: "http://127.0.0.1:8080/service" });`,
  ]);
  f.print(`export function ${names.createClient}(options: `, rt("SoapClientOptions", true), `): ${clientName} {`);
  f.print("  const connection = ", rt("createSoapConnection"), `(options, ${bindingConst});`);
  f.print("  return {");
  f.print("    get endpoint() {");
  f.print("      return connection.endpoint;");
  f.print("    },");
  f.print("    setEndpoint: (url) => connection.setEndpoint(url),");
  for (const op of s.operations) {
    f.print(`    ${objectLiteralKey(clientMethodName(op.name, CLIENT_MEMBERS))}: (input, callOptions) =>`);
    f.print("      connection.call(");
    const messages = rpc === undefined ? undefined : `${rpc}[${stringLiteral(op.name)}]`;
    f.print("        {");
    f.print(`          name: ${stringLiteral(op.name)},`);
    f.print(`          action: ${stringLiteral(op.action)},`);
    if (op.input.kind === "element") f.print("          encodeInput: ", codecs.encode(op.input.element), ",");
    else f.print(`          encodeInput: (value: `, opType(op, "input"), `) => ${messages}.input.encode(value),`);
    if (op.output?.kind === "element") {
      f.print("          outputElement: ", clark(f, op.output.element), ",");
      f.print("          decodeOutput: ", codecs.decode(op.output.element), ",");
    } else if (op.output?.kind === "rpc") {
      f.print(`          decodeRpcOutput: (node: `, rt("XmlElementNode", true), `, others: readonly `, rt("XmlElementNode", true), `[]) => ${messages}.output.decode(node, others),`);
    }
    f.print("        },");
    f.print("        input,");
    f.print("        callOptions,");
    f.print("      ),");
  }
  f.print("  };");
  f.print("}");
  f.print();
}

