import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPartnerServiceClient } from "../../../generated/partner/index.js";
import { ADMIN, faultOf, loggedIn, type Session } from "./helpers.js";

let s: Session;
beforeAll(async () => {
  s = await loggedIn();
});
afterAll(() => s.emulator.close());

describe("partner emulator: sessions over HTTP through the generated client", () => {
  it("login returns a session, a serverUrl pointing at the emulator and userInfo", async () => {
    const client = createPartnerServiceClient({ endpoint: s.emulator.endpoint });
    const { body } = await client.login({ username: "sam@example.com", password: "Sales2024!" });
    expect(body.result.sessionId).toMatch(/\S{20,}/);
    expect(body.result.serverUrl).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${s.emulator.port}/services/Soap/u/17\\.0/`));
    expect(body.result.passwordExpired).toBe(false);
    expect(body.result.userInfo).toMatchObject({ userName: "sam@example.com", userFullName: "Sam Seller", organizationName: "Example Emulated Org" });
    expect(body.result.userId).toMatch(/^005[a-zA-Z0-9]{15}$/);
  });

  it("a wrong password is an INVALID_LOGIN LoginFault with the code as a QName in the fault namespace", async () => {
    const client = createPartnerServiceClient({ endpoint: s.emulator.endpoint });
    const fault = await faultOf(client.login({ username: ADMIN.username, password: "nope" }));
    expect(fault.code).toEqual({ ns: "urn:fault.api.example", local: "INVALID_LOGIN" });
    expect(fault.fault).toBe("LoginFault");
    expect(fault.detail).toMatchObject({ $type: "LoginFault", exceptionCode: "INVALID_LOGIN" });
    expect(fault.status).toBe(500);
  });

  it("calls without a valid SessionHeader are INVALID_SESSION_ID", async () => {
    const none = await faultOf(s.client.getUserInfo({}));
    expect(none.detail).toMatchObject({ exceptionCode: "INVALID_SESSION_ID" });
    const bogus = await faultOf(s.client.getUserInfo({}, { headers: { SessionHeader: { sessionId: "bogus" } } }));
    expect(bogus.code).toEqual({ ns: "urn:fault.api.example", local: "INVALID_SESSION_ID" });
  });

  it("getUserInfo and getServerTimestamp answer for the session's user", async () => {
    const info = await s.client.getUserInfo({}, { headers: s.headers });
    expect(info.body.result.userName).toBe(ADMIN.username);
    const ts = await s.client.getServerTimestamp({}, { headers: s.headers });
    expect(Number.isNaN(Date.parse(ts.body.result.timestamp))).toBe(false);
  });

  it("logout ends the session; invalidateSessions reports per id", async () => {
    const client = createPartnerServiceClient({ endpoint: s.emulator.endpoint });
    const a = (await client.login(ADMIN)).body.result.sessionId!;
    const b = (await client.login(ADMIN)).body.result.sessionId!;
    await client.logout({}, { headers: { SessionHeader: { sessionId: a } } });
    expect((await faultOf(client.getUserInfo({}, { headers: { SessionHeader: { sessionId: a } } }))).detail).toMatchObject({ exceptionCode: "INVALID_SESSION_ID" });
    const r = await s.client.invalidateSessions({ sessionIds: [b, "not-a-session"] }, { headers: s.headers });
    expect(r.body.result?.map((x) => x.success)).toEqual([true, false]);
    expect(r.body.result?.[1]?.errors?.[0]?.statusCode).toBe("INVALID_SESSION_ID");
  });

  it("setPassword enforces the policy (InvalidNewPasswordFault) and a new password works; resetPassword returns one", async () => {
    const sam = createPartnerServiceClient({ endpoint: s.emulator.endpoint });
    const login = (await sam.login({ username: "sam@example.com", password: "Sales2024!" })).body.result;
    const weak = await faultOf(s.client.setPassword({ userId: login.userId!, password: "short" }, { headers: s.headers }));
    expect(weak.fault).toBe("InvalidNewPasswordFault");
    expect(weak.detail).toMatchObject({ exceptionCode: "INVALID_NEW_PASSWORD" });
    await s.client.setPassword({ userId: login.userId!, password: "NewPassw0rd" }, { headers: s.headers });
    await sam.login({ username: "sam@example.com", password: "NewPassw0rd" });
    const reset = await s.client.resetPassword({ userId: login.userId! }, { headers: s.headers });
    await sam.login({ username: "sam@example.com", password: reset.body.result.password });
    const unknown = await faultOf(s.client.resetPassword({ userId: "005000000000099AAA" }, { headers: s.headers }));
    expect(unknown.fault).toBe("InvalidIdFault");
  });

  it("a user whose password expired may only set a new one", async () => {
    const client = createPartnerServiceClient({ endpoint: s.emulator.endpoint });
    const r = (await client.login({ username: "expired@example.com", password: "Expired1!" })).body.result;
    expect(r.passwordExpired).toBe(true);
    const headers = { SessionHeader: { sessionId: r.sessionId! } };
    expect((await faultOf(client.getUserInfo({}, { headers }))).detail).toMatchObject({ exceptionCode: "INVALID_OPERATION_WITH_EXPIRED_PASSWORD" });
    await client.setPassword({ userId: r.userId!, password: "Renewed123" }, { headers });
    expect((await client.getUserInfo({}, { headers })).body.result.userName).toBe("expired@example.com");
  });
});
