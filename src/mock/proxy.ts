/**
 * `specforge mock --proxy <url>`: a validating proxy in front of a real server. Every request is checked against the
 * spec by the spec's generated server (the same parsing and validators as the mock: routes, parameters, bodies,
 * SOAP envelopes), forwarded to the real server whatever the verdict, and the real server's answer is checked
 * against what the spec declares for that operation (status, media type, body by the generated validator; SOAP: the
 * output element or a declared fault). Every violation is reported; the answer goes back as the server sent it.
 *
 * OpenAPI documents, WSDLs and .proto services (Connect, gRPC-Web, gRPC: rpc-proxy.ts).
 */
import type { HttpOperation } from "../ir/model.js";
import { boundServices, type BoundOperation } from "../emitters/soap-client/bound-operations.js";
import { handlerName } from "../naming/property-name.js";
import type { LoadedSpec } from "./load.js";
import { mockBasePath, mockResponseFor, validatorOf, type MockLogEntry } from "./rest.js";
import { soapServicePaths } from "./soap.js";
import { createRpcValidatingProxy } from "./rpc-proxy.js";

type Fn = (...args: unknown[]) => unknown;
type Handler = (request: Request) => Promise<Response>;

export interface ProxyViolation {
  /** Which side broke the contract. */
  readonly side: "request" | "response";
  readonly message: string;
  /** JSON pointers / paths and what failed there, when a validator said. */
  readonly issues?: readonly { readonly path: string; readonly message: string }[];
}

export interface ProxyLogEntry extends MockLogEntry {
  /** The URL the request was forwarded to. */
  readonly upstream: string;
  readonly violations: readonly ProxyViolation[];
}

export interface ProxyOptions {
  /** Base URL of the real server: the request's path and query are appended to it. */
  readonly target: string;
  /** Told about every request forwarded, with its violations (the CLI prints these on stderr). */
  readonly log?: (entry: ProxyLogEntry) => void;
  /**
   * .proto: where gRPC calls (HTTP/2 with trailers) go, over HTTP/2 (h2c for http://); default `target`. Connect and
   * gRPC-Web calls go to `target` over fetch.
   */
  readonly grpcTarget?: string;
  /** The fetch used to reach the real server (default globalThis.fetch). */
  readonly fetch?: (request: Request) => Promise<Response>;
}

/** Hop-by-hop headers (RFC 9110 7.6.1), and what fetch decodes or recomputes, are not forwarded either way. */
const HOP = new Set(["connection", "keep-alive", "proxy-connection", "transfer-encoding", "te", "trailer", "upgrade", "host", "content-length", "content-encoding"]);

function copyHeaders(from: Headers): Headers {
  const out = new Headers();
  from.forEach((value, name) => {
    if (!HOP.has(name)) out.append(name, value);
  });
  return out;
}

interface RequestVerdict {
  readonly operation?: string;
  readonly violations: ProxyViolation[];
}

type Checker = (request: Request) => Promise<RequestVerdict>;
type ResponseChecker = (operation: string | undefined, response: { status: number; contentType: string; text: string }) => ProxyViolation[];

/** A web-standard handler forwarding every request to `options.target`, checking both directions against the spec. */
export function createValidatingProxy(spec: LoadedSpec, options: ProxyOptions): Handler {
  if (spec.doc.format === "proto") return createRpcValidatingProxy(spec, options);
  const { checkRequest, checkResponse } = spec.doc.format === "wsdl" ? soapCheckers(spec) : spec.doc.format === "openapi" ? restCheckers(spec) : unsupported(spec);
  const send = options.fetch ?? ((r: Request) => fetch(r));
  const base = new URL(options.target);
  return async (request) => {
    const url = new URL(request.url);
    const body = request.method === "GET" || request.method === "HEAD" ? undefined : new Uint8Array(await request.arrayBuffer());
    const copy = () => new Request(request.url, { method: request.method, headers: request.headers, ...(body !== undefined ? { body } : {}) });
    const verdict = await checkRequest(copy());
    const upstream = new URL(base.pathname.replace(/\/+$/, "") + url.pathname + url.search, base.origin);
    let answer: Response;
    try {
      answer = await send(new Request(upstream, { method: request.method, headers: copyHeaders(request.headers), ...(body !== undefined ? { body } : {}), redirect: "manual" }));
    } catch (error) {
      const violations = [...verdict.violations];
      options.log?.({ method: request.method, path: url.pathname + url.search, status: 502, ...(verdict.operation ? { operation: verdict.operation } : {}), upstream: upstream.href, violations, note: `upstream unreachable: ${(error as Error).message}` });
      return new Response(`specforge mock --proxy: ${upstream.origin} did not answer: ${(error as Error).message}\n`, { status: 502, headers: { "content-type": "text/plain; charset=utf-8" } });
    }
    const bytes = new Uint8Array(await answer.arrayBuffer());
    const text = new TextDecoder().decode(bytes);
    const violations = [...verdict.violations, ...checkResponse(verdict.operation, { status: answer.status, contentType: answer.headers.get("content-type") ?? "", text })];
    options.log?.({ method: request.method, path: url.pathname + url.search, status: answer.status, ...(verdict.operation ? { operation: verdict.operation } : {}), upstream: upstream.href, violations });
    const nullBody = answer.status === 204 || answer.status === 205 || answer.status === 304 || request.method === "HEAD";
    return new Response(nullBody ? null : bytes, { status: answer.status, statusText: answer.statusText, headers: copyHeaders(answer.headers) });
  };
}

