/**
 * First-party plugin `specforge:msw` (docs/plugins.md): `msw.ts` with Mock Service Worker 2.x request handlers for
 * every REST operation of an OpenAPI spec. Per HTTP service:
 *  - `<api>MockHandlers`: an implementation of the generated server's handlers interface answering every operation
 *    as `specforge mock` does by default (src/mock/rest.ts: the same response, the spec's first example the
 *    generated decoder accepts, else the value generator's value for the same seed), with the values written into
 *    the file at generation time;
 *  - `<api>MswHandlers(options)`: one `http.<method>(url, resolver)` per operation, each handing the request to the
 *    generated server (createXServer) built on those handlers, so requests are parsed and validated by the generated
 *    validators and a bad one gets the server's (and the mock's) 400. `options.handlers` replaces handlers (typed by
 *    the server's interface), `options.baseUrl` says where the API is mocked.
 * Names come from the naming pass (the server's, the validators' and codecs' derived names); spec text reaches the
 * file only through the escaping functions.
 */
import { lineCommentText, stringLiteral, valueLiteral } from "../../codegen/escape.js";
import type { Example, HttpContent, HttpOperation, HttpService, IrDocument } from "../../ir/model.js";
import { mockBasePath, mockBodyDraw, mockOperationSeed, mockResponseContent, mockResponseFor, mockResponseHeaders, mockStatusHasNoBody } from "../../mock/rest.js";
import { ValueGenerator } from "../../mock/values.js";
import type { PluginContext, PluginFile, SpecforgePlugin } from "../user-plugins.js";

/** The seed `specforge mock` uses without --seed: the handlers answer what the mock answers. */
const MOCK_SEED = "specforge";

const hasHttpService = (doc: IrDocument) => doc.format === "openapi" && doc.services.some((s) => s.kind === "http");

/** MSW's request handler function per HTTP method (`http.all` for TRACE, which MSW has no function for). */
const MSW_METHOD: Record<HttpOperation["method"], string> = {
  get: "get",
  put: "put",
  post: "post",
  delete: "delete",
  options: "options",
  head: "head",
  patch: "patch",
  trace: "all",
};

export const mswPlugin: SpecforgePlugin = {
  name: "msw",
  applies: hasHttpService,
  emit(ctx: PluginContext): PluginFile[] {
    const needed = ["server.ts", "validate.ts", "json.ts", "types.ts"];
    const missing = needed.filter((f) => !ctx.files.includes(f));
    if (missing.length > 0) {
      const service = ctx.doc.services.find((s) => s.kind === "http")!;
      ctx.warn(service.origin, `the msw plugin needs ${missing.join(", ")} (the server, validators and json artifacts); no msw.ts written`);
      return [];
    }
    const gen = new ValueGenerator(ctx.doc, { int64: ctx.int64, dates: ctx.dates });
    const imports = { types: new Set<string>(), json: new Set<string>(), server: new Set<string>() };
    const body: string[] = [];
    ctx.doc.services.forEach((s, index) => {
      if (s.kind !== "http") return;
      body.push(...emitService(ctx, gen, s, index, imports));
    });
    const sorted = (set: Set<string>) => [...set].sort();
    const lines: string[] = [ctx.header, ""];
    lines.push('import * as msw from "msw";');
    lines.push(`import type { RestResult, RestServerOptions } from ${stringLiteral(ctx.runtimeModule)};`);
    lines.push(`import { ${sorted(imports.server).join(", ")} } from "./server.js";`);
    if (imports.json.size > 0) lines.push(`import { ${sorted(imports.json).join(", ")} } from "./json.js";`);
    if (imports.types.size > 0) lines.push(`import type { ${sorted(imports.types).join(", ")} } from "./types.js";`);
    lines.push(
      "",
      "/**",
      " * A default handler's body: the first of the spec's examples the generated decoder accepts (it validates), else",
      " * the value drawn by specforge's value generator, as `specforge mock` answers.",
      " */",
      "function mockBody<T>(examples: readonly unknown[], decode: ((text: string) => T) | undefined, generated: unknown): T {",
      "  for (const example of examples) {",
      "    if (example === null || decode === undefined) return example as T;",
      "    try {",
      "      return decode(JSON.stringify(example));",
      "    } catch {",
      "      // The example fails the schema: the next one, or the generated value.",
      "    }",
      "  }",
      "  return generated as T;",
      "}",
      "",
      "/** A reply the handler's type cannot state (a body the spec declares for 204, no response declared at all). */",
      "function mockAny(reply: RestResult): never {",
      "  return reply as never;",
      "}",
      "",
      "/** The origin (\"*\" for any, also when the URL is a path alone) and the base path of a base URL. */",
      "function mswBase(baseUrl: string): { origin: string; path: string } {",
      "  const m = /^([a-z][a-z0-9+.-]*:\\/\\/[^/?#]*|\\*)?([^?#]*)/i.exec(baseUrl);",
      "  return { origin: m?.[1] ?? \"*\", path: (m?.[2] ?? \"\").replace(/\\/+$/, \"\") };",
      "}",
      "",
    );
    lines.push(...body);
    return [{ path: "msw.ts", content: lines.join("\n") }];
  },
};

