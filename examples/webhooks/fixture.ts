import { readFileSync } from "node:fs";
import type { StoredStatus } from "./rules.js";

/** The emulator's starting state (see README.md for its JSON Schema). */
export interface WebhooksFixture {
  readonly users: readonly FixtureUser[];
  readonly webhooks: readonly FixtureWebhook[];
  /** When true, storing a new webhook fails (500 shop_api_cannot_create_webhook). */
  readonly failCreate?: boolean;
}

export interface FixtureUser {
  readonly id: number;
  readonly login: string;
  readonly consumer_key: string;
  readonly consumer_secret: string;
  readonly capabilities: readonly string[];
}

export interface FixtureWebhook {
  readonly id: number;
  readonly name: string;
  /** Public (active, paused, disabled) or stored (publish, draft, pending) status. */
  readonly status: string;
  readonly topic: string;
  readonly delivery_url: string;
  readonly secret: string;
  readonly created_at: string;
  readonly updated_at: string;
  readonly deliveries: readonly FixtureDelivery[];
}

export interface FixtureDelivery {
  readonly id: number;
  readonly created_at?: string;
  readonly [field: string]: unknown;
}

export const DEFAULT_FIXTURE_FILE = new URL("./default-fixture.json", import.meta.url);

/** Read and check a fixture file; a malformed file is an error naming the first problem. */
export function loadWebhooksFixture(file: string | URL = DEFAULT_FIXTURE_FILE): WebhooksFixture {
  const data: unknown = JSON.parse(readFileSync(file, "utf8"));
  return checkWebhooksFixture(data);
}

const STATUSES = new Set(["active", "paused", "disabled", "publish", "draft", "pending"]);

function fail(message: string): never {
  throw new Error(`invalid webhooks fixture: ${message}`);
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

export function checkWebhooksFixture(data: unknown): WebhooksFixture {
  if (!isObject(data)) fail("not an object");
  if (!Array.isArray(data.users)) fail("users must be an array");
  if (!Array.isArray(data.webhooks)) fail("webhooks must be an array");
  data.users.forEach((u: unknown, i) => {
    if (!isObject(u)) fail(`users/${i} is not an object`);
    if (!Number.isInteger(u.id)) fail(`users/${i}/id must be an integer`);
    for (const k of ["login", "consumer_key", "consumer_secret"]) if (typeof u[k] !== "string") fail(`users/${i}/${k} must be a string`);
    if (!Array.isArray(u.capabilities) || u.capabilities.some((c) => typeof c !== "string")) fail(`users/${i}/capabilities must be strings`);
  });
  data.webhooks.forEach((w: unknown, i) => {
    if (!isObject(w)) fail(`webhooks/${i} is not an object`);
    if (!Number.isInteger(w.id) || (w.id as number) < 1) fail(`webhooks/${i}/id must be a positive integer`);
    for (const k of ["name", "topic", "delivery_url", "secret", "created_at", "updated_at"]) {
      if (typeof w[k] !== "string") fail(`webhooks/${i}/${k} must be a string`);
    }
    if (!STATUSES.has(w.status as string)) fail(`webhooks/${i}/status is not a known status`);
    if (!Array.isArray(w.deliveries)) fail(`webhooks/${i}/deliveries must be an array`);
    w.deliveries.forEach((d: unknown, j) => {
      if (!isObject(d) || !Number.isInteger(d.id) || (d.id as number) < 1) fail(`webhooks/${i}/deliveries/${j}/id must be a positive integer`);
    });
  });
  if (data.failCreate !== undefined && typeof data.failCreate !== "boolean") fail("failCreate must be a boolean");
  return data as unknown as WebhooksFixture;
}

export function fixtureStatus(status: string): StoredStatus {
  switch (status) {
    case "active":
      return "publish";
    case "paused":
      return "draft";
    case "disabled":
      return "pending";
    default:
      return status as StoredStatus;
  }
}
