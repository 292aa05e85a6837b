/**
 * The REST mock: the spec's generated typed server (which parses and validates every request with the generated
 * validators, answering 400 with the failing JSON pointers) driven by handlers that answer from the spec alone:
 * an example the spec gives (when the generated validator accepts it) or a value from the value generator.
 *
 * The response is chosen as Stoplight Prism does: the lowest 2xx the operation declares (else its lowest status,
 * else `default` as 200), unless the request says otherwise in `Prefer`: `code=404` picks that status (or the
 * `4XX` / `default` entry that covers it), `example=name` a named example, `dynamic=true` a generated value even
 * when the spec has an example. `--dynamic` makes generated values the default and draws a new one per request;
 * without it the same request gets the same answer (values are seeded by `seed`, the operation and the status).
 */
import type { Example, HttpContent, HttpOperation, HttpResponse, HttpService, TypeExpr } from "../ir/model.js";
import type { LoadedSpec } from "./load.js";
import { ValueGenerator } from "./values.js";

export interface MockOptions {
  /** Seed of generated values (default "specforge"). */
  readonly seed?: string | number;
  /** Generated values instead of the spec's examples, new ones per request (Prism's --dynamic). */
  readonly dynamic?: boolean;
  /** Told about every request answered (the CLI prints these on stderr). */
  readonly log?: (entry: MockLogEntry) => void;
  /** Path prefix of every route; default the path of each service's first server URL, as the typed server does. */
  readonly basePath?: string;
  /** Wait this long before each answer (milliseconds), to see how a client copes with a slow service. */
  readonly delayMs?: number;
}

export interface MockLogEntry {
  readonly method: string;
  readonly path: string;
  readonly status: number;
  /** The operation that answered; absent when the request matched none (404/405) */
  readonly operation?: string;
  /** Where the body came from. */
  readonly source?: "example" | "generated" | "none";
  /** The example's name, when one was used. */
  readonly example?: string;
  /** Why a spec example was passed over (it failed the generated validator), or why no response was declared. */
  readonly note?: string;
}

type Fn = (...args: unknown[]) => unknown;
type Reply = { status: number; body?: unknown; headers?: Record<string, string> };

/**
 * CORS settings for a mock (the emulators' `withCors`, runtime/http/cors.ts): pages may send the spec's header
 * parameters, its API-key headers and `Prefer`, and read the response headers the spec declares.
 */
export function mockCorsHeaders(spec: LoadedSpec): { allowHeaders: string[]; exposeHeaders: string[] } {
  const allow = new Set<string>(["prefer"]);
  const expose = new Set<string>(["www-authenticate"]);
  const token = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
  for (const s of spec.doc.services) {
    if (s.kind !== "http") continue;
    for (const scheme of s.securitySchemes) if (scheme.type === "apiKey" && scheme.in === "header" && scheme.paramName && token.test(scheme.paramName)) allow.add(scheme.paramName.toLowerCase());
    for (const op of s.operations) {
      for (const p of op.parameters) if (p.in === "header" && token.test(p.name)) allow.add(p.name.toLowerCase());
      for (const r of op.responses) for (const h of r.headers) if (token.test(h.name)) expose.add(h.name.toLowerCase());
    }
  }
  return { allowHeaders: [...allow], exposeHeaders: [...expose] };
}

/** Which operations a mock serves: every operation of every HTTP service of the spec. */
export function mockedOperations(spec: LoadedSpec): { service: HttpService; operation: HttpOperation }[] {
  return spec.doc.services.flatMap((s) => (s.kind === "http" ? s.operations.map((operation) => ({ service: s, operation })) : []));
}

