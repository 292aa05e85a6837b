import type { CorsOptions, ValidationIssue } from "../../src/runtime/index.js";
import { createWebhooksAPIServer } from "../../generated/webhooks/index.js";
import { authenticate, can, CAPABILITIES } from "./auth.js";
import { errorResponse, failure, serverErrorBody } from "./errors.js";
import { loadWebhooksFixture, type WebhooksFixture } from "./fixture.js";
import { webhooksHandlers, type WebhooksEmulatorOptions } from "./handlers.js";
import { createStore } from "./store.js";

export type { WebhooksEmulatorOptions } from "./handlers.js";

/** CORS beyond the runtime's defaults: a page's client reads the list's pagination headers. */
export const WEBHOOKS_CORS: CorsOptions = { exposeHeaders: ["x-total", "x-totalpages", "link"] };

/** Which capability the operation needs, and the error code when the caller lacks it. */
const GUARDS: Readonly<Record<string, readonly [string, string]>> = {
  getWebhook: [CAPABILITIES.read, "shop_api_user_cannot_read_webhook"],
  deleteWebhook: [CAPABILITIES.delete, "shop_api_user_cannot_delete_webhook"],
  listWebhookDeliveries: [CAPABILITIES.read, "shop_api_user_cannot_read_webhook"],
  getWebhookDelivery: [CAPABILITIES.read, "shop_api_user_cannot_read_webhook"],
};

/**
 * The webhook API emulator: the generated server for specs/webhooks.openapi.yaml with the emulator's handlers.
 * Invalid bodies are handed to the handlers (the seed fixes the order of their checks); invalid ids get the
 * seed's 404s after authentication and the permission check.
 */
export function createWebhooksEmulator(
  fixture: WebhooksFixture = loadWebhooksFixture(),
  options: WebhooksEmulatorOptions & { readonly development?: boolean } = {},
): (request: Request) => Promise<Response> {
  const store = createStore(fixture);
  return createWebhooksAPIServer(webhooksHandlers(store, options), {
    development: options.development ?? false,
    errorBody: serverErrorBody,
    onValidationError(issues, ctx) {
      if (ctx.stage === "body") return undefined;
      const user = authenticate(store, ctx.request);
      if (!user) return errorResponse(failure(401, "shop_api_authentication_error", "Consumer key or secret is invalid or missing."));
      return parameterFailure(issues, ctx.operation, (capability) => can(user, capability));
    },
  });
}

function parameterFailure(issues: readonly ValidationIssue[], operation: string, allowed: (capability: string) => boolean): Response {
  const guard = GUARDS[operation] ?? (operation === "updateWebhook" ? [CAPABILITIES.edit, "shop_api_user_cannot_edit_webhook"] : undefined);
  if (guard && !allowed(guard[0])) return errorResponse({ status: 401, body: { errors: [{ code: guard[1] as never, message: "Sorry, you are not allowed to do that." }] } });
  const at = (path: string) => issues.some((i) => i.path === path);
  const webhookIdPath = operation === "listWebhookDeliveries" || operation === "getWebhookDelivery" ? "/path/webhook_id" : "/path/id";
  if (at(webhookIdPath)) return errorResponse(failure(404, "shop_api_invalid_webhook_id", "Invalid webhook ID."));
  // A delivery id that is not a number is zero after conversion to an unsigned integer.
  if (operation === "getWebhookDelivery" && at("/path/id")) {
    return errorResponse(failure(404, "shop_api_invalid_webhook_delivery_id", "Invalid webhook delivery ID."));
  }
  const message = issues.map((i) => `${i.path}: ${i.message}`).join("; ");
  return new Response(JSON.stringify(serverErrorBody(400, `Invalid parameter(s): ${message}`)), {
    status: 400,
    headers: { "content-type": "application/json" },
  });
}
