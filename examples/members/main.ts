import { parseArgs } from "node:util";
import { serveNode } from "../../src/runtime/http/node.js";
import { createMembersEmulator } from "./app.js";
import { loadMembersFixture } from "./fixture.js";

/** `npm run serve:members -- --port <n> [--fixture <file>]` */
const { values } = parseArgs({ options: { port: { type: "string", default: "8080" }, fixture: { type: "string" } } });
const port = Number(values.port);
if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`--port must be 0..65535, got ${values.port}`);
const fixture = values.fixture === undefined ? loadMembersFixture() : loadMembersFixture(values.fixture);
const listening = await serveNode(createMembersEmulator(fixture), { port });
console.log(`listening on ${listening.url}`);
