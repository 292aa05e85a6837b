import type { Artifact } from "../artifact.js";
import { emitConnect, rpcServices } from "./emit-connect.js";
import { emitFeed } from "./emit-feed.js";
import { findFeedPages } from "./find-pages.js";
import { isOwnType } from "../modules.js";

/** feed.ts for proto documents with page messages (next_request_url + one repeated message field). */
export const protoFeedArtifact: Artifact = {
  name: "proto-feed",
  applies: (doc) => findFeedPages(doc).length > 0,
  // One module per input file: the pages of another file are served by that file's module.
  emit: (ctx) => (findFeedPages(ctx.doc).some((p) => isOwnType(ctx, p.page.id)) ? [emitFeed(ctx)] : []),
};

/** connect.ts for proto documents with services. */
export const protoConnectArtifact: Artifact = {
  name: "proto-connect",
  applies: (doc) => doc.format === "proto" && doc.services.some((s) => s.kind === "rpc"),
  emit: (ctx) => (rpcServices(ctx).length > 0 ? [emitConnect(ctx)] : []),
};