function emitService(ctx: PluginContext, gen: ValueGenerator, s: HttpService, index: number, imports: { types: Set<string>; json: Set<string>; server: Set<string> }): string[] {
  const api = ctx.names.api(index);
  imports.server.add(api.createServer);
  imports.server.add(`type ${api.handlers}`);
  // The naming pass's (WebhooksAPIClient -> webhooksAPIMockHandlers, webhooksAPIMswHandlers).
  const defaults = api.mockHandlers;
  const factory = api.mswHandlers;
  const H = api.handlers;
  const defaultBase = defaultBaseUrl(s);
  const out: string[] = [];
  out.push(
    `/** ${H} answering every operation as \`specforge mock\` does by default: the spec's examples, else generated values. */`,
    `export const ${defaults}: ${H} = {`,
  );
  for (const op of s.operations) {
    const method = ctx.names.operation(op).method;
    out.push(`  /** ${comment(`${op.method.toUpperCase()} ${op.path}`)} */`);
    out.push(`  ${method}: () => ${defaultReply(ctx, gen, op, imports, "  ")},`);
  }
  out.push("};", "");
  out.push(
    "/**",
    ` * MSW request handlers for every operation of ${comment(s.name)}: each hands the request to the generated server,`,
    " * which validates it (a bad one gets its 400) and calls the handler, `options.handlers` or the default one.",
    " */",
    `export function ${factory}(`,
    "  options: {",
    `    /** Where the API is mocked, its base path included; default ${comment(defaultBase)} (\"*\" for any origin). */`,
    "    baseUrl?: string;",
    `    /** Handlers replacing the defaults of ${defaults}, typed like the generated server's. */`,
    `    handlers?: Partial<${H}>;`,
    "    /** Options of the generated server behind the handlers (`development` validates every answer). */",
    "    server?: RestServerOptions;",
    "  } = {},",
    "): msw.HttpHandler[] {",
    `  const { origin, path } = mswBase(options.baseUrl ?? ${stringLiteral(defaultBase)});`,
    `  const serve = ${api.createServer}({ ...${defaults}, ...options.handlers }, { ...options.server, basePath: path });`,
    "  const resolver = ({ request }: { request: Request }) => serve(request);",
    "  return [",
  );
  for (const op of s.operations) {
    out.push(`    msw.http.${MSW_METHOD[op.method]}(origin + path + ${stringLiteral(mswPath(op.path))}, resolver), // ${ctx.names.operation(op).method}`);
  }
  out.push("  ];", "}", "");
  return out;
}

