import { setPropertyCode, stringLiteral } from "../../codegen/escape.js";
import { GeneratedFile, type Printable } from "../../codegen/generated-file.js";
import type { HttpOperation, HttpService } from "../../ir/model.js";
import type { EmitContext } from "../artifact.js";
import type { TypesContext } from "../types/context.js";
import {
  clientBodyContent, contentsPrintable, exactStatus, formContent, httpServices, jsonContent, multipartContent,
  requestBodyPrintable, restTypesContext,
} from "../rest-client/http-shared.js";
import { parametersAt, requestShape } from "../rest-client/request-type.js";
import { emitFormDecoder } from "./form-decoder.js";
import { emitParameter, type Runtime } from "./parameter-parsing.js";
import { bodyValidator, emitResponseValidator } from "./validators.js";
import { JsonBodyCodecs } from "../rest-client/json-body-codec.js";
import { statusCondition } from "../rest-client/http-shared.js";

import { operationLine } from "../types/services.js";
import type { OperationNames } from "../../naming/assign-names.js";

/**
 * The REST server artifact: `<dir>/server.ts` with, per HTTP service, a handler interface `<Api>Handlers` (one
 * method per operation, typed input and typed replies by status) and `create<Api>Server(handlers, options)`, a
 * web-standard `(Request) => Promise<Response>`. Parameters are parsed by straight-line code printed here; bodies
 * and (in development mode) responses are checked by the validators of ./validate.js.
 */
export function emitServer(ctx: EmitContext, options: { readonly validators: boolean; readonly serializers?: boolean } = { validators: true }): GeneratedFile {
  const f = new GeneratedFile(`${ctx.dir}/server.ts`, ctx.source);
  const tctx = restTypesContext(ctx);
  const services = [];
  for (const { service, index } of httpServices(ctx.doc)) {
    emitServiceServer(f, service, index, ctx, tctx, options.validators, options.serializers ?? options.validators);
    const api = ctx.names.api(index);
    services.push({ name: service.name, version: service.version ?? "", handlers: api.handlers, server: api.server, factory: api.createServer });
  }
  // The whole-file shell is templates/server.hbs (overridable); its context is documented in docs/templates.md.
  f.shell = { template: "server", context: { services } };
  return f;
}

function emitServiceServer(
  f: GeneratedFile,
  s: HttpService,
  index: number,
  ctx: EmitContext,
  tctx: TypesContext,
  validators: boolean,
  serializers: boolean,
): void {
  const rt: Runtime = (name, typeOnly = false) => f.import(name, ctx.runtimeModule, { typeOnly });
  const api = ctx.names.api(index);
  const handlers = api.handlers;
  const inputOf = api.handlerInput;
  f.jsdoc("", [
    `Handlers of ${s.name}${s.version ? ` (version ${s.version})` : ""}: one method per operation.`,
    "Each receives its parsed and validated parameters (`path`, `query`, `header`), the validated `body` and the " +
      "`request`, and returns (or resolves to) one of the responses the spec declares: `{ status, body, headers? }`.",
  ]);
  f.print(`export interface ${handlers} {`);
  for (const op of s.operations) emitHandlerSignature(f, op, ctx.names.operation(op).method, tctx, rt);
  f.print("}");
  f.print();
  f.print(`type ${inputOf}<K extends keyof ${handlers}> = Parameters<${handlers}[K]>[0];`);
  f.print();
  for (const op of s.operations) {
    const names = ctx.names.operation(op);
    emitParseFunction(f, op, names, inputOf, tctx, rt, validators);
    const form = op.requestBody ? formContent(op.requestBody.contents) : undefined;
    if (form) emitFormDecoder(f, names.decodeForm, form, tctx, rt, false);
    const multipart = op.requestBody ? multipartContent(op.requestBody.contents) : undefined;
    if (multipart) emitFormDecoder(f, names.decodeMultipart, multipart, tctx, rt, true);
    if (validators) emitResponseValidator(f, names.validateResponse, op, tctx, rt);
  }
  const basePath = s.servers[0] !== undefined ? basePathOf(s.servers[0]) : "";
  f.jsdoc("", [
    `The ${s.name} server as a web-standard handler. Routes are matched under \`options.basePath\` ` +
      `(default ${JSON.stringify(basePath)}, the path of the spec's first server URL).`,
  ]);
  f.print(`export function ${api.createServer}(`);
  f.print(`  handlers: ${handlers},`);
  f.print("  options: ", rt("RestServerOptions", true), " = {},");
  f.print("): (request: Request) => Promise<Response> {");
  f.print("  return ", rt("createRestHandler"), "(");
  f.print("    [");
  // The named types whose JSON is not JSON.stringify's of their values (as json.ts works it out for its decoders).
  const codecs = serializers ? new JsonBodyCodecs(f, tctx, ctx.runtimeModule) : undefined;
  for (const op of s.operations) emitBinding(f, op, ctx.names.operation(op), rt, tctx, validators, codecs);
  f.print("    ],");
  f.print(`    { basePath: ${stringLiteral(basePath)}, ...options },`);
  f.print("  );");
  f.print("}");
  f.print();
}

