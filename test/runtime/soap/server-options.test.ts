import { describe, expect, it } from "vitest";
import { createPartnerServiceServer, decodeCreateElement, partnerServiceFault, type PartnerServiceHandlers } from "../../../generated/partner/index.js";
import { parseSoapEnvelope, XSI_NS, xsiType, type SoapServerOptions } from "../../../src/runtime/index.js";

/**
 * The generated server's namespaceAliases and lenientNillable options (createSoapHandler), on the partner spec's
 * generated server with stub handlers: requests in another namespace family are read as the spec's and answered in
 * theirs; required + nillable elements may be omitted only when asked.
 */
const SPEC = { tns: "urn:partner.api.example", ens: "urn:sobject.api.example", fns: "urn:fault.api.example" };
const REAL = { tns: "urn:partner.soap.sforce.com", ens: "urn:sobject.partner.soap.sforce.com", fns: "urn:fault.partner.soap.sforce.com" };
const FAMILY = { [SPEC.tns]: REAL.tns, [SPEC.ens]: REAL.ens, [SPEC.fns]: REAL.fns };

function envelope(body: string, ns: typeof SPEC): string {
  return (
    `<?xml version="1.0"?><soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/" xmlns:tns="${ns.tns}" ` +
    `xmlns:ens="${ns.ens}" xmlns:xsi="${XSI_NS}"><soapenv:Body>${body}</soapenv:Body></soapenv:Envelope>`
  );
}

async function post(handlers: Partial<PartnerServiceHandlers>, options: SoapServerOptions, body: string) {
  const handler = createPartnerServiceServer(handlers, { onError: (e) => console.error(e), ...options });
  const response = await handler(new Request("http://127.0.0.1/services/Soap/u/40.0", { method: "POST", headers: { "content-type": "text/xml" }, body }));
  const text = await response.text();
  return { status: response.status, text, envelope: parseSoapEnvelope(text) };
}

const loginBody = (ns: typeof SPEC, username: string) => envelope(`<tns:login><tns:username>${username}</tns:username><tns:password>p</tns:password></tns:login>`, ns);
const loginResult = {
  result: { metadataServerUrl: null, passwordExpired: false, sandbox: false, serverUrl: "http://x", sessionId: "s", userId: null },
};

describe("namespaceAliases", () => {
  it("without aliases a request in other namespaces matches no operation (the strict default)", async () => {
    const r = await post({ login: () => loginResult }, {}, loginBody(REAL, "u"));
    expect(r.envelope.fault?.string).toBe(`no operation takes a {${REAL.tns}}login element`);
  });

  it("reads an aliased request as the spec's and answers in the request's family", async () => {
    const seen: unknown[] = [];
    const handlers: Partial<PartnerServiceHandlers> = {
      login: (input, ctx) => {
        seen.push(input.username, ctx.namespaces && Object.fromEntries(ctx.namespaces));
        return loginResult;
      },
    };
    const real = await post(handlers, { namespaceAliases: [FAMILY] }, loginBody(REAL, REAL.tns));
    expect(real.status).toBe(200);
    expect(real.envelope.body[0]).toMatchObject({ ns: REAL.tns, local: "loginResponse" });
    expect(real.envelope.body[0]!.children[0]!.children.every((c) => c.ns === REAL.tns)).toBe(true);
    expect(real.text).not.toContain(SPEC.tns);

    const spec = await post(handlers, { namespaceAliases: [FAMILY] }, loginBody(SPEC, REAL.tns));
    expect(spec.envelope.body[0]).toMatchObject({ ns: SPEC.tns, local: "loginResponse" });
    expect(spec.text).not.toContain(`xmlns:ns1="${REAL.tns}"`);
    // A username equal to a namespace URI is data: it reaches the handler unchanged both times.
    expect(seen).toEqual([REAL.tns, FAMILY, REAL.tns, undefined]);
  });

  it("resolves xsi:type values of an aliased request through the renamed prefixes", async () => {
    let actions: unknown;
    const body = envelope(
      `<tns:process><tns:actions xsi:type="tns:ProcessSubmitRequest"><tns:comments xsi:nil="true"/><tns:objectId>001000000000001AAA</tns:objectId></tns:actions></tns:process>`,
      REAL,
    );
    const r = await post({ process: (input) => ((actions = input.actions), { result: [] as never }) }, { namespaceAliases: [FAMILY] }, body);
    expect(r.status).toBe(200);
    expect(actions).toEqual([{ $type: "ProcessSubmitRequest", comments: null, objectId: "001000000000001AAA" }]);
  });

  it("answers a typed fault with its code, detail element and xsi:type in the request's fault namespace", async () => {
    const handlers: Partial<PartnerServiceHandlers> = {
      login: () => {
        // An ApiFault (element fns:fault) whose value is a subtype: written with xsi:type="fns:InvalidIdFault".
        throw partnerServiceFault("ApiFault", { $type: "InvalidIdFault", exceptionCode: "INVALID_ID_FIELD", exceptionMessage: "no" }, { code: "INVALID_ID_FIELD" });
      },
    };
    const real = await post(handlers, { namespaceAliases: [FAMILY] }, loginBody(REAL, "u"));
    expect(real.status).toBe(500);
    expect(real.envelope.fault?.code).toEqual({ ns: REAL.fns, local: "INVALID_ID_FIELD" });
    const detail = real.envelope.fault!.detail!;
    expect(detail).toMatchObject({ ns: REAL.fns, local: "fault" });
    expect(xsiType(detail)).toEqual({ ns: REAL.fns, local: "InvalidIdFault" });
    expect(detail.children.map((c) => c.ns)).toEqual([REAL.fns, REAL.fns]);
    expect(real.text).not.toContain("api.example");

    const spec = await post(handlers, { namespaceAliases: [FAMILY] }, loginBody(SPEC, "u"));
    expect(spec.envelope.fault?.code).toEqual({ ns: SPEC.fns, local: "INVALID_ID_FIELD" });
    expect(xsiType(spec.envelope.fault!.detail!)).toEqual({ ns: SPEC.fns, local: "InvalidIdFault" });
  });

  it("decodes aliased request headers and writes response headers in the request's family", async () => {
    let sessionId: string | undefined;
    const handlers: Partial<PartnerServiceHandlers> = {
      create: (_input, ctx) => {
        sessionId = ctx.headers.SessionHeader?.sessionId;
        ctx.setResponseHeader("DebuggingInfo", { debugLog: "log" });
        return { result: [{ id: "001000000000001AAA", success: true }] };
      },
    };
    const body = envelope(`<tns:create><tns:sObjects><ens:type>Account</ens:type><ens:Id xsi:nil="true"/></tns:sObjects></tns:create>`, REAL).replace(
      "<soapenv:Body>",
      `<soapenv:Header><tns:SessionHeader><tns:sessionId>abc</tns:sessionId></tns:SessionHeader></soapenv:Header><soapenv:Body>`,
    );
    const r = await post(handlers, { namespaceAliases: [FAMILY] }, body);
    expect(r.status).toBe(200);
    expect(sessionId).toBe("abc");
    expect(r.envelope.headers.map((h) => [h.ns, h.local])).toEqual([[REAL.tns, "DebuggingInfo"]]);
    expect(r.envelope.body[0]).toMatchObject({ ns: REAL.tns, local: "createResponse" });
  });

  it("refuses an ambiguous alias table when the server is built", () => {
    expect(() => createPartnerServiceServer({}, { namespaceAliases: [{ [SPEC.tns]: "urn:x", [SPEC.ens]: "urn:x" }] })).toThrow(TypeError);
  });
});

