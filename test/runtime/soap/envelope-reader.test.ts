import { describe, expect, it } from "vitest";
import * as partner from "../../../generated/partner/index.js";
import {
  buildSoapEnvelope, buildSoapFault, parseSoapEnvelope, readSoapResponse, SOAP11_NS, SOAP12_NS, SoapEnvelopeError, SoapMessage,
  SoapResponseError, XmlDecodeError, XmlParseError, type SoapClientBinding, type SoapClientOperation,
} from "../../../src/runtime/index.js";

const TNS = "urn:partner.api.example";

/** What the one-pass reader makes of `text`, in parseSoapEnvelope's shape (names only for elements). */
function pulled(text: string): unknown {
  const m = SoapMessage.read(text);
  m.finish();
  return summary(m.version, m.headers, m.body === undefined ? [] : [m.body], m.fault);
}

function tree(text: string): unknown {
  const e = parseSoapEnvelope(text);
  return summary(e.version, e.headers, e.body.slice(0, 1), e.fault);
}

function summary(version: string, headers: readonly { ns: string; local: string }[], body: readonly { ns: string; local: string }[], fault: ReturnType<typeof parseSoapEnvelope>["fault"]): unknown {
  const names = (list: readonly { ns: string; local: string }[] | undefined) => list?.map((n) => `{${n.ns}}${n.local}`);
  return { version, headers: names(headers), body: names(body), fault: fault && { ...fault, detail: names(fault.detail && [fault.detail]), details: names(fault.details) } };
}

function failure(run: () => unknown): string {
  try {
    run();
    return "ok";
  } catch (e) {
    return `${(e as Error).name}: ${(e as Error).message}`;
  }
}

describe("SoapMessage (one-pass envelope reader)", () => {
  const envelopes: string[] = [];
  for (const version of ["1.1", "1.2"] as const) {
    envelopes.push(
      buildSoapEnvelope({ version, headers: ['<h:S xmlns:h="urn:h"><h:id>1</h:id></h:S>', "<h:T xmlns:h='urn:h'/>"], body: '<b:login xmlns:b="urn:b"><b:x/></b:login><b:second xmlns:b="urn:b"/>' }),
      buildSoapEnvelope({ version, body: "" }),
      buildSoapFault({ version, code: { ns: "urn:fault", local: "INVALID_SESSION_ID" }, message: "Invalid <session>", actor: "me", detail: '<f:fault xmlns:f="urn:fault"><f:code>X</f:code></f:fault><g:extra xmlns:g="urn:g"/>' }),
      buildSoapFault({ version, code: "Client", message: "m" }),
      buildSoapFault({ version, code: { ns: "", local: "Server.Busy" }, message: "m" }),
    );
  }
  envelopes.push(
    `<e:Envelope xmlns:e="${SOAP11_NS}"><e:Body><e:Fault><faultcode xmlns:x="urn:x">x:Boom</faultcode><faultstring>bad</faultstring><faultstring>later</faultstring><faultactor>me</faultactor></e:Fault></e:Body></e:Envelope>`,
    `<Envelope xmlns="${SOAP11_NS}"><Body><Fault><faultcode>Client</faultcode><faultstring>default ns</faultstring><detail><a xmlns="urn:a"/></detail></Fault></Body></Envelope>`,
    `<e:Envelope xmlns:e="${SOAP12_NS}"><e:Body><e:Fault><e:Code><e:Value>e:Sender</e:Value><e:Subcode><e:Value xmlns:q="urn:q">q:Inner</e:Value><e:Subcode><e:Other/></e:Subcode></e:Subcode></e:Code><e:Reason><e:Text xml:lang="de">Nein</e:Text><e:Text xml:lang="en-US">No</e:Text></e:Reason><e:Role>r</e:Role></e:Fault></e:Body></e:Envelope>`,
    `<e:Envelope xmlns:e="${SOAP11_NS}"><e:Header/><e:Header><h xmlns="urn:h"/></e:Header><e:Body><x/></e:Body><!-- after --></e:Envelope>`,
  );

  it("reads what parseSoapEnvelope reads: version, headers, first body element, faults of both versions", () => {
    for (const text of envelopes) expect(pulled(text), text).toEqual(tree(text));
    const fault12 = pulled(envelopes[envelopes.length - 2]!) as { fault: unknown };
    expect(fault12.fault).toEqual({ code: { ns: "urn:q", local: "Inner" }, string: "No", actor: "r", detail: undefined, details: undefined });
  });

  it("reports the same errors in the same order as parseSoapEnvelope", () => {
    const bad = [
      "<x/>",
      "<x><unclosed></x>",
      `<e:Envelope xmlns:e="${SOAP11_NS}"/>`,
      `<e:Envelope xmlns:e="${SOAP11_NS}"><e:Other/><e:Body/></e:Envelope>`,
      `<e:Envelope xmlns:e="${SOAP11_NS}"><e:Body/><e:Header/></e:Envelope>`,
      `<e:Envelope xmlns:e="${SOAP11_NS}"><e:Body/><e:Body/></e:Envelope>`,
      `<e:Envelope xmlns:e="${SOAP11_NS}"><e:Body><e:Fault><faultstring>no code</faultstring></e:Fault></e:Body></e:Envelope>`,
      `<e:Envelope xmlns:e="${SOAP12_NS}"><e:Body><e:Fault><e:Reason/></e:Fault></e:Body></e:Envelope>`,
      // An envelope problem first, then a malformed document: malformed wins.
      `<e:Envelope xmlns:e="${SOAP11_NS}"><e:Other/><e:Body/></e:Envelope><junk`,
      `<e:Envelope xmlns:e="${SOAP11_NS}"><e:Body><e:Fault/></e:Body></e:Envelope>&`,
      `<e:Envelope xmlns:e="${SOAP11_NS}"><e:Body><a>&bad;</a></e:Body></e:Envelope>`,
      `<!DOCTYPE e><e:Envelope xmlns:e="${SOAP11_NS}"><e:Body/></e:Envelope>`,
    ];
    for (const text of bad) {
      const expected = failure(() => parseSoapEnvelope(text));
      expect(expected, text).not.toBe("ok");
      expect(failure(() => pulled(text)), text).toBe(expected);
    }
    expect(() => pulled(bad[2]!)).toThrow(new SoapEnvelopeError("the envelope has no Body"));
    expect(() => pulled(bad[8]!)).toThrow(XmlParseError);
  });

  it("keeps headers and fault details as elements decoded later, from their offsets", () => {
    const m = SoapMessage.read(envelopes[0]!);
    const [s] = m.headers;
    expect(s!.children.map((c) => [c.local, c.text])).toEqual([["id", "1"]]);
    expect(m.body!.children.map((c) => c.local)).toEqual(["x"]);
    m.finish();
    expect(s!.children[0]!.text).toBe("1");
  });
});

