import { propertyKey, stringLiteral } from "../../codegen/escape.js";
import type { GeneratedFile } from "../../codegen/generated-file.js";
import type {
  HttpContent, HttpOperation, HttpParameter, HttpService, RpcService, Service, SoapMessage, SoapService,
} from "../../ir/model.js";
import { bodyParts } from "../soap-client/bound-operations.js";
import type { TypesContext } from "./context.js";
import { typeExprTs, unionOf } from "./type-expr.js";

/**
 * One interface per service that maps each operation to its input, output, headers and faults (SOAP), parameters,
 * body and responses by status (HTTP) or request and response messages (RPC). Clients and servers are typed from it.
 */
export function emitService(f: GeneratedFile, s: Service, interfaceName: string, ctx: TypesContext): void {
  switch (s.kind) {
    case "soap":
      return emitSoap(f, s, interfaceName, ctx);
    case "http":
      return emitHttp(f, s, interfaceName, ctx);
    case "rpc":
      return emitRpc(f, s, interfaceName, ctx);
  }
}

function messageTs(m: SoapMessage | undefined, ctx: TypesContext): string {
  if (!m || m.parts.length === 0) return "undefined";
  const partTs = m.parts.map((p) => {
    if (p.element !== undefined) {
      const el = ctx.elements.get(p.element);
      if (!el) throw new Error(`internal: unresolved element ${p.element}`);
      const ts = typeExprTs(el.type, ctx);
      return { name: p.name, ts: el.nullable ? unionOf([ts, "null"]) : ts };
    }
    return { name: p.name, ts: p.type ? typeExprTs(p.type, ctx) : "unknown" };
  });
  if (partTs.length === 1) return partTs[0]!.ts;
  return `{ ${partTs.map((p) => `${propertyKey(p.name)}: ${p.ts}`).join("; ")} }`;
}

function emitSoap(f: GeneratedFile, s: SoapService, name: string, ctx: TypesContext): void {
  const binding = s.bindings[0];
  f.jsdoc("", [
    s.doc,
    `Operations of ${s.name} (namespace ${s.targetNamespace}).`,
    binding ? `Bound by ${binding.name.local} (SOAP ${binding.version}, ${binding.style}).` : undefined,
    `@generated from ${s.origin.construct}`,
  ]);
  f.print(`export interface ${name} {`);
  for (const op of s.operations) {
    const bound = binding?.operations.find((b) => b.name === op.name);
    const headers = (which: "input" | "output") =>
      (bound?.[which]?.headers ?? []).map((h) => {
        const part = h.message.parts.find((p) => p.name === h.part);
        const ts = part ? messageTs({ name: h.message.name, parts: [part] }, ctx) : "unknown";
        const el = part?.element !== undefined ? ctx.elements.get(part.element) : undefined;
        return `${propertyKey(el?.name.local ?? h.part)}?: ${ts}`;
      });
    const faults = op.faults.map((fl) => messageTs(fl.message, ctx));
    f.jsdoc("  ", [op.doc, bound?.action ? `SOAPAction: ${bound.action}` : undefined]);
    f.print(`  ${propertyKey(op.name)}: {`);
    // The body's parts only: soap:body parts= and the parts soap:header binds (those are in the headers).
    const body = (m: SoapMessage | undefined, which: "input" | "output") => (m && bound ? { name: m.name, parts: bodyParts(m, bound[which]) } : m);
    f.print(`    input: ${messageTs(body(op.input, "input"), ctx)};`);
    f.print(`    output: ${messageTs(body(op.output, "output"), ctx)};`);
    const objectOf = (props: string[]) => (props.length ? `{ ${props.join("; ")} }` : "{}");
    f.print(`    requestHeaders: ${objectOf(headers("input"))};`);
    f.print(`    responseHeaders: ${objectOf(headers("output"))};`);
    f.print(`    faults: ${faults.length ? unionOf(faults) : "never"};`);
    f.print("  };");
  }
  f.print("}");
}