describe("lenientNillable", () => {
  const createWithoutId = envelope(`<tns:create><tns:sObjects><ens:type>Account</ens:type><ens:Name>n</ens:Name></tns:sObjects></tns:create>`, SPEC);

  it("strict (the default): a request omitting a required + nillable element is a Client fault naming it", async () => {
    const r = await post({ create: () => ({ result: [] as never }) }, {}, createWithoutId);
    expect(r.status).toBe(500);
    expect(r.envelope.fault?.code.local).toBe("Client");
    expect(r.envelope.fault?.string).toBe("invalid request: /sObjects/0: required element Id is missing");
  });

  it("lenient: the omitted element is read as nil and the request validates", async () => {
    let sObjects: unknown;
    const r = await post({ create: (input) => ((sObjects = input.sObjects), { result: [{ id: "001000000000001AAA", success: true }] }) }, { lenientNillable: true }, createWithoutId);
    expect(r.status).toBe(200);
    expect(sObjects).toEqual([{ type: "Account", Id: null, $any: [{ ns: SPEC.ens, name: "Name", value: "n" }] }]);
  });

  it("lenient still refuses a required element that is not nillable", async () => {
    const body = envelope(`<tns:create><tns:sObjects><ens:Id xsi:nil="true"/></tns:sObjects></tns:create>`, SPEC);
    const r = await post({ create: () => ({ result: [] as never }) }, { lenientNillable: true }, body);
    expect(r.envelope.fault?.string).toBe("invalid request: /sObjects/0: required element type is missing");
  });

  it("is scoped to one decode call: the option does not leak into the next, even after an error", () => {
    const xml = `<tns:create xmlns:tns="${SPEC.tns}" xmlns:ens="${SPEC.ens}"><tns:sObjects><ens:type>Account</ens:type></tns:sObjects></tns:create>`;
    expect(decodeCreateElement(xml, { lenientNillable: true }).sObjects).toEqual([{ type: "Account", Id: null }]);
    expect(() => decodeCreateElement(xml)).toThrow("/sObjects/0: required element Id is missing");
    expect(() => decodeCreateElement(`<tns:create xmlns:tns="${SPEC.tns}"><tns:sObjects/></tns:create>`, { lenientNillable: true })).toThrow("required element type is missing");
    expect(() => decodeCreateElement(xml)).toThrow("required element Id is missing");
  });
});
