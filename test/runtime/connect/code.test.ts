import { describe, expect, it } from "vitest";
import { connectCodeFromHttpStatus, connectCodeToHttpStatus, isConnectCode } from "../../../src/runtime/connect/code.js";
import { base64Decode, base64Encode } from "../../../src/runtime/connect/base64.js";
import { ConnectError } from "../../../src/runtime/connect/error.js";
import { connectErrorFromJson, connectErrorToJson } from "../../../src/runtime/connect/error-json.js";

describe("Connect codes", () => {
  it("map to the HTTP statuses of the Connect protocol", () => {
    expect(connectCodeToHttpStatus("canceled")).toBe(499);
    expect(connectCodeToHttpStatus("invalid_argument")).toBe(400);
    expect(connectCodeToHttpStatus("deadline_exceeded")).toBe(504);
    expect(connectCodeToHttpStatus("failed_precondition")).toBe(400);
    expect(connectCodeToHttpStatus("resource_exhausted")).toBe(429);
    expect(connectCodeToHttpStatus("unimplemented")).toBe(501);
    expect(connectCodeToHttpStatus("unauthenticated")).toBe(401);
  });

  it("are synthesised from the status of non-Connect error responses", () => {
    expect([400, 401, 403, 404, 429, 502, 503, 504, 418].map(connectCodeFromHttpStatus)).toEqual([
      "internal", "unauthenticated", "permission_denied", "unimplemented", "unavailable", "unavailable", "unavailable",
      "unavailable", "unknown",
    ]);
  });

  it("are recognised only as the 16 names, never inherited properties", () => {
    expect(isConnectCode("not_found")).toBe(true);
    expect(isConnectCode("NOT_FOUND")).toBe(false);
    expect(isConnectCode("__proto__")).toBe(false);
    expect(isConnectCode("constructor")).toBe(false);
    expect(isConnectCode(5)).toBe(false);
  });
});

describe("base64 for error details", () => {
  it("matches Node's encoder without padding and decodes padded, unpadded and URL-safe input", () => {
    for (let n = 0; n < 40; n++) {
      const bytes = Uint8Array.from({ length: n }, (_, i) => (i * 89 + n * 7) & 0xff);
      const want = Buffer.from(bytes).toString("base64");
      expect(base64Encode(bytes)).toBe(want.replace(/=+$/, ""));
      expect(base64Decode(want)).toEqual(bytes);
      expect(base64Decode(Buffer.from(bytes).toString("base64url"))).toEqual(bytes);
    }
    expect(base64Decode("a")).toBeUndefined();
    expect(base64Decode("ab!d")).toBeUndefined();
  });
});

describe("Connect error JSON", () => {
  it("round-trips code, message and details", () => {
    const error = new ConnectError("not_found", "no such user", { details: [{ type: "google.rpc.ErrorInfo", value: new Uint8Array([10, 1, 65]) }] });
    const json = connectErrorToJson(error);
    expect(json).toEqual({ code: "not_found", message: "no such user", details: [{ type: "google.rpc.ErrorInfo", value: "CgFB" }] });
    const back = connectErrorFromJson(JSON.stringify(json))!;
    expect(back).toBeInstanceOf(ConnectError);
    expect(back.code).toBe("not_found");
    expect(back.rawMessage).toBe("no such user");
    expect(back.message).toBe("[not_found] no such user");
    expect(back.details).toEqual(error.details);
  });

  it("is not recognised in bodies that are not Connect errors", () => {
    for (const text of ["", "<html>", "[]", "null", '{"code":"teapot"}', '{"message":"x"}', '{"code":"__proto__"}']) {
      expect(connectErrorFromJson(text)).toBeUndefined();
    }
  });

  it("drops malformed details instead of failing", () => {
    const error = connectErrorFromJson('{"code":"internal","details":[1,{"type":"t"},{"type":"t","value":"!!"},{"type":"ok","value":"AQ"}]}')!;
    expect(error.details).toEqual([{ type: "ok", value: new Uint8Array([1]) }]);
  });
});
