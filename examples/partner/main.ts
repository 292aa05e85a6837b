/**
 * npm run serve:partner -- --port <n> [--fixture <file>] [--host <addr>] [--cors-origin <origin|*|none>]...
 * Prints "listening on http://127.0.0.1:<port>" once the emulator accepts connections (port 0 picks a free port).
 */
import { parseArgs } from "node:util";
import { corsOriginsOfFlag, CORS_ORIGIN_OPTION } from "../common/cors-flag.js";
import { PARTNER_CORS, startPartnerEmulator } from "./emulator.js";
import { loadFixture } from "./fixture.js";

const { values } = parseArgs({
  options: { port: { type: "string", default: "8080" }, host: { type: "string", default: "127.0.0.1" }, fixture: { type: "string" }, ...CORS_ORIGIN_OPTION },
});
const port = Number(values.port);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`invalid --port ${values.port}`);
  process.exit(2);
}
let origins: ReturnType<typeof corsOriginsOfFlag>;
try {
  origins = corsOriginsOfFlag(values["cors-origin"]);
} catch (error) {
  console.error((error as Error).message);
  process.exit(2);
}
try {
  const fixture = loadFixture(values.fixture);
  const cors = origins === false ? false : origins === undefined ? PARTNER_CORS : { ...PARTNER_CORS, origins };
  const emulator = await startPartnerEmulator({ port, host: values.host, fixture, cors });
  console.log(`listening on http://${values.host}:${emulator.port}`);
  console.log(`service endpoint ${emulator.endpoint} (WSDL at ${emulator.endpoint}?wsdl)`);
  const stop = () => void emulator.close().then(() => process.exit(0));
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
} catch (error) {
  console.error((error as Error).message);
  process.exit(1);
}
