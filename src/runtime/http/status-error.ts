import { readTextPrefix } from "./text-prefix.js";

/** How many bytes of an error response body are kept on the error: enough to read a message, not a whole page. */
const MAX_BODY_TEXT = 4096;

/** A client got a non-2xx answer. Carries the status and the start of the body so callers can report or branch. */
export class HttpStatusError extends Error {
  constructor(
    readonly url: string,
    readonly status: number,
    readonly statusText: string,
    readonly bodyText: string,
  ) {
    super(`HTTP ${status}${statusText ? ` ${statusText}` : ""} from ${url}${bodyText ? `: ${bodyText.slice(0, 200)}` : ""}`);
    this.name = "HttpStatusError";
  }

  /** Build the error from a response, reading (a bounded part of) its body as text. */
  static async fromResponse(url: string, response: Response): Promise<HttpStatusError> {
    return new HttpStatusError(url, response.status, response.statusText, await readTextPrefix(response, MAX_BODY_TEXT));
  }
}

/** A client call took longer than its `timeoutMs`. */
export class HttpTimeoutError extends Error {
  constructor(
    readonly url: string,
    readonly timeoutMs: number,
  ) {
    super(`request to ${url} timed out after ${timeoutMs} ms`);
    this.name = "HttpTimeoutError";
  }
}
