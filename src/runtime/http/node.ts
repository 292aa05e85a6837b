/**
 * The node:http adapter: runs any web-standard `(Request) => Promise<Response>` handler (generated feed servers,
 * Connect handlers, REST servers) on a node:http server. The only Node-specific part of the HTTP runtime, so it is
 * imported from this module directly rather than through the runtime index.
 */
import { createServer, type IncomingMessage, type RequestListener, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as NodeReadableStream } from "node:stream/web";
import type { HttpHandler } from "./handler.js";

export interface NodeAdapterOptions {
  /** Host used in request URLs when the client sent no usable Host header (default "localhost"). */
  readonly fallbackHost?: string;
  /** Called when the handler throws (the client gets a bare 500) or a response cannot be written. */
  readonly onError?: (error: unknown) => void;
}

export interface ServeNodeOptions extends NodeAdapterOptions {
  /** Port to listen on; 0 (the default) picks a free one, see `NodeServerHandle.port`. */
  readonly port?: number;
  /** Interface to bind; default "127.0.0.1" so nothing is exposed beyond this machine unless asked for. */
  readonly host?: string;
}

export interface NodeServerHandle {
  readonly server: Server;
  readonly host: string;
  /** The port actually bound (useful with port 0). */
  readonly port: number;
  /** Base URL of the server, e.g. "http://127.0.0.1:8080". */
  readonly url: string;
  /** Stop accepting connections, drop open ones and wait until the server is closed. */
  close(): Promise<void>;
}

/** A Host header we build URLs from: a name or IPv4/IPv6 literal with an optional port, nothing else. */
const PLAIN_HOST = /^(?:[A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(?::[0-9]{1,5})?$/;

/**
 * Turn a node:http request into a web Request. The URL's origin comes from the Host header (what the client used,
 * so absolute links a handler builds point back the same way) when it is a plain host, else `fallbackHost`; the
 * request target must be a path. The body is streamed, not buffered. Throws TypeError for an unusable target.
 */
export function toWebRequest(req: IncomingMessage, signal: AbortSignal, fallbackHost = "localhost"): Request {
  const host = req.headers.host !== undefined && PLAIN_HOST.test(req.headers.host) ? req.headers.host : fallbackHost;
  const target = req.url ?? "/";
  if (!target.startsWith("/")) throw new TypeError("request target is not a path");
  const url = new URL(`http://${host}${target}`);
  const headers = new Headers();
  for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) {
    const name = req.rawHeaders[i]!;
    if (!name.startsWith(":")) headers.append(name, req.rawHeaders[i + 1]!);
  }
  const method = req.method ?? "GET";
  const hasBody = method !== "GET" && method !== "HEAD";
  const init: RequestInit & { duplex?: "half" } = { method, headers, signal };
  if (hasBody) {
    init.body = Readable.toWeb(req) as ReadableStream<Uint8Array>;
    init.duplex = "half"; // required by fetch's Request for a streamed body
  }
  return new Request(url, init);
}

/** Write a web Response to a node:http response, streaming its body with back-pressure. */
export async function sendWebResponse(res: ServerResponse, response: Response): Promise<void> {
  const cookies = response.headers.getSetCookie();
  response.headers.forEach((value, name) => {
    if (name !== "set-cookie") res.setHeader(name, value);
  });
  if (cookies.length > 0) res.setHeader("set-cookie", cookies);
  res.statusCode = response.status;
  if (response.statusText) res.statusMessage = response.statusText;
  if (response.body === null) {
    res.end();
    return;
  }
  await pipeline(Readable.fromWeb(response.body as NodeReadableStream<Uint8Array>), res);
}

function plainError(res: ServerResponse, status: number, text: string): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  res.writeHead(status, { "content-type": "text/plain; charset=utf-8" }).end(`${text}\n`);
}

/** A node:http request listener running `handler`; usable with any node:http(s) server or framework that takes one. */
export function nodeRequestListener(handler: HttpHandler, options: NodeAdapterOptions = {}): RequestListener {
  return (req, res) => {
    const aborted = new AbortController();
    // The client went away before we answered: let the handler stop work it no longer needs to do.
    res.once("close", () => {
      if (!res.writableFinished) aborted.abort(new Error("client closed the connection"));
    });
    let request: Request;
    try {
      request = toWebRequest(req, aborted.signal, options.fallbackHost);
    } catch {
      plainError(res, 400, "bad request");
      return;
    }
    handler(request)
      .then((response) => sendWebResponse(res, response))
      .catch((error: unknown) => {
        if (aborted.signal.aborted) return; // nobody is listening any more
        options.onError?.(error);
        plainError(res, 500, "internal error");
      });
  };
}

/** Listen on `host:port` with `handler`; resolves once the server accepts connections. */
export function serveNode(handler: HttpHandler, options: ServeNodeOptions = {}): Promise<NodeServerHandle> {
  const host = options.host ?? "127.0.0.1";
  const server = createServer(nodeRequestListener(handler, options));
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, host, () => {
      server.off("error", reject);
      const port = (server.address() as AddressInfo).port;
      const urlHost = host.includes(":") ? `[${host}]` : host;
      resolve({
        server,
        host,
        port,
        url: `http://${urlHost}:${port}`,
        close: () =>
          new Promise<void>((done, fail) => {
            server.close((error) => (error ? fail(error) : done()));
            server.closeAllConnections();
          }),
      });
    });
  });
}