function contentTs(contents: readonly HttpContent[], ctx: TypesContext): string {
  if (contents.length === 0) return "undefined";
  return unionOf(contents.map((c) => (c.nullable ? unionOf([typeExprTs(c.type, ctx), "null"]) : typeExprTs(c.type, ctx))));
}

function paramsTs(params: readonly HttpParameter[], ctx: TypesContext): string | undefined {
  if (params.length === 0) return undefined;
  const props = params.map((p) => {
    const ts = p.nullable ? unionOf([typeExprTs(p.type, ctx), "null"]) : typeExprTs(p.type, ctx);
    return `${propertyKey(p.name)}${p.required ? "" : "?"}: ${ts}`;
  });
  return `{ ${props.join("; ")} }`;
}

function emitHttpOperation(f: GeneratedFile, op: HttpOperation, ctx: TypesContext): void {
  const method = ctx.names.operation(op).method;
  f.jsdoc("  ", [op.summary, op.doc, op.deprecated ? "@deprecated" : undefined, operationLine(op, method)]);
  f.print(`  ${method}: {`);
  f.print(`    method: ${stringLiteral(op.method.toUpperCase())};`);
  f.print(`    path: ${stringLiteral(op.path)};`);
  if (op.parameters.length > 0) {
    f.print(`    parameters${op.parameters.every((p) => !p.required) ? "?" : ""}: {`);
    for (const where of ["path", "query", "header", "cookie"] as const) {
      const params = op.parameters.filter((p) => p.in === where);
      const ts = paramsTs(params, ctx);
      if (ts === undefined) continue;
      const optional = params.every((p) => !p.required) ? "?" : "";
      f.print(`      ${where}${optional}: ${ts};`);
    }
    f.print("    };");
  }
  if (op.requestBody) f.print(`    body${op.requestBody.required ? "" : "?"}: ${contentTs(op.requestBody.contents, ctx)};`);
  f.print("    responses: {");
  for (const r of op.responses) {
    const key = /^\d+$/.test(r.status) ? r.status : stringLiteral(r.status);
    f.jsdoc("      ", [r.doc]);
    f.print(`      ${key}: ${contentTs(r.contents, ctx)};`);
  }
  f.print("    };");
  f.print("  };");
}

/**
 * The doc line naming an operation's route, and its operationId when the identifier differs from it (the spec's own
 * name stays searchable: `find pet by id` is the method `findPetById`).
 */
export function operationLine(op: HttpOperation, method: string): string {
  const route = `${op.method.toUpperCase()} ${op.path}`;
  return method === op.name ? route : `${route} (operationId ${JSON.stringify(op.name)})`;
}

function emitHttp(f: GeneratedFile, s: HttpService, name: string, ctx: TypesContext): void {
  const doc = s.doc === ctx.doc.info.doc ? undefined : s.doc;
  f.jsdoc("", [doc, `Operations of ${s.name}${s.version ? ` (version ${s.version})` : ""}.`, `@generated from ${s.origin.construct}`]);
  f.print(`export interface ${name} {`);
  for (const op of s.operations) emitHttpOperation(f, op, ctx);
  f.print("}");
}

function emitRpc(f: GeneratedFile, s: RpcService, name: string, ctx: TypesContext): void {
  f.jsdoc("", [s.doc, `Methods of service ${s.fullName}.`, s.deprecated ? "@deprecated" : undefined, `@generated from ${s.origin.construct}`]);
  f.print(`export interface ${name} {`);
  for (const m of s.methods) {
    f.jsdoc("  ", [m.doc, m.deprecated ? "@deprecated" : undefined]);
    f.print(`  ${propertyKey(m.name)}: {`);
    f.print(`    input: ${typeExprTs({ kind: "ref", id: m.input }, ctx)};`);
    f.print(`    output: ${typeExprTs({ kind: "ref", id: m.output }, ctx)};`);
    f.print(`    clientStreaming: ${m.clientStreaming};`);
    f.print(`    serverStreaming: ${m.serverStreaming};`);
    f.print("  };");
  }
  f.print("}");
}