/** A web-standard handler answering every operation of the spec's HTTP services. */
export function createRestMock(spec: LoadedSpec, options: MockOptions = {}): (request: Request) => Promise<Response> {
  const gen = new ValueGenerator(spec.doc, { int64: spec.int64, dates: spec.dates });
  const seed = String(options.seed ?? "specforge");
  let counter = 0;
  const servers: ((request: Request) => Promise<Response>)[] = [];
  const pending = new WeakMap<Request, Omit<MockLogEntry, "method" | "path" | "status">>();
  spec.doc.services.forEach((service, index) => {
    if (service.kind !== "http") return;
    const api = spec.names.api(index);
    const create = spec.module[api.createServer] as Fn | undefined;
    if (!create) throw new Error(`generated code has no ${api.createServer}`);
    const handlers: Record<string, (input: { request: Request }) => Reply> = {};
    for (const op of service.operations) {
      handlers[spec.names.operation(op).method] = ({ request }) => {
        const prefer = parsePrefer(request.headers.get("prefer"));
        const dynamic = prefer.dynamic ?? options.dynamic ?? false;
        const drawSeed = dynamic ? `${seed}:${op.name}:${counter++}` : mockOperationSeed(seed, op);
        const missing = missingCredentials(service, op, request);
        if (missing) {
          // As Prism: a request without any of the credentials the operation requires gets its 401 (or a plain one).
          const declared = mockResponseFor(op, 401);
          const challenge = { "www-authenticate": missing.challenge };
          const { reply, info } = declared
            ? answer(spec, gen, op, { ...prefer, code: 401 }, dynamic, drawSeed)
            : { reply: { status: 401, body: { message: missing.message } } as Reply, info: { source: "none" as const } };
          pending.set(request, { operation: op.name, ...info, note: missing.message });
          return { ...reply, headers: { ...reply.headers, ...challenge } };
        }
        const { reply, info } = answer(spec, gen, op, prefer, dynamic, drawSeed);
        pending.set(request, { operation: op.name, ...info });
        return reply;
      };
    }
    servers.push(create(handlers, { basePath: options.basePath ?? mockBasePath(service) }) as (request: Request) => Promise<Response>);
  });
  return async (request) => {
    let response: Response | undefined;
    for (const server of servers) {
      response = await server(request);
      // Several services: the next one may know the route.
      if (response.status !== 404 || pending.has(request)) break;
    }
    response ??= Response.json({ message: "Not found" }, { status: 404 });
    if (options.delayMs !== undefined && options.delayMs > 0) await new Promise((r) => setTimeout(r, options.delayMs));
    const url = new URL(request.url);
    options.log?.({ method: request.method, path: url.pathname + url.search, status: response.status, ...pending.get(request) });
    return response;
  };
}

/**
 * The path the mock serves a service under: the path of its first server URL, also when the URL is a template
 * (`{scheme}://host/api`, `{base}/v1`: variables before the path are dropped).
 */
export function mockBasePath(service: HttpService): string {
  const url = service.servers[0];
  if (url === undefined) return "";
  const match = /^[^/?#]*:\/\/[^/?#]*(\/[^?#]*)?/.exec(url);
  let path = match ? (match[1] ?? "") : url.replace(/[?#].*$/, "");
  if (!match && /^\{[^}]*\}/.test(path)) path = path.replace(/^\{[^}]*\}/, "");
  return path.replace(/\/+$/, "");
}

/**
 * Whether the request lacks every credential the operation's security requirements name (one of them suffices: the
 * IR keeps the schemes of all alternatives, not how they combine). Presence is checked, not validity: `Authorization:
 * Basic ...` for http basic, `Bearer ...` for http bearer, OAuth 2 and OpenID Connect, any Authorization for other
 * http schemes, the named header, query parameter or cookie for an API key. Mutual TLS counts as present.
 */
export function missingCredentials(service: HttpService, op: HttpOperation, request: Request): { message: string; challenge: string } | undefined {
  const names = op.security ?? [];
  if (names.length === 0) return undefined;
  const schemes = names.map((n) => service.securitySchemes.find((s) => s.name === n)).filter((s) => s !== undefined);
  if (schemes.length === 0) return undefined;
  const auth = request.headers.get("authorization") ?? "";
  const url = new URL(request.url);
  const cookies = (request.headers.get("cookie") ?? "").split(";").map((c) => c.trim().split("=")[0]);
  const present = schemes.some((s) => {
    switch (s.type) {
      case "http":
        return s.scheme?.toLowerCase() === "basic" ? /^basic\s+\S/i.test(auth) : s.scheme?.toLowerCase() === "bearer" ? /^bearer\s+\S/i.test(auth) : auth !== "";
      case "oauth2":
      case "openIdConnect":
        return /^bearer\s+\S/i.test(auth);
      case "apiKey":
        if (s.paramName === undefined) return true;
        return s.in === "query" ? url.searchParams.has(s.paramName) : s.in === "cookie" ? cookies.includes(s.paramName) : request.headers.has(s.paramName);
      default:
        return true;
    }
  });
  if (present) return undefined;
  const challenge = schemes.map((s) => (s.type === "http" && s.scheme ? s.scheme[0]!.toUpperCase() + s.scheme.slice(1).toLowerCase() : s.type === "apiKey" ? `ApiKey name="${s.paramName ?? ""}"` : "Bearer")).join(", ").replace(/[^\x20-\x7e]/g, "");
  return { message: `credentials required: ${schemes.map((s) => s.name).join(" or ")}`, challenge };
}

interface Prefer {
  code?: number;
  example?: string;
  dynamic?: boolean;
}

/** `Prefer: code=404, example=cat, dynamic=true` (Prism's keys; other preferences are ignored). */
export function parsePrefer(header: string | null): Prefer {
  const out: Prefer = {};
  if (!header) return out;
  for (const part of header.split(/[,;]/)) {
    const m = /^\s*([a-zA-Z-]+)\s*=\s*"?([^"]*)"?\s*$/.exec(part);
    if (!m) continue;
    const [, key, value] = m;
    if (key === "code" && /^[1-5]\d\d$/.test(value!)) out.code = Number(value);
    else if (key === "example") out.example = value;
    else if (key === "dynamic") out.dynamic = value === "true";
  }
  return out;
}

