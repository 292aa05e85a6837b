import { stringLiteral } from "../../codegen/escape.js";
import { GeneratedFile, type Printable } from "../../codegen/generated-file.js";
import type { HttpOperation, HttpParameter, HttpService } from "../../ir/model.js";
import type { EmitContext } from "../artifact.js";
import type { TypesContext } from "../types/context.js";
import {
  clientBodyContent, contentsPrintable, exactStatus, httpServices, propertyAccess, restTypesContext,
  statusCondition,
} from "./http-shared.js";
import { parametersAt, requestInput, requestShape } from "./request-type.js";
import { operationLine } from "../types/services.js";

/**
 * The REST client artifact: `<dir>/client.ts` with, per HTTP service, an interface `<Api>Client` (one method per
 * operation) and `create<Api>Client(options)`. A method resolves to the response of any status the spec declares,
 * typed by status as a discriminated union `{ status, body, headers }`; an undeclared status throws
 * RestUnexpectedStatusError (status, body and headers included).
 */
export function emitClient(ctx: EmitContext): GeneratedFile {
  const f = new GeneratedFile(`${ctx.dir}/client.ts`, ctx.source);
  const tctx = restTypesContext(ctx);
  const services = [];
  for (const { service, index } of httpServices(ctx.doc)) {
    emitServiceClient(f, service, index, ctx, tctx);
    const api = ctx.names.api(index);
    services.push({ name: service.name, version: service.version ?? "", client: api.client, factory: api.createClient });
  }
  // The whole-file shell is templates/client.hbs (overridable); its context is documented in docs/templates.md.
  f.shell = { template: "client", context: { services } };
  return f;
}

function emitServiceClient(f: GeneratedFile, s: HttpService, index: number, ctx: EmitContext, tctx: TypesContext): void {
  const rt = (name: string, typeOnly = false) => f.import(name, ctx.runtimeModule, { typeOnly });
  const api = ctx.names.api(index);
  const clientName = api.client;
  f.jsdoc("", [
    `Client of ${s.name}${s.version ? ` (version ${s.version})` : ""}: one method per operation.`,
    "Each method resolves to a response whose status the spec declares, typed by status (narrow it with " +
      "`switch (response.status)`); `headers` carries every response header, pagination headers included. Any other " +
      "status throws RestUnexpectedStatusError. Network errors, aborts and timeouts reject like fetch does.",
  ]);
  f.print(`export interface ${clientName} {`);
  for (const op of s.operations) emitSignature(f, op, ctx.names.operation(op).method, tctx, rt);
  f.print("}");
  f.print();
  f.print(`type ${api.clientResult}<K extends keyof ${clientName}> = Awaited<ReturnType<${clientName}[K]>>;`);
  f.print();
  f.jsdoc("", [`A {@link ${clientName}} sending requests to \`options.baseUrl\` (the API root, including its base path).`]);
  f.print(`export function ${api.createClient}(options: `, rt("RestClientOptions", true), `): ${clientName} {`);
  f.print("  return {");
  for (const op of s.operations) emitMethod(f, op, ctx.names.operation(op).method, api.clientResult, rt);
  f.print("  };");
  f.print("}");
  f.print();
}

type Runtime = (name: string, typeOnly?: boolean) => Printable;

function resultPrintable(f: GeneratedFile, op: HttpOperation, tctx: TypesContext, rt: Runtime): Printable {
  const parts: Printable[] = [];
  for (const r of op.responses) {
    const status = exactStatus(r.status);
    parts.push(parts.length === 0 ? "" : " | ", rt("RestResponse", true), `<${status ?? "number"}, `, contentsPrintable(f, r.contents, tctx), ">");
  }
  return parts.length === 0 ? "never" : parts;
}

function emitSignature(f: GeneratedFile, op: HttpOperation, method: string, tctx: TypesContext, rt: Runtime): void {
  f.jsdoc("  ", [op.summary, op.doc, op.deprecated ? "@deprecated" : undefined, operationLine(op, method)]);
  const shape = requestShape(f, op, tctx);
  const result = resultPrintable(f, op, tctx, rt);
  f.print(`  ${method}(`);
  if (shape.properties.length > 0) {
    f.print(`    request${shape.optional ? "?" : ""}: {`);
    for (const p of shape.properties) f.print("      ", p);
    f.print("    },");
  }
  f.print("    options?: ", rt("RestCallOptions", true), ",");
  f.print("  ): Promise<", result, ">;");
}

