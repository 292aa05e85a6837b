import { describe, expect, it } from "vitest";
import { createPartnerServiceClient } from "../../../generated/partner/index.js";
import { HttpStatusError, parseSoapEnvelope, SoapEnvelopeError, SoapFaultError, SoapResponseError } from "../../../src/runtime/index.js";
import { STACK_FAULTS } from "./stack-faults.js";

/**
 * Faults as real stacks send them (default namespaces, soap:/S:/s:/SOAP-ENV:/env:/soap11env: prefixes, SOAP 1.1
 * and 1.2, with and without detail, HTTP 500 and 200): the envelope parser reads code, message, actor and detail,
 * and the generated partner client turns every one into a SoapFaultError with the detail decoded.
 */
function stubFetch(status: number, body: string): typeof fetch {
  return async () => new Response(body, { status, headers: { "content-type": "text/xml; charset=utf-8" } });
}

describe("faults as real SOAP stacks send them", () => {
  for (const f of STACK_FAULTS) {
    it(`parses: ${f.stack}`, () => {
      const fault = parseSoapEnvelope(f.body).fault;
      expect(fault).toBeDefined();
      expect(fault!.code).toEqual(f.code);
      expect(fault!.string).toBe(f.message);
      expect(fault!.actor).toBe(f.actor);
    });

    it(`the client raises SoapFaultError: ${f.stack}`, async () => {
      const client = createPartnerServiceClient({ endpoint: "http://127.0.0.1:9/soap", fetch: stubFetch(f.status, f.body) });
      const error = await client.logout({}).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(SoapFaultError);
      const fault = error as SoapFaultError<{ exceptionCode?: string }>;
      expect(fault.code).toEqual(f.code);
      expect(fault.message).toBe(f.message);
      expect(fault.actor).toBe(f.actor);
      expect(fault.status).toBe(f.status);
      if (f.exceptionCode !== undefined) {
        expect(fault.fault).toBe("ApiFault");
        expect(fault.detail?.exceptionCode).toBe(f.exceptionCode);
      } else {
        expect(fault.fault).toBeUndefined();
        expect(fault.detail).toBeUndefined();
      }
    });
  }

  it("a detail element the binding does not declare leaves code and message, no detail", async () => {
    const body = STACK_FAULTS[0]!.body.replace(/urn:fault\.api\.example/g, "urn:someone.else");
    const client = createPartnerServiceClient({ endpoint: "http://127.0.0.1:9/soap", fetch: stubFetch(500, body) });
    const error = (await client.logout({}).catch((e: unknown) => e)) as SoapFaultError;
    expect(error).toBeInstanceOf(SoapFaultError);
    expect([error.codeText, error.fault, error.detail]).toEqual(["{http://schemas.xmlsoap.org/soap/envelope/}Client", undefined, undefined]);
  });

  it("a fault without faultcode is a clear envelope error; HTML error pages stay HttpStatusError", async () => {
    const noCode = `<Envelope xmlns="http://schemas.xmlsoap.org/soap/envelope/"><Body><Fault><faultstring>x</faultstring></Fault></Body></Envelope>`;
    expect(() => parseSoapEnvelope(noCode)).toThrow(new SoapEnvelopeError("the Fault has no faultcode"));
    const ok = createPartnerServiceClient({ endpoint: "http://127.0.0.1:9/soap", fetch: stubFetch(200, noCode) });
    await expect(ok.logout({})).rejects.toThrow(SoapResponseError);
    const html = createPartnerServiceClient({ endpoint: "http://127.0.0.1:9/soap", fetch: stubFetch(502, "<html><body>Bad Gateway</body></html>") });
    await expect(html.logout({})).rejects.toThrow(HttpStatusError);
  });
});
