/**
 * The emulators' `--cors-origin` flag, so that a page in a browser can call them. Repeatable:
 *
 * - absent: pages on localhost, 127.0.0.1 and [::1] (any port) may call, the runtime's default;
 * - `--cors-origin http://localhost:5173 --cors-origin https://app.example`: exactly these origins;
 * - `--cors-origin '*'`: any origin;
 * - `--cors-origin none`: no CORS headers at all (browsers then refuse cross-origin calls).
 */
import { checkedOrigin, withCors, type CorsOptions, type CorsOrigins } from "../../src/runtime/http/cors.js";
import type { HttpHandler } from "../../src/runtime/http/handler.js";

/** The flag's entry in a node:util parseArgs options table. */
export const CORS_ORIGIN_OPTION = { "cors-origin": { type: "string", multiple: true } } as const;

/** The flag's help line, shared by the emulators' usage texts. */
export const CORS_ORIGIN_USAGE = "--cors-origin <origin|*|none> (repeatable; default: localhost origins)";

/** What the flag's values ask for: allowed origins, the runtime's default (undefined) or CORS off (false). */
export function corsOriginsOfFlag(values: readonly string[] | undefined): CorsOrigins | undefined | false {
  if (values === undefined || values.length === 0) return undefined;
  const single = values.length === 1 ? values[0] : undefined;
  if (single === "none") return false;
  if (single === "*") return "*";
  for (const value of values) {
    if (value === "none" || value === "*") throw new TypeError(`--cors-origin ${value} cannot be combined with other origins`);
  }
  return values.map(checkedOrigin);
}

/**
 * The emulator's handler with CORS as the flag asks: `emulatorCors` names the headers its clients send and read
 * beyond the runtime's defaults (e.g. pagination headers); origins come from the flag.
 */
export function withEmulatorCors(handler: HttpHandler, emulatorCors: CorsOptions, flag: readonly string[] | undefined): HttpHandler {
  const origins = corsOriginsOfFlag(flag);
  if (origins === false) return handler;
  return withCors(handler, origins === undefined ? emulatorCors : { ...emulatorCors, origins });
}
