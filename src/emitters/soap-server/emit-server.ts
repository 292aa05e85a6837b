import { objectLiteralKey, propertyKey, stringLiteral } from "../../codegen/escape.js";
import { GeneratedFile, type Printable } from "../../codegen/generated-file.js";
import { handlerName } from "../../naming/property-name.js";
import type { EmitContext } from "../artifact.js";
import { boundServices, type BoundOperation, type BoundService } from "../soap-client/bound-operations.js";
import { emitRpcMessages } from "../soap-client/rpc-messages.js";
import {
  clark, elementCodecs, elementValidator, elementValueType, typeValidator, TYPES_MODULE, type ElementCodecs,
} from "../soap-client/names.js";

/**
 * The SOAP server artifact: `<dir>/server.ts` with, per SOAP service, the handler interface `<Service>Handlers`
 * (one typed function per operation), the fault map `<Service>Faults` with a typed `<service>Fault(...)` to throw,
 * and `create<Service>Server(handlers, options)`, a web-standard request handler (see the runtime's
 * `createSoapHandler`; `serveNode` runs it on node:http).
 */
export function emitSoapServer(ctx: EmitContext, options: { readonly validate: boolean }): GeneratedFile {
  const f = new GeneratedFile(`${ctx.dir}/server.ts`, ctx.source);
  const codecs = elementCodecs(f, ctx.names);
  const services = boundServices(ctx.doc);
  if (services.length > 0) emitOperationHelper(f, ctx);
  for (const s of services) {
    warnAmbiguousDispatch(ctx, s);
    emitServiceServer(f, s, ctx, codecs, options.validate);
  }
  return f;
}

/**
 * A request is dispatched by its body element; operations sharing one are told apart by the action (SOAPAction in
 * SOAP 1.1, the action parameter in 1.2), which the runtime matches exactly. Two operations with the same body
 * element and the same action (or both none) cannot be told apart: the later one is unreachable, and a warning at
 * it says so.
 */
function warnAmbiguousDispatch(ctx: EmitContext, s: BoundService): void {
  const seen = new Map<string, BoundOperation>();
  for (const op of s.operations) {
    const element = op.input.kind === "element" ? `{${op.input.element.name.ns}}${op.input.element.name.local}` : `{${op.input.ns}}${op.input.local}`;
    const key = `${element} ${op.action}`;
    const first = seen.get(key);
    if (first === undefined) {
      seen.set(key, op);
      continue;
    }
    const action = op.action === "" ? "no soapAction" : `the same soapAction ${JSON.stringify(op.action)}`;
    ctx.warn?.(
      op.origin,
      `SOAP operations ${first.name} and ${op.name} both take a ${element} request with ${action}: the generated server cannot tell them apart and answers every such request with ${first.name}; ${op.name} is unreachable (give the operations different soapActions)`,
    );
  }
}

/**
 * `serverOperation({...})` around each operation of a descriptor: tsc types an array literal as the union of its
 * elements' types, reduced by comparing every pair, and the operations' literal types all differ (each names other
 * codecs), so a service of n operations cost n² structural comparisons (sf-partner-v40: about 1 s of check time).
 * Each call checks its literal against SoapServerOperation once and returns that one type.
 */
function emitOperationHelper(f: GeneratedFile, ctx: EmitContext): void {
  const op = f.import("SoapServerOperation", ctx.runtimeModule, { typeOnly: true });
  f.print("/** One operation of a descriptor, typed on its own (an array of differently typed literals costs tsc a union of them all). */");
  f.print("function ", OPERATION_HELPER, "(operation: ", op, "): ", op, " {");
  f.print("  return operation;");
  f.print("}");
  f.print();
}

const OPERATION_HELPER = "serverOperation";

