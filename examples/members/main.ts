import { parseArgs } from "node:util";
import { serveNode } from "../../src/runtime/http/node.js";
import { CORS_ORIGIN_OPTION, CORS_ORIGIN_USAGE, withEmulatorCors } from "../common/cors-flag.js";
import { createMembersEmulator, MEMBERS_CORS } from "./app.js";
import { loadMembersFixture } from "./fixture.js";

/** `npm run serve:members -- --port <n> [--fixture <file>] [--cors-origin <origin|*|none>]...` */
const { values } = parseArgs({ options: { port: { type: "string", default: "8080" }, fixture: { type: "string" }, ...CORS_ORIGIN_OPTION } });
const port = Number(values.port);
if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`--port must be 0..65535, got ${values.port}`);
const fixture = values.fixture === undefined ? loadMembersFixture() : loadMembersFixture(values.fixture);
let handler;
try {
  handler = withEmulatorCors(createMembersEmulator(fixture), MEMBERS_CORS, values["cors-origin"]);
} catch (error) {
  console.error(`${(error as Error).message}\nusage: ${CORS_ORIGIN_USAGE}`);
  process.exit(2);
}
const listening = await serveNode(handler, { port });
console.log(`listening on ${listening.url}`);
