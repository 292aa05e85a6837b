import { describe, expect, it } from "vitest";
import { createPartnerServiceServer, encodeDeleteElement, encodeLoginElement, type PartnerServiceHandlers } from "../../../generated/partner/index.js";
import { buildSoapEnvelope, parseSoapEnvelope, SOAP11_NS, SOAP12_NS, SoapMessage, type SoapVersion } from "../../../src/runtime/index.js";

/**
 * Envelopes the server must refuse rather than half-run: a Body with two operation elements (the second used to be
 * ignored: a delete that never ran, answered 200), and an envelope whose version is not the one its media type says.
 */
function server() {
  const calls: string[] = [];
  const handlers: Partial<PartnerServiceHandlers> = {
    login: (input) => {
      calls.push(`login ${input.username}`);
      return { result: { metadataServerUrl: null, passwordExpired: false, sandbox: false, serverUrl: null, sessionId: "S", userId: null } };
    },
    delete: (input) => {
      calls.push(`delete ${(input.ids ?? []).join(",")}`);
      return { result: [] };
    },
  };
  const handler = createPartnerServiceServer(handlers);
  const post = (version: SoapVersion, contentType: string, body: string) =>
    handler(new Request("http://127.0.0.1/soap", { method: "POST", headers: { "content-type": contentType }, body: buildSoapEnvelope({ version, body }) }));
  return { calls, post };
}

const LOGIN = encodeLoginElement({ username: "ann", password: "pw" });
const DELETE = encodeDeleteElement({ ids: ["001000000000001AAA"] });
const TYPES: Record<SoapVersion, string> = { "1.1": "text/xml; charset=utf-8", "1.2": "application/soap+xml; charset=utf-8" };

describe("a Body with more than one operation element", () => {
  it.each(["1.1", "1.2"] as const)("SOAP %s: a Client/Sender fault naming both elements, and no handler runs", async (version) => {
    const { calls, post } = server();
    const res = await post(version, TYPES[version], LOGIN + DELETE);
    expect(res.status).toBe(version === "1.2" ? 400 : 500);
    const fault = parseSoapEnvelope(await res.text()).fault!;
    expect(fault.code).toEqual(version === "1.2" ? { ns: SOAP12_NS, local: "Sender" } : { ns: SOAP11_NS, local: "Client" });
    expect(fault.string).toBe(
      "the SOAP body holds more than one element ({urn:partner.api.example}login, then {urn:partner.api.example}delete): one operation per request, and none was run",
    );
    expect(calls).toEqual([]);
    // One element at a time is fine.
    expect((await post(version, TYPES[version], DELETE)).status).toBe(200);
    expect(calls).toEqual(["delete 001000000000001AAA"]);
  });

  it("a multi-reference value after the operation element (SOAP encoding's id=) is not a second operation", async () => {
    const { calls, post } = server();
    const res = await post("1.1", TYPES["1.1"], LOGIN + `<multiRef id="id0" xmlns:soapenc="http://schemas.xmlsoap.org/soap/encoding/">x</multiRef>`);
    expect(res.status).toBe(200);
    expect(calls).toEqual(["login ann"]);
  });

  it("the envelope reader reports the second element once the message is finished", () => {
    const read = (body: string) => {
      const m = SoapMessage.read(buildSoapEnvelope({ version: "1.1", body }));
      m.finish();
      return m.extraBodyElement;
    };
    expect(read(LOGIN)).toBeUndefined();
    expect(read(LOGIN + "<a:x xmlns:a='urn:a'/><b/>")).toEqual({ ns: "urn:a", local: "x" });
    expect(read(LOGIN + "<r id='1'/><r2 xmlns:e='http://www.w3.org/2003/05/soap-encoding' e:id='2'/>")).toBeUndefined();
  });
});

describe("an envelope whose version is not its media type's", () => {
  it("a SOAP 1.2 envelope sent as text/xml: a SOAP 1.1 VersionMismatch fault, nothing run", async () => {
    const { calls, post } = server();
    const res = await post("1.2", "text/xml; charset=utf-8", LOGIN);
    expect(res.status).toBe(500);
    expect(res.headers.get("content-type")).toBe("text/xml; charset=utf-8");
    const env = parseSoapEnvelope(await res.text());
    expect(env.version).toBe("1.1");
    expect(env.fault).toMatchObject({
      code: { ns: SOAP11_NS, local: "VersionMismatch" },
      string: `a SOAP 1.2 envelope (${SOAP12_NS}) sent as text/xml: SOAP 1.2 is sent as application/soap+xml`,
    });
    expect(env.headers).toEqual([]);
    expect(calls).toEqual([]);
  });

  it("a SOAP 1.1 envelope sent as application/soap+xml: a VersionMismatch fault in SOAP 1.1 with the Upgrade header block (SOAP 1.2 appendix A)", async () => {
    const { calls, post } = server();
    const res = await post("1.1", 'application/soap+xml; charset=utf-8; action="urn:login"', LOGIN);
    expect(res.status).toBe(500);
    expect(res.headers.get("content-type")).toBe("text/xml; charset=utf-8");
    const env = parseSoapEnvelope(await res.text());
    expect(env.fault).toMatchObject({ code: { ns: SOAP11_NS, local: "VersionMismatch" }, string: `a SOAP 1.1 envelope (${SOAP11_NS}) sent as application/soap+xml: SOAP 1.1 is sent as text/xml` });
    const upgrade = env.headers[0]!;
    expect([upgrade.ns, upgrade.local]).toEqual([SOAP12_NS, "Upgrade"]);
    const supported = upgrade.children[0]!;
    expect([supported.ns, supported.local, supported.attrs.find((a) => a.local === "qname")?.value]).toEqual([SOAP12_NS, "SupportedEnvelope", "ns:Envelope"]);
    expect(calls).toEqual([]);
  });

  it("each version with its own media type still works", async () => {
    const { calls, post } = server();
    expect((await post("1.1", TYPES["1.1"], LOGIN)).status).toBe(200);
    expect((await post("1.2", TYPES["1.2"], LOGIN)).status).toBe(200);
    expect(calls).toEqual(["login ann", "login ann"]);
  });
});