function emitServiceServer(f: GeneratedFile, s: BoundService, ctx: EmitContext, codecs: ElementCodecs, validate: boolean): void {
  const rt = (name: string, typeOnly = false) => f.import(name, ctx.runtimeModule, { typeOnly });
  const ops = f.import(ctx.names.service(s.index), TYPES_MODULE, { typeOnly: true });
  const names = ctx.names.soap(s.index);
  const handlersName = names.handlers;
  const faultsName = names.faults;
  const faultFn = names.fault;
  const serverFn = names.createServer;
  const descriptorConst = names.descriptor;
  const opType = (op: BoundOperation, part: string): Printable => [ops, `[${stringLiteral(op.name)}][${stringLiteral(part)}]`];
  const rpc = emitRpcMessages(f, ctx, s, names.serverMessages, opType);

  f.jsdoc("", [
    `Handlers of ${s.service.name}: one function per operation, given the decoded (and validated) input and a context ` +
      "with the request's SOAP headers; it returns the response element's value or throws " +
      `a SoapFaultError (see {@link ${faultFn}}).`,
    ...s.skipped.map((k) => `Not generated: ${k.name} (${k.reason}).`),
  ]);
  f.print(`export interface ${handlersName} {`);
  for (const op of s.operations) {
    f.jsdoc("  ", [op.doc]);
    f.print(`  ${propertyKey(handlerName(op.name))}(`);
    f.print("    input: ", opType(op, "input"), ",");
    f.print("    ctx: ", rt("SoapHandlerContext", true), "<", opType(op, "requestHeaders"), ", ", opType(op, "responseHeaders"), ">,");
    // A one-way operation's handler returns nothing: the request is answered 202 once it has run.
    if (op.output === undefined) f.print("  ): Promise<void> | void;");
    else f.print("  ): Promise<", opType(op, "output"), "> | ", opType(op, "output"), ";");
  }
  f.print("}");
  f.print();

  f.jsdoc("", [`The faults ${s.service.name} declares, by wsdl:fault name, with the value of each one's detail element.`]);
  f.print(`export interface ${faultsName} {`);
  for (const fl of s.faults) f.print(`  ${propertyKey(fl.name)}: `, elementValueType(f, ctx, fl.element, codecs.decode(fl.element)), ";");
  f.print("}");
  f.print();

  f.print(`const ${names.faultNamespaces}: Record<keyof ${faultsName}, string> = {`);
  for (const fl of s.faults) f.print(`  ${objectLiteralKey(fl.name)}: ${stringLiteral(fl.element.name.ns)},`);
  f.print("};");
  f.print();

  f.jsdoc("", [
    "A fault for a handler to throw. `code` is the faultcode: a local name in the fault element's namespace (e.g. " +
      "`INVALID_LOGIN`), or the protocol's own Client/Server code (the default is Server).",
    "@example",
    `throw ${faultFn}(${stringLiteral(s.faults[0]?.name ?? "Fault")}, detail, { code: "Client", message: "..." });`,
  ]);
  f.print(`export function ${faultFn}<K extends keyof ${faultsName}>(`);
  f.print("  fault: K,");
  f.print(`  detail: ${faultsName}[K],`);
  f.print("  options: { readonly code?: string; readonly message?: string } = {},");
  f.print("): ", rt("SoapFaultError"), `<${faultsName}[K]> {`);
  f.print("  const code = options.code === undefined || options.code === \"Server\" || options.code === \"Client\"");
  f.print("    ? (options.code ?? \"Server\")");
  f.print(`    : { ns: ${names.faultNamespaces}[fault], local: options.code };`);
  f.print("  return new ", rt("SoapFaultError"), `<${faultsName}[K]>({ code, message: options.message ?? options.code ?? fault, fault, detail });`);
  f.print("}");
  f.print();

  f.print(`const ${descriptorConst}: `, rt("SoapServiceDescriptor", true), " = {");
  f.print(`  version: ${stringLiteral(s.binding.version)},`);
  f.print("  operations: [");
  for (const op of s.operations) emitOperation(f, ctx, op, codecs, validate, rpc);
  f.print("  ],");
  f.print("  faults: {");
  for (const fl of s.faults) f.print(`    ${objectLiteralKey(fl.name)}: `, codecs.encode(fl.element), ",");
  f.print("  },");
  f.print("};");
  f.print();

  f.jsdoc("", [
    `A web-standard request handler serving ${s.service.name}: POST a SOAP ${s.binding.version} envelope, or GET ?wsdl ` +
      "when `options.wsdl` is given. Operations without a handler answer with a Server fault.",
  ]);
  f.print(`export function ${serverFn}(`);
  f.print(`  handlers: Partial<${handlersName}>,`);
  f.print("  options?: ", rt("SoapServerOptions", true), ",");
  f.print("): ", rt("HttpHandler", true), " {");
  f.print(`  return `, rt("createSoapHandler"), `(${descriptorConst}, handlers, options);`);
  f.print("}");
  f.print();
}