/**
 * The declared response the mock answers with: for `code` (a `Prefer: code=`), exact, then its `NXX` range, then
 * `default`; without one, the lowest 2xx, else `2XX` or `default` as 200, else the lowest declared status. Shared
 * with the MSW plugin (src/pipeline/plugins/msw.ts), whose handlers answer as `specforge mock` does.
 */
export function mockResponseFor(op: HttpOperation, code: number | undefined): { response: HttpResponse; status: number } | undefined {
  const rs = op.responses;
  if (code !== undefined) {
    const exact = rs.find((r) => r.status === String(code)) ?? rs.find((r) => r.status === `${String(code)[0]}XX`) ?? rs.find((r) => r.status === "default");
    return exact ? { response: exact, status: code } : undefined;
  }
  const numeric = rs.filter((r) => /^\d\d\d$/.test(r.status)).sort((a, b) => Number(a.status) - Number(b.status));
  const ok = numeric.find((r) => r.status.startsWith("2"));
  if (ok) return { response: ok, status: Number(ok.status) };
  const range = rs.find((r) => r.status === "2XX");
  if (range) return { response: range, status: 200 };
  const def = rs.find((r) => r.status === "default");
  if (def) return { response: def, status: 200 };
  const first = numeric[0];
  return first ? { response: first, status: Number(first.status) } : undefined;
}

const JSON_MEDIA = /^(application\/json|[^;]*\+json)\s*(;|$)/i;

/** The content of a response the mock's body is drawn for: the JSON one, else the first. */
export function mockResponseContent(response: HttpResponse): HttpContent | undefined {
  return response.contents.find((c) => JSON_MEDIA.test(c.mediaType)) ?? response.contents[0];
}

/** Whether a status carries no body whatever the spec declares (the mock answers it without one). */
export function mockStatusHasNoBody(status: number): boolean {
  return status === 204 || status === 304;
}

/** The seed of an operation's values without --dynamic: the same request gets the same answer. */
export function mockOperationSeed(seed: string, op: HttpOperation): string {
  return `${seed}:${op.name}`;
}

/**
 * A value drawn for a response body with `seed`: the mock's first draw is seeded by the operation's seed, and it
 * draws again (seed/1, seed/2, ... as ValueGenerator.validValue does) while the generated validator refuses.
 */
export function mockBodyDraw(gen: ValueGenerator, content: HttpContent, seed: string, status: number): unknown {
  return gen.valueOf(content.type, `${seed}:${status}`);
}

