import type { FixtureUser } from "./fixture.js";
import type { WebhooksStore } from "./store.js";

/** The capability each guarded action needs. */
export const CAPABILITIES = {
  read: "read_private_shop_webhooks",
  create: "publish_shop_webhooks",
  edit: "edit_published_shop_webhooks",
  delete: "delete_published_shop_webhooks",
} as const;

/**
 * The caller: HTTP Basic `consumer_key:consumer_secret`, or the `consumer_key` and `consumer_secret` query
 * parameters. Undefined when there are no credentials or they do not match a user.
 */
export function authenticate(store: WebhooksStore, request: Request): FixtureUser | undefined {
  const credentials = basicCredentials(request.headers.get("authorization")) ?? queryCredentials(request.url);
  if (!credentials) return undefined;
  return store.users.find((u) => u.consumer_key === credentials.key && u.consumer_secret === credentials.secret);
}

export function can(user: FixtureUser, capability: string): boolean {
  return user.capabilities.includes(capability);
}

function basicCredentials(header: string | null): { key: string; secret: string } | undefined {
  const match = header === null ? null : /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header);
  if (!match) return undefined;
  const decoded = Buffer.from(match[1]!, "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  return colon === -1 ? undefined : { key: decoded.slice(0, colon), secret: decoded.slice(colon + 1) };
}

function queryCredentials(url: string): { key: string; secret: string } | undefined {
  const query = new URL(url).searchParams;
  const key = query.get("consumer_key");
  const secret = query.get("consumer_secret");
  return key !== null && secret !== null ? { key, secret } : undefined;
}