function emitOperation(f: GeneratedFile, ctx: EmitContext, op: BoundOperation, codecs: ElementCodecs, validate: boolean, rpc: string | undefined): void {
  const rt = (name: string, typeOnly = false) => f.import(name, ctx.runtimeModule, { typeOnly });
  const messages = `${rpc}[${stringLiteral(op.name)}]`;
  f.print(`    ${OPERATION_HELPER}({`);
  f.print(`      name: ${stringLiteral(op.name)},`);
  if (handlerName(op.name) !== op.name) f.print(`      handler: ${stringLiteral(handlerName(op.name))},`);
  f.print(`      action: ${stringLiteral(op.action)},`);
  if (op.input.kind === "element") {
    const validator = validate ? elementValidator(f, ctx, op.input.element) : undefined;
    f.print("      inputElement: ", clark(f, op.input.element), ",");
    f.print("      decodeInput: ", codecs.decode(op.input.element), ",");
    if (validator) f.print("      validateInput: ", validator, ",");
  } else {
    f.print(`      inputElement: ${stringLiteral(`{${op.input.ns}}${op.input.local}`)},`);
    f.print("      decodeInput: (node: ", rt("XmlElementNode", true), ", _options?: unknown, others?: readonly ", rt("XmlElementNode", true), `[]) => ${messages}.input.decode(node, others),`);
    // The parts of a named type go through its validator, as a document/literal input element does.
    const validators = validate ? op.input.parts.flatMap((p) => (p.type.kind === "ref" ? [[p.name, typeValidator(f, ctx, p.type.id)] as const] : [])) : [];
    if (validators.length > 0) {
      const list = validators.flatMap(([part, v], i) => [i > 0 ? ", " : "", `[${stringLiteral(part)}, `, v, "]"]);
      f.print("      validateInput: (value: unknown) => ", rt("soapRpcIssues"), `(value, ${op.input.parts.length === 1}, [`, ...list, "]),");
    }
    f.print("      rpc: true,");
  }
  if (op.output?.kind === "element") f.print("      encodeOutput: ", codecs.encode(op.output.element), ",");
  else if (op.output?.kind === "rpc") f.print(`      encodeOutput: (value: never, options?: `, rt("XmlEncodeOptions", true), `) => ${messages}.output.encode(value, options),`);
  if (op.requestHeaders.length === 0) f.print("      requestHeaders: {},");
  else {
    f.print("      requestHeaders: {");
    for (const h of op.requestHeaders) {
      f.print("        ", clark(f, h.element), `: { name: ${stringLiteral(h.key)}, decode: `, codecs.decode(h.element), " },");
    }
    f.print("      },");
  }
  if (op.responseHeaders.length === 0) f.print("      responseHeaders: {},");
  else {
    f.print("      responseHeaders: {");
    for (const h of op.responseHeaders) f.print(`        ${objectLiteralKey(h.key)}: `, codecs.encode(h.element), ",");
    f.print("      },");
  }
  f.print("    }),");
}