function answer(spec: LoadedSpec, gen: ValueGenerator, op: HttpOperation, prefer: Prefer, dynamic: boolean, seed: string): { reply: Reply; info: Omit<MockLogEntry, "method" | "path" | "status" | "operation"> } {
  const chosen = mockResponseFor(op, prefer.code);
  if (!chosen) {
    // As Prism does: a status the request asks for (Prefer: code=) that the operation does not declare is a 404
    // (Prism's NOT_FOUND); an operation that declares no response at all a 500 (NO_RESPONSE_DEFINED).
    const note = prefer.code !== undefined ? `no response declared for status ${prefer.code}` : "the operation declares no response";
    return { reply: { status: prefer.code !== undefined ? 404 : 500, body: { message: note } }, info: { source: "none", note } };
  }
  const { response, status } = chosen;
  const content = mockResponseContent(response);
  const headers = mockResponseHeaders(gen, response, `${seed}:${status}`);
  if (!content || mockStatusHasNoBody(status)) return { reply: { status, ...(headers ? { headers } : {}) }, info: { source: "none" } };
  const validate = validatorOf(spec, content.type);
  const accept = (v: unknown) => (v === null ? content.nullable === true : validate ? (validate(v) as unknown[]).length === 0 : true);
  let note: string | undefined;
  if (!dynamic && content.examples && content.examples.length > 0) {
    const wanted = prefer.example !== undefined ? content.examples.filter((e) => e.name === prefer.example) : content.examples;
    for (const ex of wanted) {
      const value = exampleValue(spec, content, ex);
      if (value !== undefined && accept(value.value)) return { reply: { status, body: value.value, ...(headers ? { headers } : {}) }, info: { source: "example", ...(ex.name !== undefined ? { example: ex.name } : {}), ...(note ? { note } : {}) } };
      note = `example ${ex.name ?? ""} at ${ex.origin.file}:${ex.origin.line}:${ex.origin.column} fails the schema; generated a value instead`.replace("example  at", "example at");
    }
    if (prefer.example !== undefined && wanted.length === 0) note = `no example named ${JSON.stringify(prefer.example)}; generated a value instead`;
  }
  const drawn = gen.validValue((s) => mockBodyDraw(gen, content, s, status), accept, seed);
  const body = drawn ? drawn.value : mockBodyDraw(gen, content, seed, status);
  if (!drawn) note = "no generated value passed the validator within the tries; sent the last one drawn";
  return { reply: { status, body, ...(headers ? { headers } : {}) }, info: { source: "generated", ...(note ? { note } : {}) } };
}

/** The generated validator of a body type (named types only: inline scalars have none and are accepted as drawn). */
export function validatorOf(spec: LoadedSpec, type: TypeExpr): Fn | undefined {
  if (type.kind !== "ref") return undefined;
  return spec.module[spec.names.derived(type.id, "validate")] as Fn | undefined;
}

/** An example as the in-memory value: through the generated JSON decoder when there is one (dates, 64-bit...). */
function exampleValue(spec: LoadedSpec, content: HttpContent, ex: Example): { value: unknown } | undefined {
  const type = content.type;
  const decode = type.kind === "ref" ? (spec.module[spec.names.derived(type.id, "decodeJson")] as Fn | undefined) : undefined;
  if (!decode) return { value: ex.value };
  try {
    return { value: decode(JSON.stringify(ex.value)) };
  } catch {
    return undefined;
  }
}

/** Values of the response's required headers (and of those with examples), as header text. */
export function mockResponseHeaders(gen: ValueGenerator, response: HttpResponse, seed: string): Record<string, string> | undefined {
  const out: Record<string, string> = {};
  for (const h of response.headers) {
    if (!h.required && !h.examples) continue;
    const ex = h.examples?.[0];
    const value = ex !== undefined ? ex.value : gen.valueOf(h.type, `${seed}:${h.name}`, h.facets);
    out[h.name] = Array.isArray(value) ? value.map(String).join(",") : typeof value === "object" && value !== null ? JSON.stringify(value) : String(value);
  }
  return Object.keys(out).length > 0 ? out : undefined;
}
