import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createPartnerServiceClient, createPartnerServiceServer, decodeLoginResponseElement, encodeLoginElement, encodeSessionHeaderElement, partnerServiceFault,
  type PartnerServiceHandlers,
} from "../../../generated/partner/index.js";
import { serveNode, type NodeServerHandle } from "../../../src/runtime/http/node.js";
import {
  buildSoapEnvelope, createSoapHandler, parseSoapEnvelope, SoapFaultError, type SoapServiceDescriptor,
} from "../../../src/runtime/index.js";

/** The generated server and the runtime's request handling: faults, never stack traces, for every bad request. */
const handlers: Partial<PartnerServiceHandlers> = {
  login: (input) => {
    if (input.password !== "pw") {
      throw partnerServiceFault("LoginFault", { $type: "LoginFault", exceptionCode: "INVALID_LOGIN", exceptionMessage: "no" }, { code: "INVALID_LOGIN" });
    }
    return { result: { metadataServerUrl: null, passwordExpired: false, sandbox: false, serverUrl: null, sessionId: input.username, userId: null } };
  },
  getServerTimestamp: (_input, ctx) => ({ result: { timestamp: `for ${ctx.headers.SessionHeader?.sessionId ?? "nobody"}` } }),
  getUserInfo: () => {
    throw new Error("secret internals at /srv/app.js:12");
  },
};

const handler = createPartnerServiceServer(handlers, { wsdl: "<definitions/>", maxBodyBytes: 2000 });
const post = (body: string, headers: Record<string, string> = { "content-type": "text/xml; charset=utf-8" }) =>
  handler(new Request("http://127.0.0.1/soap", { method: "POST", headers, body }));
const envelope = (body: string, headers: string[] = []) => buildSoapEnvelope({ version: "1.1", headers, body });

async function faultOf(response: Response) {
  const text = await response.text();
  expect(text).not.toMatch(/at \/|\.js:\d+/);
  const fault = parseSoapEnvelope(text).fault;
  expect(fault).toBeDefined();
  return { status: response.status, ...fault! };
}

describe("generated SOAP server", () => {
  it("serves ?wsdl and refuses other methods", async () => {
    const wsdl = await handler(new Request("http://127.0.0.1/soap?WSDL"));
    expect([wsdl.status, await wsdl.text()]).toEqual([200, "<definitions/>"]);
    expect((await handler(new Request("http://127.0.0.1/soap"))).status).toBe(404);
    expect((await handler(new Request("http://127.0.0.1/soap", { method: "PUT", body: "x" }))).status).toBe(405);
  });

  it("dispatches by body element, decodes headers and answers", async () => {
    const r = await post(envelope(encodeLoginElement({ username: "ann", password: "pw" })));
    expect(r.status).toBe(200);
    expect(r.headers.get("content-type")).toMatch(/^text\/xml/);
    expect(decodeLoginResponseElement(parseSoapEnvelope(await r.text()).body[0]!).result.sessionId).toBe("ann");
    const ts = await post(envelope("<getServerTimestamp xmlns='urn:partner.api.example'/>", [encodeSessionHeaderElement({ sessionId: "S1" })]));
    expect(await ts.text()).toContain("for S1");
  });

  it("writes a thrown typed fault with its QName code and detail", async () => {
    const f = await faultOf(await post(envelope(encodeLoginElement({ username: "ann", password: "bad" }))));
    expect(f.status).toBe(500);
    expect(f.code).toEqual({ ns: "urn:fault.api.example", local: "INVALID_LOGIN" });
    expect([f.detail?.ns, f.detail?.local]).toEqual(["urn:fault.api.example", "LoginFault"]);
  });

  it("answers bad requests with Client faults: malformed XML, not an envelope, empty body, unknown element, bad content", async () => {
    const cases = [
      "<soapenv:Envelope xmlns:soapenv='http://schemas.xmlsoap.org/soap/envelope/'><soapenv:Body><unclosed>",
      "<notSoap/>",
      envelope(""),
      envelope("<x:nothing xmlns:x='urn:x'/>"),
      envelope("<login xmlns='urn:partner.api.example'><username>only</username></login>"),
      "<!DOCTYPE x [<!ENTITY a 'b'>]><x/>",
    ];
    for (const body of cases) {
      const f = await faultOf(await post(body));
      expect(f.code.local).toBe("Client");
    }
  });

  it("415 for other content types, 413 past the size limit, Server fault without internals when a handler breaks", async () => {
    const wrongType = await post(envelope(encodeLoginElement({ username: "a", password: "pw" })), { "content-type": "application/json" });
    expect(wrongType.status).toBe(415);
    const big = await post(envelope(encodeLoginElement({ username: "a".repeat(5000), password: "pw" })));
    expect((await faultOf(big)).status).toBe(413);
    const broken = await faultOf(await post(envelope("<getUserInfo xmlns='urn:partner.api.example'/>")));
    expect([broken.code.local, broken.string]).toEqual(["Server", "internal error"]);
    const missing = await faultOf(await post(envelope("<logout xmlns='urn:partner.api.example'/>")));
    expect(missing.string).toMatch(/not implemented/);
  });

  it("answers MustUnderstand for an unknown mandatory header", async () => {
    const header = "<x:Secret xmlns:x='urn:x' soapenv:mustUnderstand='1' xmlns:soapenv='http://schemas.xmlsoap.org/soap/envelope/'/>";
    const f = await faultOf(await post(envelope(encodeLoginElement({ username: "a", password: "pw" }), [header])));
    expect(f.code.local).toBe("MustUnderstand");
  });
});

