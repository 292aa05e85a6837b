import type { Error$, ErrorCode } from "../../generated/webhooks/index.js";

/** Every error body of the webhook API: `{"errors": [{"code", "message"}]}`. */
export interface WebhookFailure {
  readonly status: 400 | 401 | 404 | 500;
  readonly body: Error$;
}

export function failure<S extends WebhookFailure["status"]>(status: S, code: ErrorCode, message: string): { status: S; body: Error$ } {
  return { status, body: { errors: [{ code, message }] } };
}

/** The same body shape for errors the generated server answers itself (unknown route, bad JSON, ...). */
export function serverErrorBody(status: number, message: string): unknown {
  const code =
    status === 404 ? "shop_api_no_route"
    : status === 405 ? "shop_api_method_not_allowed"
    : status === 413 ? "shop_api_request_too_large"
    : status === 415 ? "shop_api_unsupported_media_type"
    : status >= 500 ? "shop_api_internal_error"
    : "shop_api_invalid_request";
  return { errors: [{ code, message }] };
}

export function errorResponse(failureValue: { status: number; body: Error$ }): Response {
  return new Response(JSON.stringify(failureValue.body), {
    status: failureValue.status,
    headers: { "content-type": "application/json" },
  });
}
