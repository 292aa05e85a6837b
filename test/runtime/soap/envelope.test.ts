import { describe, expect, it } from "vitest";
import {
  buildSoapEnvelope, buildSoapFault, parseSoapEnvelope, SOAP11_NS, SOAP12_NS, SoapEnvelopeError, XmlParseError,
} from "../../../src/runtime/index.js";

describe("SOAP envelopes", () => {
  for (const version of ["1.1", "1.2"] as const) {
    it(`builds and parses a SOAP ${version} envelope with headers and body`, () => {
      const text = buildSoapEnvelope({ version, headers: ['<h:S xmlns:h="urn:h"><h:id>1</h:id></h:S>'], body: '<b:login xmlns:b="urn:b"/>' });
      const env = parseSoapEnvelope(text);
      expect(env.version).toBe(version);
      expect(env.headers.map((h) => [h.ns, h.local])).toEqual([["urn:h", "S"]]);
      expect(env.body.map((b) => [b.ns, b.local])).toEqual([["urn:b", "login"]]);
      expect(env.fault).toBeUndefined();
    });

    it(`builds and parses a SOAP ${version} fault with a QName code and a detail`, () => {
      const text = buildSoapFault({
        version,
        code: { ns: "urn:fault", local: "INVALID_SESSION_ID" },
        message: "Invalid <session>",
        detail: '<f:fault xmlns:f="urn:fault"><f:exceptionCode>INVALID_SESSION_ID</f:exceptionCode></f:fault>',
      });
      const fault = parseSoapEnvelope(text).fault!;
      expect(fault.code).toEqual({ ns: "urn:fault", local: "INVALID_SESSION_ID" });
      expect(fault.string).toBe("Invalid <session>");
      expect([fault.detail!.ns, fault.detail!.local, fault.detail!.children[0]!.text]).toEqual(["urn:fault", "fault", "INVALID_SESSION_ID"]);
    });
  }

  it("maps Client/Server to the version's own codes", () => {
    expect(parseSoapEnvelope(buildSoapFault({ version: "1.1", code: "Client", message: "m" })).fault!.code).toEqual({ ns: SOAP11_NS, local: "Client" });
    expect(parseSoapEnvelope(buildSoapFault({ version: "1.2", code: "Server", message: "m" })).fault!.code).toEqual({ ns: SOAP12_NS, local: "Receiver" });
  });

  it("parses faults written by others, with any prefixes", () => {
    const text = `<e:Envelope xmlns:e="${SOAP11_NS}"><e:Body><e:Fault><faultcode xmlns:x="urn:x">x:Boom</faultcode><faultstring>bad</faultstring><faultactor>me</faultactor></e:Fault></e:Body></e:Envelope>`;
    expect(parseSoapEnvelope(text).fault).toEqual({ code: { ns: "urn:x", local: "Boom" }, string: "bad", actor: "me" });
  });

  it("rejects what is not an envelope, and DOCTYPEs", () => {
    expect(() => parseSoapEnvelope("<x/>")).toThrow(SoapEnvelopeError);
    expect(() => parseSoapEnvelope(`<e:Envelope xmlns:e="${SOAP11_NS}"/>`)).toThrow(/no Body/);
    expect(() => parseSoapEnvelope(`<!DOCTYPE e><e:Envelope xmlns:e="${SOAP11_NS}"><e:Body/></e:Envelope>`)).toThrow(XmlParseError);
  });
});
