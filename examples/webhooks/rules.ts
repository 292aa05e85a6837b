/**
 * The seed's webhook rules that do not depend on storage: status mapping, topic and delivery URL validation, the
 * default name and the datetime rendering.
 */

export type PublicStatus = "active" | "paused" | "disabled";
export type StoredStatus = "publish" | "draft" | "pending";

const TO_STORED: Readonly<Record<PublicStatus, StoredStatus>> = { active: "publish", paused: "draft", disabled: "pending" };
const TO_PUBLIC: Readonly<Record<StoredStatus, PublicStatus>> = { publish: "active", draft: "paused", pending: "disabled" };

export function storedStatus(status: PublicStatus): StoredStatus {
  return TO_STORED[status];
}

export function publicStatus(status: StoredStatus): PublicStatus {
  return TO_PUBLIC[status];
}

/** The status filter of list and count: known values map, any other non-empty value counts as active. */
export function statusFilter(value: string | undefined): StoredStatus | undefined {
  if (value === undefined || value === "") return undefined;
  return Object.hasOwn(TO_STORED, value) ? TO_STORED[value as PublicStatus] : "publish";
}

/** A status set by PUT: a known value, or (like the original service) disabled for anything else. */
export function statusFromUpdate(value: string): StoredStatus {
  return Object.hasOwn(TO_STORED, value) ? TO_STORED[value as PublicStatus] : "pending";
}

export const TOPIC_RESOURCES = ["coupon", "customer", "order", "product"] as const;
export const TOPIC_EVENTS = ["created", "updated", "deleted"] as const;
const CUSTOM_ACTION = /^action\.[^\s.][^\s]*$/;

/** `<resource>.<event>` or `action.<name>`, compared case-insensitively; returns the stored (lower-case) topic. */
export function normalizeTopic(topic: unknown): string | undefined {
  if (typeof topic !== "string") return undefined;
  const lower = topic.toLowerCase();
  if (CUSTOM_ACTION.test(lower)) return lower;
  const [resource, event, ...rest] = lower.split(".");
  if (rest.length > 0) return undefined;
  const okResource = (TOPIC_RESOURCES as readonly string[]).includes(resource ?? "");
  const okEvent = (TOPIC_EVENTS as readonly string[]).includes(event ?? "");
  return okResource && okEvent ? lower : undefined;
}

/** The resource and event a stored topic names ("order.created" -> order, created; "action.x" -> action, x). */
export function topicParts(topic: string): { resource: string; event: string } {
  const dot = topic.indexOf(".");
  return { resource: topic.slice(0, dot), event: topic.slice(dot + 1) };
}

/**
 * An absolute http:// or https:// URL whose host is a valid host name or IP address. WHATWG URL parsing alone
 * accepts hosts such as `foobar!` or `-a..b` (it only forbids a few characters); the original service refuses them
 * with the same error as any other invalid URL.
 */
export function isDeliveryUrl(value: unknown): value is string {
  if (typeof value !== "string") return false;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  return (url.protocol === "http:" || url.protocol === "https:") && isHostName(url.hostname);
}

/** RFC 1123 labels: letters, digits and inner hyphens, 1-63 characters each. */
const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

/**
 * A URL's host (as `URL.hostname` gives it: lower case, internationalized names already in punycode, IPv4 addresses
 * normalized to dotted decimal) that is an IP address or a host name of RFC 1123 labels, at most 253 characters,
 * with an optional final dot.
 */
export function isHostName(hostname: string): boolean {
  if (hostname.startsWith("[") && hostname.endsWith("]")) return true; // IPv6, already checked by the URL parser
  const name = hostname.endsWith(".") ? hostname.slice(0, -1) : hostname;
  if (name === "" || name.length > 253) return false;
  return name.split(".").every((label) => LABEL.test(label));
}

/** The URL as given, with its scheme lower-cased (schemes are case-insensitive; the contract's pattern is not). */
export function normalizeDeliveryUrl(value: string): string {
  return value.replace(/^[A-Za-z][A-Za-z0-9+.-]*:/, (scheme) => scheme.toLowerCase());
}

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const two = (n: number) => String(n).padStart(2, "0");

/** 'Webhook created on Jun 05, 2024 @ 03:04 PM' (GMT): abbreviated month, day, year, hour:minute, am/pm. */
export function defaultWebhookName(now: Date): string {
  const hours = now.getUTCHours();
  const clock = `${two(hours % 12 === 0 ? 12 : hours % 12)}:${two(now.getUTCMinutes())} ${hours < 12 ? "AM" : "PM"}`;
  return `Webhook created on ${MONTHS[now.getUTCMonth()]} ${two(now.getUTCDate())}, ${now.getUTCFullYear()} @ ${clock}`;
}

/** The service's standard datetime form, in GMT: "2024-06-05T15:04:05". */
export function formatDatetime(date: Date): string {
  return date.toISOString().slice(0, 19);
}