/** The spec's first server URL when it is a plain absolute URL, else any origin with the mock's base path. */
function defaultBaseUrl(s: HttpService): string {
  const first = s.servers[0];
  if (first !== undefined && /^https?:\/\/[^{}?#\s]*$/i.test(first)) return first.replace(/\/+$/, "");
  return `*${mockBasePath(s)}`;
}

/**
 * An operation's path as an MSW path: a path parameter's segment, and a segment with a character MSW's matcher reads
 * as a pattern (`:`, `*`, `(`...), as a `*` wildcard, other segments as written. A wildcard also matches an empty
 * parameter (`:id` would not); the server behind the handler routes the request exactly, so a wider match answers
 * the same.
 */
function mswPath(path: string): string {
  return path
    .split("/")
    .map((segment, i) => (i === 0 || /^[A-Za-z0-9._~!$&'=@,;-]*$/.test(segment) ? segment : "*"))
    .join("/");
}

/** Text for a `/** ... *\/` comment: escaped like a string literal, comment terminators broken. */
function comment(text: string): string {
  return stringLiteral(text).slice(1, -1).replace(/\*\//g, "*\\/");
}

/** The default handler's reply for an operation: the response, headers and body `specforge mock` answers with. */
function defaultReply(ctx: PluginContext, gen: ValueGenerator, op: HttpOperation, imports: { types: Set<string>; json: Set<string> }, indent: string): string {
  const chosen = mockResponseFor(op, undefined);
  if (!chosen) return `mockAny({ status: 500, body: { message: "the operation declares no response" } })`;
  const { response, status } = chosen;
  const seed = mockOperationSeed(MOCK_SEED, op);
  const headers = mockResponseHeaders(gen, response, `${seed}:${status}`);
  const headerPart = headers ? `, headers: ${valueLiteral(headers, `${indent}  `)}` : "";
  const content = mockResponseContent(response);
  if (!content || mockStatusHasNoBody(status)) {
    const reply = `{ status: ${status}${headerPart} }`;
    // The handler's type requires a body where the spec declares one (a 204 with content): not ours to send.
    return content ? `mockAny(${reply})` : `(${reply})`;
  }
  const examples = (content.examples ?? []).flatMap((ex) => exampleLiteral(ctx, ex, content, `${indent}    `));
  const generated = valueLiteral(mockBodyDraw(gen, content, seed, status), `${indent}  `);
  const list = examples.length === 0 ? "[]" : `[\n${examples.map((e) => `${indent}    ${e.code},${e.name !== undefined ? ` // ${lineCommentText(e.name)}` : ""}`).join("\n")}\n${indent}  ]`;
  if (content.type.kind === "ref") {
    const name = ctx.names.type(content.type.id);
    imports.types.add(name);
    const decode = ctx.names.derived(content.type.id, "decodeJson");
    imports.json.add(decode);
    const T = content.nullable ? `${name} | null` : name;
    return `({\n${indent}  status: ${status},\n${indent}  body: mockBody<${T}>(${list}, ${decode}, ${generated})${headerPart ? `,\n${indent} ${headerPart.slice(1)}` : ""},\n${indent}})`;
  }
  // An inline schema (a string, a list of refs): no generated decoder or validator; the first example as written.
  return `mockAny({\n${indent}  status: ${status},\n${indent}  body: mockBody<unknown>(${list}, undefined, ${generated})${headerPart ? `,\n${indent} ${headerPart.slice(1)}` : ""},\n${indent}})`;
}

/** An example as a literal; none for one that has no JSON value, or is null where the content is not nullable. */
function exampleLiteral(ctx: PluginContext, ex: Example, content: HttpContent, indent: string): { code: string; name?: string }[] {
  if (ex.value === undefined || (ex.value === null && content.nullable !== true)) return [];
  try {
    return [{ code: valueLiteral(ex.value, indent), ...(ex.name !== undefined ? { name: ex.name } : {}) }];
  } catch (e) {
    ctx.warn(ex.origin, `example left out of msw.ts: ${e instanceof Error ? e.message : String(e)}`);
    return [];
  }
}