function unsupported(spec: LoadedSpec): { checkRequest: Checker; checkResponse: ResponseChecker } {
  throw new Error(`--proxy checks OpenAPI documents, WSDLs and .proto services; ${spec.doc.entry} is a ${spec.doc.format} (it has no operations)`);
}

const JSON_MEDIA = /^(application\/json|[^;]*\+json)\s*(;|$)/i;

function restCheckers(spec: LoadedSpec): { checkRequest: Checker; checkResponse: ResponseChecker } {
  const ops = new Map<string, HttpOperation>();
  // Per request: what the generated server found (set by its handlers and validation hook).
  const found = new WeakMap<Request, { operation: string; issues?: readonly { path: string; message: string }[]; stage?: string }>();
  const servers: Handler[] = [];
  spec.doc.services.forEach((service, index) => {
    if (service.kind !== "http") return;
    const create = spec.module[spec.names.api(index).createServer] as Fn;
    const handlers: Record<string, Fn> = {};
    for (const op of service.operations) {
      ops.set(op.name, op);
      handlers[spec.names.operation(op).method] = (input: unknown) => {
        found.set((input as { request: Request }).request, { operation: op.name });
        return { status: 204 };
      };
    }
    servers.push(create(handlers, {
      basePath: mockBasePath(service),
      onValidationError: (issues: readonly { path: string; message: string }[], ctx: { operation: string; request: Request; stage: string }) => {
        found.set(ctx.request, { operation: ctx.operation, issues: issues.map((i) => ({ path: i.path, message: i.message })), stage: ctx.stage });
        return new Response(null, { status: 400 });
      },
    }) as Handler);
  });
  const checkRequest: Checker = async (request) => {
    let last: Response | undefined;
    for (const server of servers) {
      const attempt = new Request(request.url, { method: request.method, headers: request.headers, body: request.method === "GET" || request.method === "HEAD" ? null : await request.clone().arrayBuffer() });
      last = await server(attempt);
      const seen = found.get(attempt);
      if (seen) {
        return { operation: seen.operation, violations: seen.issues ? [{ side: "request", message: `invalid request ${seen.stage ?? ""}`.trim(), issues: seen.issues }] : [] };
      }
      if (last.status !== 404) break;
    }
    // The server answered itself: no route (404), a method not declared (405), a media type or size it refuses.
    const message = last ? await errorMessage(last) : "no HTTP service in the spec";
    return { violations: [{ side: "request", message: `${last?.status ?? 404}: ${message}` }] };
  };
  const checkResponse: ResponseChecker = (operation, response) => {
    const op = operation !== undefined ? ops.get(operation) : undefined;
    if (!op) return [];
    const declared = mockResponseFor(op, response.status);
    if (!declared) return [{ side: "response", message: `status ${response.status} is not declared by ${op.name} (declared: ${op.responses.map((r) => r.status).join(", ") || "none"})` }];
    const contents = declared.response.contents;
    if (contents.length === 0 || response.text === "") return [];
    const essence = response.contentType.split(";")[0]!.trim().toLowerCase();
    const content = contents.find((c) => c.mediaType.toLowerCase() === essence) ?? contents.find((c) => c.mediaType.endsWith("/*") && essence.startsWith(c.mediaType.slice(0, -1)));
    if (!content) return [{ side: "response", message: `content type ${JSON.stringify(response.contentType)} is not declared for ${op.name} ${declared.response.status} (declared: ${contents.map((c) => c.mediaType).join(", ")})` }];
    if (!JSON_MEDIA.test(content.mediaType)) return [];
    let value: unknown;
    try {
      value = JSON.parse(response.text);
    } catch {
      return [{ side: "response", message: `the ${content.mediaType} body is not JSON` }];
    }
    if (value === null && content.nullable) return [];
    const validate = validatorOf(spec, content.type);
    const issues = validate ? (validate(value) as { path: string; message: string }[]) : [];
    return issues.length > 0 ? [{ side: "response", message: `body does not match ${op.name} ${declared.response.status}`, issues: issues.map((i) => ({ path: i.path, message: i.message })) }] : [];
  };
  return { checkRequest, checkResponse };
}

