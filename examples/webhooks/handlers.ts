import type { WebhooksAPIHandlers } from "../../generated/webhooks/index.js";
import { authenticate, can, CAPABILITIES } from "./auth.js";
import { failure } from "./errors.js";
import type { FixtureUser } from "./fixture.js";
import { paginate } from "./pagination.js";
import { deliverPing } from "./ping.js";
import { pickFields, presentDelivery, presentWebhook } from "./present.js";
import {
  defaultWebhookName, formatDatetime, isDeliveryUrl, normalizeDeliveryUrl, normalizeTopic, statusFilter, statusFromUpdate,
} from "./rules.js";
import type { StoredWebhook, WebhooksStore } from "./store.js";

export interface WebhooksEmulatorOptions {
  /** Bound on the ping's HTTP request (default 5000 ms). */
  readonly pingTimeoutMs?: number;
  /** The fetch used for pings (default: the global fetch). */
  readonly fetch?: typeof fetch;
  /** The clock (tests pin it to check the default name). */
  readonly now?: () => Date;
}

const unauthenticated = () => failure(401, "shop_api_authentication_error", "Consumer key or secret is invalid or missing.");
const invalidId = () => failure(404, "shop_api_invalid_webhook_id", "Invalid webhook ID.");
const notFound = () => failure(404, "shop_api_no_webhook_found", "No webhook found with the ID provided.");
type NotFound = ReturnType<typeof notFound>;
const missingData = () => failure(400, "shop_api_missing_webhook_data", "No webhook data specified to create webhook.");

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
/** A supplied field counts only when it is non-empty (PUT). */
const nonEmpty = (v: unknown): boolean => v !== undefined && v !== null && v !== "";

/**
 * The webhook API on the generated server's handler interface. Every handler authenticates first; the order of the
 * remaining checks is the seed's (POST: webhook object, permission, topic, delivery_url) and, where the seed is
 * silent, permission, then the id (0 -> 404 invalid id), then existence (404 not found).
 */
