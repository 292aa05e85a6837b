import { fixtureStatus, type FixtureUser, type WebhooksFixture } from "./fixture.js";
import type { StoredStatus } from "./rules.js";

/** The emulator's in-memory state: users, webhooks and their delivery logs. Copied from the fixture, never shared. */
export interface StoredDelivery {
  readonly id: number;
  readonly created_at: string;
  readonly [field: string]: unknown;
}

export interface StoredWebhook {
  readonly id: number;
  name: string;
  status: StoredStatus;
  topic: string;
  delivery_url: string;
  secret: string;
  readonly created_at: string;
  updated_at: string;
  readonly deliveries: StoredDelivery[];
}

export interface WebhooksStore {
  readonly users: readonly FixtureUser[];
  /** By id; a Map so that ids from requests never touch object prototypes. */
  readonly webhooks: Map<number, StoredWebhook>;
  readonly failCreate: boolean;
  nextWebhookId: number;
  nextDeliveryId: number;
}

export function createStore(fixture: WebhooksFixture): WebhooksStore {
  const webhooks = new Map<number, StoredWebhook>();
  let maxDelivery = 0;
  for (const w of fixture.webhooks) {
    const deliveries = w.deliveries.map((d) => ({ ...d, created_at: d.created_at ?? w.created_at }));
    for (const d of deliveries) maxDelivery = Math.max(maxDelivery, d.id);
    webhooks.set(w.id, {
      id: w.id,
      name: w.name,
      status: fixtureStatus(w.status),
      topic: w.topic.toLowerCase(),
      delivery_url: w.delivery_url,
      secret: w.secret,
      created_at: w.created_at,
      updated_at: w.updated_at,
      deliveries,
    });
  }
  return {
    users: fixture.users.map((u) => ({ ...u, capabilities: [...u.capabilities] })),
    webhooks,
    failCreate: fixture.failCreate ?? false,
    nextWebhookId: Math.max(0, ...webhooks.keys()) + 1,
    nextDeliveryId: maxDelivery + 1,
  };
}