async function errorMessage(response: Response): Promise<string> {
  const text = await response.text();
  try {
    const body = JSON.parse(text) as { message?: unknown };
    return typeof body.message === "string" ? body.message : text;
  } catch {
    return text.trim();
  }
}

function soapCheckers(spec: LoadedSpec): { checkRequest: Checker; checkResponse: ResponseChecker } {
  const parseEnvelope = spec.runtime.parseSoapEnvelope as (text: string) => { body: readonly { ns: string; local: string }[]; fault?: { code: { ns: string; local: string }; string: string; detail?: { ns: string; local: string } } };
  const Fault = spec.runtime.SoapFaultError as new (init: { code: unknown; message: string }) => Error;
  const elements = spec.module.xmlElements as Record<string, { decode: Fn }>;
  const found = new WeakMap<Request, string>();
  const ops = new Map<string, BoundOperation>();
  const services: { paths: string[]; server: Handler }[] = [];
  for (const bound of boundServices(spec.doc)) {
    const handlers: Record<string, Fn> = {};
    for (const op of bound.operations) {
      ops.set(op.name, op);
      handlers[handlerName(op.name)] = (_input: unknown, ctx: unknown) => {
        found.set((ctx as { request: Request }).request, op.name);
        throw new Fault({ code: "Server", message: "checked" });
      };
    }
    services.push({ paths: soapServicePaths(bound), server: (spec.module[spec.names.soap(bound.index).createServer] as Fn)(handlers) as Handler });
  }
  const checkRequest: Checker = async (request) => {
    const path = new URL(request.url).pathname.replace(/\/+$/, "") || "/";
    const pool = services.filter((s) => s.paths.includes(path));
    let message = "no SOAP service in the spec";
    for (const s of pool.length > 0 ? pool : services) {
      const attempt = new Request(request.url, { method: request.method, headers: request.headers, body: request.method === "POST" ? await request.clone().arrayBuffer() : null });
      const answer = await s.server(attempt);
      const op = found.get(attempt);
      if (op !== undefined) return { operation: op, violations: [] };
      const text = await answer.text();
      try {
        message = parseEnvelope(text).fault?.string ?? `${answer.status}`;
      } catch {
        message = `${answer.status}: ${text.trim()}`;
      }
      if (!/^no operation takes/.test(message)) break;
    }
    return { violations: [{ side: "request", message }] };
  };
  const checkResponse: ResponseChecker = (operation, response) => {
    const op = operation !== undefined ? ops.get(operation) : undefined;
    if (!op) return [];
    if (op.output === undefined) return response.status === 202 || response.status === 200 ? [] : [{ side: "response", message: `one-way ${op.name} answered ${response.status}` }];
    let envelope: ReturnType<typeof parseEnvelope>;
    try {
      envelope = parseEnvelope(response.text);
    } catch (error) {
      return [{ side: "response", message: `not a SOAP envelope: ${(error as Error).message}` }];
    }
    if (envelope.fault) {
      const detail = envelope.fault.detail;
      if (detail === undefined) return [];
      const declared = op.faults.find((f) => f.element.name.ns === detail.ns && f.element.name.local === detail.local);
      return declared ? [] : [{ side: "response", message: `fault detail {${detail.ns}}${detail.local} is none of the faults ${op.name} declares (${op.faults.map((f) => f.name).join(", ") || "none"})` }];
    }
    if (op.output.kind !== "element") return [];
    const el = op.output.element;
    const node = envelope.body[0];
    if (!node || node.ns !== el.name.ns || node.local !== el.name.local) {
      return [{ side: "response", message: `expected a {${el.name.ns}}${el.name.local} response element, got ${node ? `{${node.ns}}${node.local}` : "an empty body"}` }];
    }
    let value: unknown;
    try {
      value = elements[`{${el.name.ns}}${el.name.local}`]!.decode(node);
    } catch (error) {
      return [{ side: "response", message: `response does not decode: ${(error as Error).message}` }];
    }
    if (value === null && el.nullable) return [];
    const validate = validatorOf(spec, el.type);
    const issues = validate ? (validate(value) as { path: string; message: string }[]) : [];
    return issues.length > 0 ? [{ side: "response", message: `response does not match ${op.name}`, issues: issues.map((i) => ({ path: i.path, message: i.message })) }] : [];
  };
  return { checkRequest, checkResponse };
}