describe("runtime SOAP handler: SOAPAction and SOAP 1.2", () => {
  const service: SoapServiceDescriptor = {
    version: "1.1",
    operations: [
      {
        name: "echo",
        action: "urn:echo",
        inputElement: "{urn:t}echo",
        decodeInput: (node) => node.text,
        validateInput: (value) => (value === "" ? [{ path: "", rule: "required", message: "text is required" }] : []),
        encodeOutput: ((value: string) => `<t:echoed xmlns:t="urn:t">${value}</t:echoed>`) as (value: never) => string,
        requestHeaders: {},
        responseHeaders: {},
      },
    ],
    faults: {},
  };
  const h = createSoapHandler(service, { echo: (input: string) => input.toUpperCase() });
  const send = (headers: Record<string, string>, version: "1.1" | "1.2" = "1.1", text = "hi") =>
    h(new Request("http://127.0.0.1/", { method: "POST", headers, body: buildSoapEnvelope({ version, headers: [], body: `<t:echo xmlns:t="urn:t">${text}</t:echo>` }) }));

  it("accepts a matching or empty SOAPAction and refuses a different one", async () => {
    expect((await send({ "content-type": "text/xml", soapaction: '"urn:echo"' })).status).toBe(200);
    expect((await send({ "content-type": "text/xml", soapaction: '""' })).status).toBe(200);
    const wrong = await send({ "content-type": "text/xml", soapaction: '"urn:other"' });
    expect(parseSoapEnvelope(await wrong.text()).fault?.string).toMatch(/does not match/);
  });

  it("validates before the handler and lists the issues", async () => {
    const r = await send({ "content-type": "text/xml" }, "1.1", "");
    expect(parseSoapEnvelope(await r.text()).fault?.string).toBe("invalid request: /: text is required");
  });

  it("answers SOAP 1.2 in 1.2, with the action from the content type and 400 for Sender faults", async () => {
    const ok = await send({ "content-type": 'application/soap+xml; charset=utf-8; action="urn:echo"' }, "1.2");
    expect(ok.headers.get("content-type")).toMatch(/^application\/soap\+xml/);
    expect(await ok.text()).toContain(">HI<");
    const wrong = await send({ "content-type": 'application/soap+xml; action="urn:nope"' }, "1.2");
    expect(wrong.status).toBe(400);
    expect(parseSoapEnvelope(await wrong.text()).fault?.code.local).toBe("Sender");
  });
});

describe("generated server over node:http with the generated client", () => {
  let server: NodeServerHandle;
  beforeAll(async () => {
    server = await serveNode(handler);
  });
  afterAll(() => server.close());

  it("round-trips a call and a fault over loopback", async () => {
    const client = createPartnerServiceClient({ endpoint: `${server.url}/soap`, timeoutMs: 10_000 });
    expect((await client.login({ username: "zed", password: "pw" })).body.result.sessionId).toBe("zed");
    const error = await client.login({ username: "zed", password: "x" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SoapFaultError);
    expect((error as SoapFaultError).detail).toEqual({ $type: "LoginFault", exceptionCode: "INVALID_LOGIN", exceptionMessage: "no" });
  });
});