describe("decoding from the text: errors come in whole-document order", () => {
  const login = (inside: string, after = "") => `<l:login xmlns:l="${TNS}">${inside}</l:login>${after}`;

  it("a decode error in a document malformed further on is reported as malformed", () => {
    expect(() => partner.decodeLoginElement(login("<l:username>u</l:username>"))).toThrow(XmlDecodeError);
    expect(() => partner.decodeLoginElement(login("<l:username>u</l:username>", "<junk/>"))).toThrow(/content after the root element/);
    expect(() => partner.decodeLoginElement(login("<l:username>u</l:username><l:x>&bad;</l:x>"))).toThrow(XmlParseError);
    expect(() => partner.decodeLoginElement(`<l:other xmlns:l="${TNS}"><unclosed></l:other>`)).toThrow(XmlParseError);
    expect(partner.decodeLoginElement(login("<l:username>u</l:username><l:password>p</l:password>", "<!-- fine -->"))).toEqual({ username: "u", password: "p" });
  });

  const binding: SoapClientBinding = {
    version: "1.1",
    requestHeaders: {},
    responseHeaders: { [`{${TNS}}DebuggingInfo`]: { name: "DebuggingInfo", decode: partner.decodeDebuggingInfoElement } },
    faults: {},
  };
  const op: SoapClientOperation<never, partner.LoginResponse, { DebuggingInfo?: partner.DebuggingInfo }> = {
    name: "login",
    action: "",
    encodeInput: () => "",
    outputElement: `{${TNS}}loginResponse`,
    decodeOutput: partner.decodeLoginResponseElement,
  };
  const ok = { url: "http://127.0.0.1/", status: 200, statusText: "OK", ok: true };
  const result = `<l:result><l:passwordExpired>false</l:passwordExpired><l:sandbox>true</l:sandbox><l:serverUrl xsi:nil="true" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"/><l:sessionId>S</l:sessionId><l:userId>U</l:userId><l:metadataServerUrl>m</l:metadataServerUrl></l:result>`;
  const response = (body: string, header = "", tail = "") =>
    buildSoapEnvelope({ version: "1.1", headers: header ? [header] : [], body: `<l:loginResponse xmlns:l="${TNS}">${body}</l:loginResponse>` }) + tail;

  it("reads headers and body of a response in one pass", () => {
    const r = readSoapResponse(binding, op, response(result, `<l:DebuggingInfo xmlns:l="${TNS}"><l:debugLog>log</l:debugLog></l:DebuggingInfo>`), ok);
    expect(r.body.result.sessionId).toBe("S");
    expect(r.body.result.serverUrl).toBeNull();
    expect(r.headers).toEqual({ DebuggingInfo: { debugLog: "log" } });
  });

  it("malformed beats a body decode error; a header decode error beats the body's", () => {
    expect(() => readSoapResponse(binding, op, response("<l:result/>"), ok)).toThrow(XmlDecodeError);
    expect(() => readSoapResponse(binding, op, response("<l:result/>", "", "<junk/>"), ok)).toThrow(SoapResponseError);
    expect(() => readSoapResponse(binding, op, response("<l:result/>", "", "<junk/>"), ok)).toThrow(/not a SOAP envelope: content after the root element/);
    expect(() => readSoapResponse(binding, op, response("<l:result/>", `<l:DebuggingInfo xmlns:l="${TNS}"/>`), ok)).toThrow(/required element debugLog is missing/);
    expect(() => readSoapResponse(binding, op, response(result + "<l:result>&bad;</l:result>"), ok)).toThrow(/not a SOAP envelope: undefined entity/);
  });
});