function emitMethod(f: GeneratedFile, op: HttpOperation, method: string, resultOf: string, rt: Runtime): void {
  const input = requestInput(op);
  f.print(`    async ${method}(${input.present ? `request${input.optional ? " = {}" : ""}, ` : ""}call) {`);
  const query = parametersAt(op, "query");
  if (query.length > 0) {
    f.print("      const query = new URLSearchParams();");
    for (const p of query) emitQueryParam(f, p, rt);
  }
  const headers = parametersAt(op, "header").map((p) => {
    const groupOptional = parametersAt(op, "header").every((h) => !h.required);
    const value = propertyAccess(propertyAccess("request", "header"), p.name, groupOptional);
    return [f.string(p.name), `: ${stringify(value, p.required)}`];
  });
  const body = clientBodyContent(op);
  let bodyArg = "undefined";
  if (body && op.requestBody) {
    const value = "request.body";
    if (body.kind === "json") bodyArg = `{ kind: "json", value: ${value} }`;
    else {
      f.print("      const form = ", rt("restFormBody"), `(${value}${op.requestBody.required ? "" : " ?? {}"});`);
      bodyArg = `{ kind: "form", value: form }`;
    }
    if (!op.requestBody.required && body.kind === "json") bodyArg = `${value} === undefined ? undefined : ${bodyArg}`;
  }
  const headerArg: Printable = headers.length === 0 ? "{}" : ["{ ", headers.flatMap((h, i) => (i === 0 ? [h] : [", ", h])), " }"];
  f.print("      const response = await ", rt("restSend"), "(");
  f.print("        options,");
  f.print(`        ${stringLiteral(op.name)},`);
  f.print(`        ${stringLiteral(op.method.toUpperCase())},`);
  f.print("        ", pathExpression(f, op, rt), ",");
  f.print(`        ${query.length > 0 ? "query" : "undefined"},`);
  f.print("        ", headerArg, ",");
  f.print(`        ${bodyArg},`);
  f.print("        call,");
  f.print("      );");
  const conditions = [...new Set(op.responses.map((r) => statusCondition("response.status", r.status)))];
  if (conditions.includes("true")) f.print(`      return response as ${resultOf}<${stringLiteral(method)}>;`);
  else {
    if (conditions.length > 0) {
      f.print(`      if (${conditions.join(" || ")}) {`);
      f.print(`        return response as ${resultOf}<${stringLiteral(method)}>;`);
      f.print("      }");
    }
    f.print("      throw new ", rt("RestUnexpectedStatusError"), `(${stringLiteral(op.name)}, response.status, response.body, response.headers);`);
  }
  f.print("    },");
}

function stringify(value: string, required: boolean): string {
  return required ? `String(${value})` : `${value} === undefined ? undefined : String(${value})`;
}

function emitQueryParam(f: GeneratedFile, p: HttpParameter, rt: Runtime): void {
  const value = propertyAccess(propertyAccess("request", "query"), p.name, true);
  if (p.style === "deepObject") {
    f.print("      ", rt("restAppendDeepObject"), `(query, `, f.string(p.name), `, ${value});`);
    return;
  }
  const explode = p.explode ?? true;
  f.print("      ", rt("restAppendForm"), `(query, `, f.string(p.name), `, ${value}, ${explode});`);
}

/** The path with each {param} replaced by its percent-encoded value: `"/webhooks/" + restPathParam(request.path.id)`. */
function pathExpression(f: GeneratedFile, op: HttpOperation, rt: Runtime): Printable {
  const parts: Printable[] = [];
  const pieces = op.path.split(/(\{[^{}]+\})/);
  for (const piece of pieces) {
    if (piece === "") continue;
    const param = /^\{([^{}]+)\}$/.exec(piece);
    if (parts.length > 0) parts.push(" + ");
    if (param) {
      parts.push(rt("restPathParam"), `(${propertyAccess(propertyAccess("request", "path"), param[1]!)})`);
    } else parts.push(f.string(piece));
  }
  return parts.length === 0 ? f.string("") : parts;
}
