/**
 * `specforge mock --proxy <url>` for .proto services: every Connect, gRPC-Web or gRPC call is forwarded to the real
 * server, and the messages of both directions are checked against the spec on the way: each request message is
 * decoded with the generated codec of the method's input type (binary or JSON, gzip-compressed or not, gRPC-Web text
 * too) and checked by its generated validator (protovalidate / protoc-gen-validate rules), each response message
 * likewise with the output type; a successful unary or client-streaming call must answer exactly one message. Every
 * violation is reported; the request goes on and the answer comes back unchanged (status, headers, body bytes and,
 * for gRPC, the HTTP/2 trailers).
 *
 * Calls are buffered: the request is forwarded once its body has ended and the answer returned once the real
 * server's has, so a bidi call whose client waits for answers before it ends its stream cannot go through.
 * gRPC calls (application/grpc*, which need HTTP/2 trailers) go to the target over HTTP/2 (h2c for http://), the
 * others over fetch.
 */
import type { RpcMethod, TypeId } from "../ir/model.js";
import { FLAG_COMPRESSED, FLAG_END_STREAM, FLAG_TRAILERS } from "../runtime/rpc/envelope.js";
import { gunzip } from "../runtime/rpc/compression.js";
import { http2Transport } from "../runtime/rpc/transport-http2.js";
import { wireOf, type Wire } from "../runtime/rpc/wire.js";
import { decodeBase64Groups } from "../runtime/rpc/base64-stream.js";
import type { LoadedSpec } from "./load.js";
import type { ProxyLogEntry, ProxyOptions, ProxyViolation } from "./proxy.js";
import { mockedRpcMethods } from "./rpc.js";

type Fn = (...args: unknown[]) => unknown;
type Handler = (request: Request) => Promise<Response>;

/** Where the node HTTP/2 adapter (serveNodeHttp2) finds the trailers of a Response (src/runtime/rpc/server.ts). */
const RPC_TRAILERS = Symbol.for("specforge.rpc.trailers");
/** Largest message (after decompression) the proxy decodes. */
const MAX_MESSAGE = 64 * 1024 * 1024;
/** Headers not forwarded either way (hop-by-hop, HTTP/2 pseudo-headers and what fetch decodes or recomputes). */
const HOP = new Set(["connection", "keep-alive", "proxy-connection", "transfer-encoding", "te", "trailer", "upgrade", "host", "content-length"]);

interface Message {
  readonly data: Uint8Array;
  readonly compressed: boolean;
}

interface Framed {
  readonly messages: Message[];
  /** gRPC-Web trailers / Connect end-of-stream message, when one came. */
  readonly end?: { readonly flags: number; readonly data: Uint8Array };
  /** Bytes that do not make a whole envelope. */
  readonly broken?: string;
}

function unframe(bytes: Uint8Array): Framed {
  const messages: Message[] = [];
  let end: Framed["end"];
  for (let at = 0; at < bytes.byteLength; ) {
    if (bytes.byteLength - at < 5) return { messages, broken: `${bytes.byteLength - at} bytes after the last message` };
    const flags = bytes[at]!;
    const length = ((bytes[at + 1]! << 24) | (bytes[at + 2]! << 16) | (bytes[at + 3]! << 8) | bytes[at + 4]!) >>> 0;
    if (bytes.byteLength - at - 5 < length) return { messages, broken: `an envelope promises ${length} bytes, ${bytes.byteLength - at - 5} follow` };
    const data = bytes.subarray(at + 5, at + 5 + length);
    at += 5 + length;
    if (flags & (FLAG_TRAILERS | FLAG_END_STREAM)) end = { flags, data };
    else messages.push({ data, compressed: (flags & FLAG_COMPRESSED) !== 0 });
  }
  return end ? { messages, end } : { messages };
}

function headersOut(from: Headers): Headers {
  const out = new Headers();
  from.forEach((value, name) => {
    // gRPC asks for "te: trailers" (the one TE value HTTP/2 allows): it goes on; other TE values do not.
    if ((!HOP.has(name) || (name === "te" && value === "trailers")) && !name.startsWith(":")) out.append(name, value);
  });
  return out;
}

