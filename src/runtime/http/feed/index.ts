export { fetchFeedPage, type FeedClientOptions, type FeedFormat } from "./client.js";
export { FeedLoopError, FeedPageError } from "./errors.js";
export { FEED_MEDIA_TYPES, JSON_MEDIA_TYPE, PROTOBUF_MEDIA_TYPE } from "./media.js";
export { DEFAULT_MAX_PAGES, iterateFeedItems, iterateFeedPages, type FeedIterateOptions, type FeedPageParts } from "./paging.js";
export { serveFeedPages, type FeedServerOptions } from "./server.js";
