import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { Readable } from "node:stream";
import { restKnownBodyText } from "./response.js";

/**
 * node:http adapter for a web-standard handler `(Request) => Promise<Response>`. Node-only by design; everything
 * else in the REST runtime uses web APIs alone.
 */
export type RestFetchHandler = (request: Request) => Promise<Response>;

export interface RestListening {
  readonly server: Server;
  readonly port: number;
  /** "http://127.0.0.1:<port>" */
  readonly origin: string;
  close(): Promise<void>;
}

const SAFE_HOST = /^[\w.-]+(:\d+)?$|^\[[\da-f:.]+\](:\d+)?$/i;

/** The Request node:http's IncomingMessage describes. A Host header that is not a plain host name is ignored. */
export function restRequestFromNode(req: IncomingMessage): Request {
  const host = req.headers.host !== undefined && SAFE_HOST.test(req.headers.host) ? req.headers.host : "localhost";
  const target = req.url ?? "/";
  const url = `http://${host}${target.startsWith("/") ? target : `/${target}`}`;
  // rawHeaders keeps repeated headers apart; one list of pairs is the cheapest way into a Request.
  const headers: [string, string][] = [];
  const raw = req.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) headers.push([raw[i]!, raw[i + 1]!]);
  const method = req.method ?? "GET";
  const hasBody = method !== "GET" && method !== "HEAD";
  return new Request(url, {
    method,
    headers,
    body: hasBody ? (Readable.toWeb(req) as ReadableStream<Uint8Array>) : undefined,
    // Node's fetch implementation requires this for streamed request bodies.
    duplex: hasBody ? "half" : undefined,
  } as RequestInit);
}

async function writeResponse(res: ServerResponse, response: Response): Promise<void> {
  const headers: Record<string, string | string[]> = {};
  response.headers.forEach((value, name) => {
    headers[name] = value;
  });
  const setCookies = response.headers.getSetCookie();
  if (setCookies.length > 0) headers["set-cookie"] = setCookies;
  const known = restKnownBodyText(response);
  const body = known ?? (response.body ? Buffer.from(await response.arrayBuffer()) : undefined);
  res.writeHead(response.status, headers);
  res.end(body);
}

/** A node:http request listener that runs the handler; a handler that throws gives a bare 500. */
export function restNodeListener(handler: RestFetchHandler): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    handler(restRequestFromNode(req))
      .then((response) => writeResponse(res, response))
      .catch(() => {
        if (!res.headersSent) res.writeHead(500, { "content-type": "text/plain" });
        res.end("Internal server error");
      });
  };
}

/** Serve the handler on host:port (port 0 picks a free port; the real one is in the result). */
export function restListen(handler: RestFetchHandler, options: { port?: number; host?: string } = {}): Promise<RestListening> {
  const host = options.host ?? "127.0.0.1";
  const server = createServer(restNodeListener(handler));
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, host, () => {
      server.off("error", reject);
      const port = (server.address() as AddressInfo).port;
      resolve({
        server,
        port,
        origin: `http://${host.includes(":") ? `[${host}]` : host}:${port}`,
        close: () =>
          new Promise<void>((done, fail) => {
            server.close((error) => (error ? fail(error) : done()));
            server.closeAllConnections();
          }),
      });
    });
  });
}
