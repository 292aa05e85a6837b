/**
 * `npm run serve:content -- [--port <n>] [--grpc-port <n|none>] [--host <h>] [--data <dir>] [--page-size <k>]
 * [--stream-interval <ms>] [--cors-origin <o|*|none>]...`: serve a directory of content-feed Response files as a
 * paged feed at /feed?page=K and as the ContentFeed stream (specs/content-stream.proto) over Connect and gRPC-Web on
 * the HTTP/1.1 port and over gRPC (and the other two) on the HTTP/2 port. Prints `listening on http://<host>:<port>`
 * and then `grpc listening on http://<host>:<port>` when ready.
 */
import { parseArgs } from "node:util";
import { corsOriginsOfFlag, CORS_ORIGIN_OPTION } from "../common/cors-flag.js";
import { CONTENT_CORS, DEFAULT_PAGE_SIZE, startContentEmulator } from "./emulator.js";

function integerOption(name: string, value: string | undefined, fallback: number, min: number): number {
  if (value === undefined) return fallback;
  if (!/^[0-9]+$/.test(value) || Number(value) < min) {
    console.error(`--${name} must be an integer >= ${min}, got ${JSON.stringify(value)}`);
    process.exit(2);
  }
  return Number(value);
}

const { values } = parseArgs({
  options: {
    port: { type: "string" },
    host: { type: "string" },
    data: { type: "string" },
    "grpc-port": { type: "string" },
    "page-size": { type: "string" },
    "stream-interval": { type: "string" },
    ...CORS_ORIGIN_OPTION,
  },
});

function corsOption(values: readonly string[] | undefined) {
  try {
    const origins = corsOriginsOfFlag(values);
    return origins === false ? false : origins === undefined ? CONTENT_CORS : { ...CONTENT_CORS, origins };
  } catch (error) {
    console.error((error as Error).message);
    process.exit(2);
  }
}

const port = integerOption("port", values.port, 8080, 0);
// gRPC needs HTTP/2 (node:http cannot send trailers): its own port, next to the HTTP/1.1 one unless named.
const grpcPort = values["grpc-port"] === "none" ? undefined : integerOption("grpc-port", values["grpc-port"], port === 0 ? 0 : port + 1, 0);

const emulator = await startContentEmulator({
  port,
  ...(grpcPort === undefined ? {} : { grpcPort }),
  streamIntervalMs: integerOption("stream-interval", values["stream-interval"], 0, 0),
  host: values.host ?? "127.0.0.1",
  pageSize: integerOption("page-size", values["page-size"], DEFAULT_PAGE_SIZE, 1),
  cors: corsOption(values["cors-origin"]),
  ...(values.data === undefined ? {} : { dataDir: values.data }),
});
console.log(`listening on ${emulator.url}`);
if (emulator.grpcUrl !== undefined) console.log(`grpc listening on ${emulator.grpcUrl}`);
console.error(`serving ${emulator.entries.length} entries, ${emulator.pageSize} per page, at ${emulator.url}/feed?page=1`);

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    void emulator.close().then(() => process.exit(0));
  });
}
