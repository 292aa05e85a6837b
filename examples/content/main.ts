/**
 * `npm run serve:content -- [--port <n>] [--host <h>] [--data <dir>] [--page-size <k>] [--cors-origin <o|*|none>]...`:
 * serve a directory of content-feed Response files as a paged feed at /feed?page=K. Prints
 * `listening on http://<host>:<port>` when ready.
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
    "page-size": { type: "string" },
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

const emulator = await startContentEmulator({
  port: integerOption("port", values.port, 8080, 0),
  host: values.host ?? "127.0.0.1",
  pageSize: integerOption("page-size", values["page-size"], DEFAULT_PAGE_SIZE, 1),
  cors: corsOption(values["cors-origin"]),
  ...(values.data === undefined ? {} : { dataDir: values.data }),
});
console.log(`listening on ${emulator.url}`);
console.error(`serving ${emulator.entries.length} entries, ${emulator.pageSize} per page, at ${emulator.url}/feed?page=1`);

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    void emulator.close().then(() => process.exit(0));
  });
}
