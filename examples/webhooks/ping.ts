import { formatDatetime } from "./rules.js";
import type { StoredDelivery, StoredWebhook } from "./store.js";

/**
 * The ping sent when a webhook is created: a real HTTP POST to its delivery_url with a bounded timeout, recorded in
 * the webhook's delivery log whatever the outcome (a failed ping is logged with response code 0, it does not fail
 * the creation). The body is `{"webhook_id": <id>}`; the signature header is the base64 HMAC-SHA256 of the body
 * keyed with the webhook's secret.
 */
export async function deliverPing(
  webhook: StoredWebhook,
  deliveryId: number,
  options: { readonly timeoutMs: number; readonly fetch?: typeof fetch },
): Promise<StoredDelivery> {
  const body = JSON.stringify({ webhook_id: webhook.id });
  const requestHeaders: Record<string, string> = {
    "content-type": "application/json",
    "user-agent": "specforge-webhooks-emulator",
    "x-shop-webhook-id": String(webhook.id),
    "x-shop-webhook-topic": webhook.topic,
    "x-shop-webhook-delivery-id": String(deliveryId),
    "x-shop-webhook-signature": await sign(body, webhook.secret),
  };
  const started = performance.now();
  const entry = {
    id: deliveryId,
    request_method: "POST",
    request_url: webhook.delivery_url,
    request_headers: requestHeaders,
    request_body: body,
  };
  try {
    const response = await (options.fetch ?? fetch)(webhook.delivery_url, {
      method: "POST",
      headers: requestHeaders,
      body,
      redirect: "manual",
      signal: AbortSignal.timeout(options.timeoutMs),
    });
    const responseBody = (await response.text()).slice(0, 10_000);
    const responseHeaders: Record<string, string> = {};
    response.headers.forEach((value, name) => {
      responseHeaders[name] = value;
    });
    return {
      ...entry,
      duration: ((performance.now() - started) / 1000).toFixed(3),
      summary: `HTTP ${response.status} ${response.statusText}: Delivered`,
      response_code: String(response.status),
      response_message: response.statusText,
      response_headers: responseHeaders,
      response_body: responseBody,
      created_at: formatDatetime(new Date()),
    };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return {
      ...entry,
      duration: ((performance.now() - started) / 1000).toFixed(3),
      summary: `Delivery failed: ${message}`,
      response_code: "0",
      response_message: message,
      response_headers: {},
      response_body: "",
      created_at: formatDatetime(new Date()),
    };
  }
}

async function sign(body: string, secret: string): Promise<string> {
  if (secret === "") return ""; // WebCrypto refuses empty HMAC keys; an unsigned ping is the honest answer
  const encoder = new TextEncoder();
  const key = await crypto.subtle.importKey("raw", encoder.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  const mac = new Uint8Array(await crypto.subtle.sign("HMAC", key, encoder.encode(body)));
  return btoa(String.fromCharCode(...mac));
}
