import type { Webhook, WebhookDelivery } from "../../generated/webhooks/index.js";
import { publicStatus, topicParts } from "./rules.js";
import type { StoredDelivery, StoredWebhook } from "./store.js";

/** How a stored webhook is returned: public status, derived resource and event, never the secret. */
export function presentWebhook(w: StoredWebhook): Webhook {
  const { resource, event } = topicParts(w.topic);
  return {
    id: w.id,
    name: w.name,
    status: publicStatus(w.status),
    topic: w.topic,
    resource,
    event,
    hooks: [],
    delivery_url: w.delivery_url,
    created_at: w.created_at,
    updated_at: w.updated_at,
  };
}

export function presentDelivery(d: StoredDelivery): WebhookDelivery {
  return { ...d, created_at: d.created_at };
}

/** Keep only the requested fields (the `fields` query parameter); all of them when none are named. */
export function pickFields<T extends object>(value: T, fields: readonly string[] | undefined): T {
  if (!fields || fields.length === 0) return value;
  const wanted = new Set(fields.map((f) => f.trim()));
  return Object.fromEntries(Object.entries(value).filter(([key]) => wanted.has(key))) as T;
}