/** The RPC side of createValidatingProxy (see proxy.ts). */
export function createRpcValidatingProxy(spec: LoadedSpec, options: ProxyOptions): Handler {
  const methods = new Map<string, RpcMethod>();
  for (const m of mockedRpcMethods(spec.doc, spec.names)) methods.set(m.path, m.method);
  const send = options.fetch ?? ((r: Request) => fetch(r));
  const base = new URL(options.target);
  const grpcBase = new URL(options.grpcTarget ?? options.target);
  let h2: ReturnType<typeof http2Transport> | undefined;
  const registry = spec.module.protoJsonRegistry as { get(name: string): { fromJson: Fn } | undefined } | undefined;

  /** Decode one message of type `id` and say what is wrong with it (undefined: nothing). */
  const check = async (id: TypeId, wire: Wire, message: Message, encoding: string | null, what: string): Promise<ProxyViolation | undefined> => {
    const side = what.startsWith("request") ? "request" : "response";
    let data = message.data;
    if (message.compressed) {
      if (encoding !== "gzip") return { side, message: `${what} is compressed with ${encoding ?? "no declared encoding"}, which the proxy cannot read` };
      try {
        data = await gunzip(data, MAX_MESSAGE);
      } catch (error) {
        return { side, message: `${what} does not gunzip: ${(error as Error).message}` };
      }
    }
    let value: unknown;
    try {
      if (wire.format === "json") {
        const entry = registry?.get(id.replace(/^proto:\./, ""));
        if (!entry) return undefined;
        value = entry.fromJson(JSON.parse(new TextDecoder().decode(data)), {});
      } else {
        const decode = spec.module[spec.names.derived(id, "decode")] as Fn | undefined;
        if (!decode) return undefined;
        value = decode(data);
      }
    } catch (error) {
      return { side, message: `${what} does not decode as ${id.replace(/^proto:\./, "")}: ${(error as Error).message}` };
    }
    const validate = spec.module[spec.names.derived(id, "validate")] as Fn | undefined;
    const issues = validate ? (validate(value) as { path: string; message: string }[]) : [];
    return issues.length > 0 ? { side, message: `${what} breaks the rules of ${id.replace(/^proto:\./, "")}`, issues: issues.map((i) => ({ path: i.path, message: i.message })) } : undefined;
  };

  /** The messages of a body: one whole body (Connect unary) or envelopes (base64 first for gRPC-Web text). */
  const messagesOf = (wire: Wire, bytes: Uint8Array): Framed => {
    if (!wire.enveloped) return { messages: [{ data: bytes, compressed: false }] };
    if (wire.text) {
      const { bytes: decoded, rest } = decodeBase64Groups(new TextDecoder().decode(bytes).replace(/\s+/g, ""));
      const framed = unframe(decoded);
      return rest !== "" ? { ...framed, broken: "gRPC-Web text body is not whole base64" } : framed;
    }
    return unframe(bytes);
  };

  const encodingOf = (wire: Wire, headers: Headers): string | null =>
    wire.protocol === "connect" ? (wire.enveloped ? headers.get("connect-content-encoding") : null) : headers.get("grpc-encoding");

  return async (request) => {
    const url = new URL(request.url);
    const method = methods.get(url.pathname);
    const wire = wireOf(request.headers.get("content-type"));
    const operation = method ? url.pathname.slice(1) : undefined;
    const violations: ProxyViolation[] = [];
    const body = request.method === "GET" || request.method === "HEAD" ? undefined : new Uint8Array(await request.arrayBuffer());
    if (!method) violations.push({ side: "request", message: `no method ${url.pathname} in the spec` });
    if (!wire) violations.push({ side: "request", message: `content type ${JSON.stringify(request.headers.get("content-type") ?? "")} is none of Connect, gRPC-Web or gRPC` });
    else if (method && body !== undefined) {
      // Connect unary bodies are compressed as a whole (Content-Encoding); the proxy checks them once decoded.
      let bytes: Uint8Array = body;
      const whole = !wire.enveloped ? request.headers.get("content-encoding") : null;
      if (whole === "gzip") {
        try {
          bytes = await gunzip(body, MAX_MESSAGE);
        } catch (error) {
          violations.push({ side: "request", message: `request body does not gunzip: ${(error as Error).message}` });
        }
      }
      const framed = messagesOf(wire, bytes);
      if (framed.broken) violations.push({ side: "request", message: `request body: ${framed.broken}` });
      const encoding = encodingOf(wire, request.headers);
      for (const [i, m] of framed.messages.entries()) {
        const v = await check(method.input, wire, m, encoding, framed.messages.length > 1 || method.clientStreaming ? `request message ${i + 1}` : "request message");
        if (v) violations.push(v);
      }
      if (!method.clientStreaming && framed.messages.length !== 1) violations.push({ side: "request", message: `${framed.messages.length} request messages for a method that takes one` });
    }

    const to = wire?.protocol === "grpc" ? grpcBase : base;
    const upstream = new URL(to.pathname.replace(/\/+$/, "") + url.pathname + url.search, to.origin);
    const log = (status: number, note?: string) =>
      options.log?.({ method: request.method, path: url.pathname + url.search, status, ...(operation ? { operation } : {}), upstream: upstream.href, violations, ...(note ? { note } : {}) } satisfies ProxyLogEntry);
    let status: number;
    let headers: Headers;
    let bytes: Uint8Array;
    let trailers: Headers | undefined;
    try {
      if (wire?.protocol === "grpc") {
        h2 ??= http2Transport(grpcBase.origin);
        const answer = await h2.request({ url: upstream.href, headers: headersOut(request.headers), body: body ?? new Uint8Array(0), signal: undefined });
        const parts: Uint8Array[] = [];
        for (let chunk = await answer.body.read(); chunk !== undefined; chunk = await answer.body.read()) parts.push(chunk);
        status = answer.status;
        headers = answer.headers;
        bytes = concat(parts);
        trailers = answer.trailers();
      } else {
        const answer = await send(new Request(upstream, { method: request.method, headers: headersOut(request.headers), ...(body !== undefined ? { body } : {}), redirect: "manual" }));
        status = answer.status;
        // fetch has decoded a Connect unary body sent with Content-Encoding: it goes on decoded, without the header.
        headers = new Headers(answer.headers);
        headers.delete("content-encoding");
        bytes = new Uint8Array(await answer.arrayBuffer());
      }
    } catch (error) {
      log(502, `upstream unreachable: ${(error as Error).message}`);
      return new Response(`specforge mock --proxy: ${upstream.origin} did not answer: ${(error as Error).message}\n`, { status: 502, headers: { "content-type": "text/plain; charset=utf-8" } });
    }

    let note: string | undefined;
    if (method && wire) {
      const checked = await checkAnswer(method, wire, status, headers, bytes, trailers);
      violations.push(...checked.violations);
      note = checked.error;
    }
    log(status, note);
    const out = new Response(status === 204 || status === 304 ? null : (bytes as Uint8Array<ArrayBuffer>), { status, headers: headersOut(headers) });
    if (trailers !== undefined) (out as unknown as Record<symbol, Headers>)[RPC_TRAILERS] = trailers;
    return out;
  };

  /** The answer's violations, and the call's error status (for the log) when it failed. */
  async function checkAnswer(method: RpcMethod, wire: Wire, status: number, headers: Headers, bytes: Uint8Array, trailers: Headers | undefined): Promise<{ violations: ProxyViolation[]; error?: string }> {
    const violations: ProxyViolation[] = [];
    const answerWire = wireOf(headers.get("content-type")) ?? wire;
    let error: string | undefined;
    let messages: Message[] = [];
    if (!answerWire.enveloped) {
      // Connect unary: a 200 carries the message; anything else is an error (JSON).
      if (status === 200) messages = [{ data: bytes, compressed: false }];
      else error = `connect error ${status}: ${new TextDecoder().decode(bytes).slice(0, 200)}`;
    } else {
      const framed = messagesOf(answerWire, bytes);
      if (framed.broken) violations.push({ side: "response", message: `response body: ${framed.broken}` });
      messages = framed.messages;
      const grpcStatus = trailers?.get("grpc-status") ?? headers.get("grpc-status") ?? (framed.end && framed.end.flags & FLAG_TRAILERS ? /grpc-status:\s*(\d+)/i.exec(new TextDecoder().decode(framed.end.data))?.[1] ?? null : null);
      if (grpcStatus !== null && grpcStatus !== "0") error = `grpc-status ${grpcStatus}`;
      if (framed.end && framed.end.flags & FLAG_END_STREAM) {
        const text = new TextDecoder().decode(framed.end.data);
        if (/"error"\s*:/.test(text)) error = `connect end-of-stream error: ${text.slice(0, 200)}`;
      }
      if (answerWire.protocol === "grpc" && grpcStatus === null && status === 200) violations.push({ side: "response", message: "gRPC answer without grpc-status" });
    }
    const encoding = encodingOf(answerWire, headers);
    for (const [i, m] of messages.entries()) {
      const v = await check(method.output, answerWire, m, encoding, messages.length > 1 || method.serverStreaming ? `response message ${i + 1}` : "response message");
      if (v) violations.push(v);
    }
    if (error === undefined && !method.serverStreaming && messages.length !== 1) violations.push({ side: "response", message: `${messages.length} response messages for a method that answers one` });
    return { violations, ...(error !== undefined ? { error } : {}) };
  }
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.byteLength, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.byteLength;
  }
  return out;
}
