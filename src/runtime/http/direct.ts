/**
 * A direct path from a request to the parts of its answer, offered by handlers that build every answer from parts
 * they hold (generated REST servers). The web-standard handler wraps each answer in a Response; a server adapter that
 * knows this protocol (the node:http one) asks for the parts instead and writes them itself: no Response object, and
 * no promise at all for a handler that answers synchronously, so the answer goes out in the tick the request came in,
 * as a hand-written node:http handler's does. Web APIs only.
 */
import type { HttpHandler } from "./handler.js";
import { responseWithKnownBody } from "./known-body.js";

/** A registered symbol: two copies of the runtime (dist/ for generated code, src/ for the adapter) agree on it. */
const DIRECT_PATH = Symbol.for("specforge.directPath");

/** An answer as parts: status, header record and the whole body as text (none for HEAD or an empty answer). */
export interface HttpAnswerParts {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string | undefined;
}

/** What a direct path answers: parts, or a Response where something else (a user hook) produced one. */
export type DirectAnswer = HttpAnswerParts | Response;

export type DirectPath = (request: Request) => DirectAnswer | Promise<DirectAnswer>;

/** The web-standard handler of a direct path, carrying the path for adapters that can use it. */
export function handlerWithDirectPath(direct: DirectPath): HttpHandler {
  const handler: HttpHandler = async (request) => responseOf(await direct(request));
  Object.defineProperty(handler, DIRECT_PATH, { value: direct });
  return handler;
}

/** The direct path `handler` offers, if it was made by handlerWithDirectPath. */
export function directPathOf(handler: HttpHandler): DirectPath | undefined {
  const direct = (handler as unknown as { [DIRECT_PATH]?: unknown })[DIRECT_PATH];
  return typeof direct === "function" ? (direct as DirectPath) : undefined;
}

/** The Response of an answer (a Response stays as it is). */
export function responseOf(answer: DirectAnswer): Response {
  if (answer instanceof Response) return answer;
  return answer.body === undefined
    ? new Response(null, { status: answer.status, headers: answer.headers })
    : responseWithKnownBody(answer.body, { status: answer.status, headers: answer.headers });
}
