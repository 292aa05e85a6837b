import { stringLiteral } from "../../codegen/escape.js";
import { GeneratedFile, type Printable } from "../../codegen/generated-file.js";
import type { HttpOperation, HttpParameter, HttpService } from "../../ir/model.js";
import type { EmitContext } from "../artifact.js";
import type { TypesContext } from "../types/context.js";
import {
  clientBodyContent, contentsPrintable, exactStatus, httpServices, jsonContent, propertyAccess, restTypesContext,
  statusCondition,
} from "./http-shared.js";
import { JsonBodyCodecs } from "./json-body-codec.js";
import { parametersAt, requestInput, requestShape } from "./request-type.js";
import { operationLine } from "../types/services.js";
import { encodingSource, isScalarBody } from "./form-encoding.js";
import { parameterPlan } from "./parameter-style.js";

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
  const codecs = new JsonBodyCodecs(f, tctx, ctx.runtimeModule);
  for (const op of s.operations) emitMethod(f, op, ctx.names.operation(op).method, api.clientResult, rt, tctx, codecs);
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
  const shape = requestShape(f, op, tctx, rt);
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

function emitMethod(f: GeneratedFile, op: HttpOperation, method: string, resultOf: string, rt: Runtime, tctx: TypesContext, codecs: JsonBodyCodecs): void {
  const input = requestInput(op);
  f.print(`    async ${method}(${input.present ? `request${input.optional ? " = {}" : ""}, ` : ""}call) {`);
  const query = parametersAt(op, "query");
  if (query.length > 0) {
    f.print("      const query: string[] = [];");
    for (const p of query) emitQueryParam(f, p, rt, tctx);
  }
  const cookies = parametersAt(op, "cookie");
  if (cookies.length > 0) {
    f.print("      const cookies: string[] = [];");
    const groupOptional = cookies.every((c) => !c.required);
    for (const p of cookies) {
      const value = jsonWrapped(propertyAccess(propertyAccess("request", "cookie"), p.name, groupOptional), p, tctx, rt);
      f.print("      ", rt("restAppendCookie"), "(cookies, ", f.string(p.name), ", ", value, `, ${parameterPlan(p, tctx).explode});`);
    }
  }
  const headerParams = parametersAt(op, "header");
  const headers: Printable[] = headerParams.map((p) => {
    const groupOptional = headerParams.every((h) => !h.required);
    const value = propertyAccess(propertyAccess("request", "header"), p.name, groupOptional);
    const plan = parameterPlan(p, tctx);
    const text: Printable =
      plan.kind === "scalar" ? stringify(value, p.required)
      : plan.kind === "json" ? [rt("restJsonText"), `(${value})`]
      : [rt("restHeaderValue"), `(${value}, ${plan.explode})`];
    return [f.string(p.name), ": ", text];
  });
  if (cookies.length > 0) headers.push(['"cookie": ', rt("restCookieHeader"), "(cookies)"]);
  const body = clientBodyContent(op);
  let bodyArg: Printable = "undefined";
  if (body && op.requestBody) {
    // A null body (a nullable schema) has no fields: an empty form.
    const value = `request.body${op.requestBody.required && !body.content.nullable ? "" : " ?? {}"}`;
    const encoding = encodingSource(body.content);
    const args = encoding === "" ? value : `${value}, ${encoding}`;
    if (body.kind === "json") {
      // Bytes, dates and 64-bit integers are written by the generated encoders, not JSON.stringify (JsonBodyCodecs).
      const codec = codecs.of(body.content.type, body.content.nullable);
      bodyArg = codec ? ['{ kind: "json", value: request.body, text: ', codec.encode("request.body"), " }"] : `{ kind: "json", value: request.body }`;
      if (!op.requestBody.required) bodyArg = ["request.body === undefined ? undefined : ", bodyArg];
    } else if (body.kind === "form" && isScalarBody(body.content.type, tctx)) {
      // The body is the form's text itself (see isScalarBody).
      f.print("      const form = request.body === undefined || request.body === null ? [] : [String(request.body)];");
      bodyArg = `{ kind: "form", value: form }`;
    } else if (body.kind === "form") {
      f.print("      const form = ", rt("restFormPieces"), `(${args});`);
      bodyArg = `{ kind: "form", value: form }`;
    } else {
      f.print("      const form = ", rt("restMultipartBody"), `(${args});`);
      bodyArg = `{ kind: "multipart", value: form }`;
    }
  }
  const headerArg: Printable = headers.length === 0 ? "{}" : ["{ ", headers.flatMap((h, i) => (i === 0 ? [h] : [", ", h])), " }"];
  f.print("      const response = await ", rt("restSend"), "(");
  f.print("        options,");
  f.print(`        ${stringLiteral(op.name)},`);
  f.print(`        ${stringLiteral(op.method.toUpperCase())},`);
  f.print("        ", pathExpression(f, op, rt, tctx), ",");
  f.print(`        ${query.length > 0 ? "query" : "undefined"},`);
  f.print("        ", headerArg, ",");
  f.print("        ", bodyArg, ",");
  const revivers = responseRevivers(op, codecs);
  f.print("        call,");
  if (revivers.length > 0 && codecs.parseBigints) f.print("        ", rt("restParseJsonBigints"), ",");
  f.print("      );");
  for (const r of revivers) {
    const revived: Printable = r.revive ? ["{ ...response, body: ", r.revive("response.body"), " }"] : "response";
    if (r.condition === "true") f.print("      return ", revived, ` as ${resultOf}<${stringLiteral(method)}>;`);
    else f.print(`      if (${r.condition}) return `, revived, ` as ${resultOf}<${stringLiteral(method)}>;`);
  }
  const unexpected = () => f.print("      throw new ", rt("RestUnexpectedStatusError"), `(${stringLiteral(op.name)}, response.status, response.body, response.headers);`);
  if (revivers.length > 0) {
    // Every declared status has its line above.
    if (!revivers.some((r) => r.condition === "true")) unexpected();
    f.print("    },");
    return;
  }
  const conditions = [...new Set(op.responses.map((r) => statusCondition("response.status", r.status)))];
  if (conditions.includes("true")) f.print(`      return response as ${resultOf}<${stringLiteral(method)}>;`);
  else {
    if (conditions.length > 0) {
      f.print(`      if (${conditions.join(" || ")}) {`);
      f.print(`        return response as ${resultOf}<${stringLiteral(method)}>;`);
      f.print("      }");
    }
    unexpected();
  }
  f.print("    },");
}