function basePathOf(serverUrl: string): string {
  const match = /^[a-z][a-z0-9+.-]*:\/\/[^/]*(\/[^?#]*)?/i.exec(serverUrl);
  const path = match ? (match[1] ?? "") : serverUrl.replace(/[?#].*$/, "");
  return path.replace(/\/+$/, "");
}

function emitHandlerSignature(f: GeneratedFile, op: HttpOperation, method: string, tctx: TypesContext, rt: Runtime): void {
  f.jsdoc("  ", [op.summary, op.doc, op.deprecated ? "@deprecated" : undefined, operationLine(op, method)]);
  const replies: Printable[] = [];
  for (const r of op.responses) {
    const status = exactStatus(r.status);
    replies.push(replies.length === 0 ? "" : " | ", rt("RestReply", true), `<${status ?? "number"}, `, contentsPrintable(f, r.contents, tctx), ">");
  }
  const reply: Printable = replies.length === 0 ? "never" : replies;
  f.print(`  ${method}(input: {`);
  // Parameter groups are always present on the server side (possibly empty), so handlers need no `?.`.
  for (const p of requestShape(f, op, tctx, rt, { server: true }).properties) f.print("    ", p);
  f.print("    request: Request;");
  f.print("  }): ", reply, " | Promise<", reply, ">;");
}

function emitParseFunction(
  f: GeneratedFile,
  op: HttpOperation,
  names: OperationNames,
  inputOf: string,
  tctx: TypesContext,
  rt: Runtime,
  validators: boolean,
): void {
  const name = names.parseParameters;
  const pathParams = [...op.path.matchAll(/\{([^{}]+)\}/g)].map((m) => m[1]!);
  const omit = op.requestBody ? `"body" | "request"` : `"request"`;
  f.print(`function ${name}(`);
  f.print("  segments: readonly string[],");
  f.print("  search: ", rt("RestQuery", true), ",");
  f.print("  request: Request,");
  f.print("  issues: ", rt("ValidationIssue", true), "[],");
  f.print(`): Omit<${inputOf}<${stringLiteral(names.method)}>, ${omit}> {`);
  const groups: { where: string; entries: { key: string; local: string }[] }[] = [];
  let n = 0;
  if (parametersAt(op, "cookie").length > 0) f.print("  const cookies = ", rt("restCookies"), '(request.headers.get("cookie"));');
  for (const where of ["path", "query", "header", "cookie"] as const) {
    const params = parametersAt(op, where);
    if (params.length === 0) continue;
    const entries = params.map((p) => {
      const local = `${where}${n++}`;
      const text: Printable =
        where === "path" ? `segments[${pathParams.indexOf(p.name)}]`
        : where === "query" ? ["search.get(", f.string(p.name), ")"]
        : where === "cookie" ? ["cookies.get(", f.string(p.name), ")"]
        : ["request.headers.get(", f.string(p.name), ")"];
      const siblings = params.filter((o) => o !== p).map((o) => o.name);
      const validator = validators ? () => bodyValidator(f, p.type, tctx) : undefined;
      emitParameter(f, p, local, { text, query: where === "cookie" ? "cookies" : "search", siblings }, tctx, rt, validator);
      return { key: p.name, local };
    });
    groups.push({ where, entries });
  }
  const has = (where: string) => groups.some((g) => g.where === where);
  const unused = [
    has("path") ? "" : "segments",
    has("query") ? "" : "search",
    has("header") || has("cookie") ? "" : "request",
    groups.length > 0 ? "" : "issues",
  ].filter((u) => u !== "");
  if (unused.length > 0) f.print(`  void ${unused.join(", ")};`);
  for (const g of groups) {
    f.print(`  const ${g.where}: { [key: string]: unknown } = {};`);
    for (const e of g.entries) f.print(`  if (${e.local} !== undefined) ${setPropertyCode(g.where, e.key, e.local)};`);
  }
  // The checks above guarantee the declared types whenever no issue was pushed (the only case the result is used).
  const result = groups.length > 0 ? `{ ${groups.map((g) => g.where).join(", ")} }` : "{}";
  f.print(`  return ${result} as unknown as Omit<${inputOf}<${stringLiteral(names.method)}>, ${omit}>;`);
  f.print("}");
  f.print();
}

/**
 * The parameter groups of a handler's input, copied one by one from the parsed parameters ("path: params.path, ").
 * Not `{ ...params, request }`: V8 builds a spread-then-add literal on a slow path (350-580 ns measured on Node 20).
 */
function groupsOf(op: HttpOperation): string {
  return (["path", "query", "header", "cookie"] as const)
    .filter((where) => parametersAt(op, where).length > 0)
    .map((where) => `${where}: params.${where}, `)
    .join("");
}

/** The name of invoke's first argument: "_params" when the operation has no parameters to pass on. */
function paramsArg(op: HttpOperation): string {
  return groupsOf(op) === "" ? "_params" : "params";
}

function emitBinding(f: GeneratedFile, op: HttpOperation, names: OperationNames, rt: Runtime, tctx: TypesContext, validators: boolean, codecs: JsonBodyCodecs | undefined): void {
  const usesQuery = op.parameters.some((x) => x.in === "query");
  f.print("      ", rt("restOperation"), "({");
  f.print(`        name: ${stringLiteral(op.name)},`);
  f.print(`        method: ${stringLiteral(op.method.toUpperCase())},`);
  f.print(`        path: ${stringLiteral(op.path)},`);
  f.print(`        query: ${usesQuery},`);
  f.print(`        parameters: ${names.parseParameters},`);
  // A body only in media types the runtime cannot read is not handed over (the server answers 415 to it).
  if (op.requestBody && clientBodyContent(op)) {
    const json = jsonContent(op.requestBody.contents);
    const form = formContent(op.requestBody.contents);
    const multipart = multipartContent(op.requestBody.contents);
    const validator = validators ? bodyValidator(f, (json ?? form ?? multipart)?.type, tctx) : undefined;
    const bodyType = requestBodyPrintable(f, op.requestBody.contents, tctx, rt);
    f.print("        body: {");
    f.print(`          required: ${op.requestBody.required},`);
    f.print(`          json: ${json !== undefined},`);
    if (form) f.print(`          form: ${names.decodeForm},`);
    if (multipart) f.print(`          multipart: ${names.decodeMultipart},`);
    if (validator) f.print("          validate: ", validator, ",");
    // A JSON body holding bytes, dates or 64-bit integers is revived into its in-memory shape before validation.
    const codec = json && codecs?.of(json.type, json.nullable);
    if (codec) {
      f.print("          revive: (value: unknown) => ", codec.revive("value"), ",");
      if (codecs!.parseBigints) f.print("          parse: ", rt("restParseJsonBigints"), ",");
    }
    f.print("        },");
    f.print(`        invoke: (${paramsArg(op)}, body, request) => handlers.${names.method}({ ${groupsOf(op)}body: body as `, bodyType, ", request }),");
  } else {
    f.print(`        invoke: (${paramsArg(op)}, _body, request) => handlers.${names.method}({ ${groupsOf(op)}request }),`);
  }
  if (validators) f.print(`        validateResponse: ${names.validateResponse},`);
  if (codecs) emitResponseEncoder(f, op, codecs);
  f.print("      }),");
}

/**
 * `encodeResponse: (status, body) => ...`: the body of each declared status whose JSON media type carries a named
 * type (or a list of one) whose JSON differs from JSON.stringify's (it holds bytes, Date values or 64-bit integers:
 * the types the generated decoder revives) is written by the generated encoders (./json.js, `encode<T>Json`; see
 * JsonBodyCodecs), the writer the decoder mirrors: `format: byte` as base64, dates and 64-bit integers as the spec's
 * JSON says. Other bodies (types JSON.stringify writes right, inline schemas, no JSON media type, a body that is not a
 * value of its type) are left to JSON.stringify (undefined), as before.
 */
function emitResponseEncoder(f: GeneratedFile, op: HttpOperation, codecs: JsonBodyCodecs): void {
  const cases: { condition: string; encode: Printable }[] = [];
  for (const r of op.responses) {
    const json = jsonContent(r.contents);
    const condition = statusCondition("status", r.status);
    if (cases.some((c) => c.condition === "true")) break;
    const codec = json && codecs.of(json.type, json.nullable);
    if (codec === undefined) {
      // An earlier, more general entry must not answer for this status: it falls back to JSON.stringify.
      cases.push({ condition, encode: "undefined" });
      continue;
    }
    // A body that is not a value of its type (a handler's mistake) is left to JSON.stringify, as before encoders:
    // the encoder is only defined on values of the type.
    cases.push({ condition, encode: [codec.guard("body"), " ? ", codec.encode("body"), " : undefined"] });
  }
  if (!cases.some((c) => c.encode !== "undefined")) return;
  const parts: Printable[] = [];
  for (const c of cases) {
    if (c.condition === "true") {
      parts.push(c.encode);
      break;
    }
    parts.push(c.condition, " ? ", c.encode, " : ");
  }
  if (cases[cases.length - 1]!.condition !== "true") parts.push("undefined");
  f.print("        encodeResponse: (status, body) => ", parts, ",");
}