export function webhooksHandlers(store: WebhooksStore, options: WebhooksEmulatorOptions = {}): WebhooksAPIHandlers {
  const now = options.now ?? (() => new Date());

  /** The webhook named by an id the caller may act on, or the failure to answer. */
  const lookup = (id: number): StoredWebhook | NotFound => (id === 0 ? invalidId() : store.webhooks.get(id) ?? notFound());
  const isFailure = (v: StoredWebhook | NotFound): v is NotFound => !("deliveries" in v);

  const readable = (user: FixtureUser) => can(user, CAPABILITIES.read);

  return {
    listWebhooks({ query, request }) {
      const user = authenticate(store, request);
      if (!user) return unauthenticated();
      const status = statusFilter(query.status);
      const page = query.page ?? 1;
      const limit = Number(query.filter?.limit ?? "") || 0;
      // A list silently leaves out webhooks the caller cannot read.
      const matching = readable(user) ? [...store.webhooks.values()].filter((w) => status === undefined || w.status === status) : [];
      matching.sort((a, b) => a.id - b.id);
      const { items, headers } = paginate(matching, page, limit, request.url);
      return { status: 200, body: { webhooks: items.map((w) => pickFields(presentWebhook(w), query.fields)) }, headers };
    },

    countWebhooks({ query, request }) {
      const user = authenticate(store, request);
      if (!user) return unauthenticated();
      if (!can(user, CAPABILITIES.read)) {
        return failure(401, "shop_api_user_cannot_read_webhooks_count", "Sorry, you do not have permission to read the webhooks count.");
      }
      const status = statusFilter(query.status);
      const count = [...store.webhooks.values()].filter((w) => status === undefined || w.status === status).length;
      return { status: 200, body: { count } };
    },

    async createWebhook({ body, request }) {
      const user = authenticate(store, request);
      if (!user) return unauthenticated();
      const raw: unknown = body;
      if (!isObject(raw) || !isObject(raw.webhook)) return missingData();
      if (!can(user, CAPABILITIES.create)) {
        return failure(401, "shop_api_user_cannot_create_webhooks", "You do not have permission to create webhooks.");
      }
      const data = raw.webhook;
      const topic = normalizeTopic(data.topic);
      if (topic === undefined) return failure(400, "shop_api_invalid_webhook_topic", "Webhook topic is required and must be valid.");
      if (!isDeliveryUrl(data.delivery_url)) {
        return failure(400, "shop_api_invalid_webhook_delivery_url", "Webhook delivery URL must be a valid URL starting with http:// or https://.");
      }
      if (store.failCreate) return failure(500, "shop_api_cannot_create_webhook", "Cannot create webhook.");
      const created = now();
      const webhook: StoredWebhook = {
        id: store.nextWebhookId++,
        name: typeof data.name === "string" && data.name !== "" ? data.name : defaultWebhookName(created),
        status: "publish",
        topic,
        delivery_url: normalizeDeliveryUrl(data.delivery_url),
        secret: typeof data.secret === "string" && data.secret !== "" ? data.secret : user.consumer_secret,
        created_at: formatDatetime(created),
        updated_at: formatDatetime(created),
        deliveries: [],
      };
      store.webhooks.set(webhook.id, webhook);
      const ping = await deliverPing(webhook, store.nextDeliveryId++, {
        timeoutMs: options.pingTimeoutMs ?? 5000,
        ...(options.fetch ? { fetch: options.fetch } : {}),
      });
      webhook.deliveries.push(ping);
      return { status: 201, body: { webhook: presentWebhook(webhook) } };
    },

    getWebhook({ path, query, request }) {
      const user = authenticate(store, request);
      if (!user) return unauthenticated();
      if (!readable(user)) return failure(401, "shop_api_user_cannot_read_webhook", "Sorry, you cannot view this webhook.");
      const found = lookup(path.id);
      if (isFailure(found)) return found;
      return { status: 200, body: { webhook: pickFields(presentWebhook(found), query.fields) } };
    },

    updateWebhook({ path, body, request }) {
      const user = authenticate(store, request);
      if (!user) return unauthenticated();
      const raw: unknown = body;
      if (!isObject(raw) || !isObject(raw.webhook)) return missingData();
      if (!can(user, CAPABILITIES.edit)) return failure(401, "shop_api_user_cannot_edit_webhook", "Sorry, you cannot edit this webhook.");
      const found = lookup(path.id);
      if (isFailure(found)) return found;
      const data = raw.webhook;
      // Validate before changing anything, so a rejected PUT leaves the webhook as it was.
      let topic: string | undefined;
      if (nonEmpty(data.topic)) {
        topic = normalizeTopic(data.topic);
        if (topic === undefined) return failure(400, "shop_api_invalid_webhook_topic", "Webhook topic must be valid.");
      }
      if (nonEmpty(data.delivery_url) && !isDeliveryUrl(data.delivery_url)) {
        return failure(400, "shop_api_invalid_webhook_delivery_url", "Webhook delivery URL must be a valid URL starting with http:// or https://.");
      }
      if (topic !== undefined) found.topic = topic;
      if (nonEmpty(data.delivery_url)) found.delivery_url = normalizeDeliveryUrl(data.delivery_url as string);
      if (nonEmpty(data.secret)) found.secret = String(data.secret);
      if (nonEmpty(data.status)) found.status = statusFromUpdate(String(data.status));
      if (nonEmpty(data.name)) found.name = String(data.name);
      found.updated_at = formatDatetime(now());
      return { status: 200, body: { webhook: presentWebhook(found) } };
    },

    deleteWebhook({ path, request }) {
      const user = authenticate(store, request);
      if (!user) return unauthenticated();
      if (!can(user, CAPABILITIES.delete)) return failure(401, "shop_api_user_cannot_delete_webhook", "Sorry, you cannot delete this webhook.");
      const found = lookup(path.id);
      if (isFailure(found)) return found;
      store.webhooks.delete(found.id); // permanently: there is no trash
      return { status: 200, body: { message: "Permanently deleted webhook" } };
    },

    listWebhookDeliveries({ path, query, request }) {
      const user = authenticate(store, request);
      if (!user) return unauthenticated();
      if (!readable(user)) return failure(401, "shop_api_user_cannot_read_webhook", "Sorry, you cannot view this webhook.");
      const found = lookup(path.webhook_id);
      if (isFailure(found)) return found;
      const entries = found.deliveries.map((d) => pickFields(presentDelivery(d), query.fields));
      return { status: 200, body: { webhook_deliveries: entries } };
    },

    getWebhookDelivery({ path, query, request }) {
      const user = authenticate(store, request);
      if (!user) return unauthenticated();
      if (!readable(user)) return failure(401, "shop_api_user_cannot_read_webhook", "Sorry, you cannot view this webhook.");
      const found = lookup(path.webhook_id);
      if (isFailure(found)) return found;
      if (path.id === 0) return failure(404, "shop_api_invalid_webhook_delivery_id", "Invalid webhook delivery ID.");
      const entry = found.deliveries.find((d) => d.id === path.id);
      if (!entry) return failure(400, "shop_api_invalid_webhook_delivery_id", "Invalid webhook delivery.");
      return { status: 200, body: { webhook_delivery: pickFields(presentDelivery(entry), query.fields) } };
    },
  };
}
