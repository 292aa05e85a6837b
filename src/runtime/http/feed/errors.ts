/** A feed page could not be read: the body is not a valid message in the format it claims, or a link is unusable. */
export class FeedPageError extends Error {
  constructor(
    readonly url: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(`${message} (${url})`, options);
    this.name = "FeedPageError";
  }
}

/** Paging stopped because the feed links back to a page already read, or has more pages than allowed. */
export class FeedLoopError extends Error {
  constructor(
    readonly url: string,
    message: string,
  ) {
    super(`${message} (${url})`);
    this.name = "FeedLoopError";
  }
}
