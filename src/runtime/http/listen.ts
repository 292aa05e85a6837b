/// <reference types="node" preserve="true" />
// Node-only module: the directive above stays in the published .d.ts, so a user's project that has @types/node
// (an optional peer dependency of specforge) type-checks this adapter whatever its tsconfig `types` says.
import type { AddressInfo, Server } from "node:net";

/** Start `server` listening on host:port (0: any free port) and give the port it got and the URL that reaches it. */
export function listenOn(server: Server, port: number, host: string, scheme: "http" | "https"): Promise<{ port: number; url: string }> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      const bound = (server.address() as AddressInfo).port;
      const urlHost = host.includes(":") ? `[${host}]` : host;
      resolve({ port: bound, url: `${scheme}://${urlHost}:${bound}` });
    });
  });
}

/** What the HTTP/1 and HTTP/2 servers hand back once listening (their own handle types name the protocol's details). */
export interface ListeningServer<S extends Server> {
  readonly server: S;
  readonly host: string;
  readonly port: number;
  readonly url: string;
  openStreams(): number;
  close(): Promise<void>;
}

/**
 * Listen, then give the handle: `openStreams` counts requests in flight, `dropConnections` ends what is still open once
 * the server stops accepting (the protocols differ only there: HTTP/1 sockets vs HTTP/2 sessions).
 */
export async function listenAndHandle<S extends Server>(
  server: S,
  at: { port: number; host: string; scheme: "http" | "https" },
  openStreams: () => number,
  dropConnections: () => void,
): Promise<ListeningServer<S>> {
  const { port, url } = await listenOn(server, at.port, at.host, at.scheme);
  return {
    server,
    host: at.host,
    port,
    url,
    openStreams,
    close: () =>
      new Promise<void>((done, fail) => {
        server.close((error) => (error ? fail(error) : done()));
        dropConnections();
      }),
  };
}
