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