/**
 * When a declared response's JSON body holds bytes, dates or 64-bit integers, the statuses in the order they apply
 * (exact statuses, then ranges, then `default`), each with the reviver that turns the parsed JSON into the typed
 * body (undefined: returned as parsed). Empty when no response needs reviving: the method returns as before.
 */
function responseRevivers(op: HttpOperation, codecs: JsonBodyCodecs): { condition: string; revive?: (v: string) => Printable }[] {
  const rank = (status: string) => (exactStatus(status) !== undefined ? 0 : status === "default" ? 2 : 1);
  const ordered = [...op.responses].sort((a, b) => rank(a.status) - rank(b.status));
  const out: { condition: string; revive?: (v: string) => Printable }[] = [];
  for (const r of ordered) {
    const json = jsonContent(r.contents);
    const codec = json && codecs.of(json.type, json.nullable);
    out.push({ condition: statusCondition("response.status", r.status), ...(codec ? { revive: codec.revive } : {}) });
  }
  return out.some((r) => r.revive) ? out : [];
}

function stringify(value: string, required: boolean): string {
  return required ? `String(${value})` : `${value} === undefined ? undefined : String(${value})`;
}

/** One query parameter appended to the encoded pieces in its style (runtime restAppendQuery). */
function emitQueryParam(f: GeneratedFile, p: HttpParameter, rt: Runtime, tctx: TypesContext): void {
  const value = jsonWrapped(propertyAccess(propertyAccess("request", "query"), p.name, true), p, tctx, rt);
  const { style, explode } = parameterPlan(p, tctx);
  f.print("      ", rt("restAppendQuery"), "(query, ", f.string(p.name), ", ", value, `, ${stringLiteral(style)}, ${explode});`);
}

/** A parameter described by JSON `content` travels as its JSON text (`restJsonText(value)`); others as they are. */
function jsonWrapped(value: string, p: HttpParameter, tctx: TypesContext, rt: Runtime): Printable {
  return parameterPlan(p, tctx).kind === "json" ? [rt("restJsonText"), `(${value})`] : value;
}

/**
 * The path with each {param} replaced by its percent-encoded value: `"/webhooks/" + restPathParam(request.path.id)`
 * for a primitive in style simple, else `restPathValue(name, value, style, explode)` (label, matrix, arrays, objects).
 */
function pathExpression(f: GeneratedFile, op: HttpOperation, rt: Runtime, tctx: TypesContext): Printable {
  const parts: Printable[] = [];
  const pieces = op.path.split(/(\{[^{}]+\})/);
  for (const piece of pieces) {
    if (piece === "") continue;
    const param = /^\{([^{}]+)\}$/.exec(piece);
    if (parts.length > 0) parts.push(" + ");
    if (param) {
      const value = propertyAccess(propertyAccess("request", "path"), param[1]!);
      const declared = parametersAt(op, "path").find((p) => p.name === param[1]);
      const plan = declared && parameterPlan(declared, tctx);
      if (plan?.kind === "json") parts.push(rt("restPathParam"), `(JSON.stringify(${value}))`);
      else if (!plan || (plan.kind === "scalar" && plan.style === "simple")) parts.push(rt("restPathParam"), `(${value})`);
      else parts.push(rt("restPathValue"), "(", f.string(param[1]!), `, ${value}, ${stringLiteral(plan.style)}, ${plan.explode})`);
    } else parts.push(f.string(piece));
  }
  return parts.length === 0 ? f.string("") : parts;
}
