import { describe, expect, it } from "vitest";
import { createPartnerServiceClient, encodeLoginResponseElement } from "../../../generated/partner/index.js";
import { buildSoapEnvelope, HttpStatusError, HttpTimeoutError, SoapResponseError } from "../../../src/runtime/index.js";

/** The generated client's transport behaviour, with an injected fetch (no network): what goes out, what comes back. */
const LOGIN_RESPONSE = buildSoapEnvelope({
  version: "1.1",
  headers: [],
  body: encodeLoginResponseElement({
    result: { metadataServerUrl: null, passwordExpired: false, sandbox: false, serverUrl: "http://b.invalid/s", sessionId: "S", userId: null },
  }),
});

interface Seen {
  url: string;
  headers: Headers;
  body: string;
}

function recordingFetch(seen: Seen[], respond: () => Response = () => new Response(LOGIN_RESPONSE, { headers: { "content-type": "text/xml" } })) {
  return async (input: string | URL | Request, init?: RequestInit) => {
    seen.push({ url: String(input), headers: new Headers(init?.headers), body: String(init?.body) });
    return respond();
  };
}

describe("generated SOAP client transport", () => {
  it("posts a SOAP 1.1 envelope with SOAPAction and switches endpoints", async () => {
    const seen: Seen[] = [];
    const client = createPartnerServiceClient({ endpoint: "http://a.invalid/s", fetch: recordingFetch(seen) });
    const { body } = await client.login({ username: "u", password: "p" }, { headers: { CallOptions: { client: "c", defaultNamespace: null } } });
    expect(body.result.serverUrl).toBe("http://b.invalid/s");
    client.setEndpoint(body.result.serverUrl!);
    expect(client.endpoint).toBe("http://b.invalid/s");
    await client.login({ username: "u", password: "p" });
    expect(seen.map((s) => s.url)).toEqual(["http://a.invalid/s", "http://b.invalid/s"]);
    expect(seen[0]!.headers.get("soapaction")).toBe('""');
    expect(seen[0]!.headers.get("content-type")).toMatch(/^text\/xml/);
    expect(seen[0]!.body).toContain("<soapenv:Header>");
    expect(seen[0]!.body).toMatch(/CallOptions/);
    expect(seen[1]!.body).not.toContain("Header");
  });

  it("uses the SOAP 1.2 content type (with the action) when asked", async () => {
    const seen: Seen[] = [];
    const reply = () => new Response(LOGIN_RESPONSE.replace("http://schemas.xmlsoap.org/soap/envelope/", "http://www.w3.org/2003/05/soap-envelope"));
    const client = createPartnerServiceClient({ endpoint: "http://a.invalid/", soapVersion: "1.2", fetch: recordingFetch(seen, reply) });
    await client.login({ username: "u", password: "p" });
    expect(seen[0]!.headers.get("content-type")).toBe('application/soap+xml; charset=utf-8; action=""');
    expect(seen[0]!.headers.get("soapaction")).toBeNull();
    expect(seen[0]!.body).toContain("http://www.w3.org/2003/05/soap-envelope");
  });

  it("times out with HttpTimeoutError and aborts with the caller's reason", async () => {
    const hanging = (_input: string | URL | Request, init?: RequestInit) =>
      new Promise<Response>((_resolve, reject) => init?.signal?.addEventListener("abort", () => reject(init.signal!.reason)));
    const client = createPartnerServiceClient({ endpoint: "http://a.invalid/", fetch: hanging, timeoutMs: 20 });
    await expect(client.login({ username: "u", password: "p" })).rejects.toBeInstanceOf(HttpTimeoutError);
    const controller = new AbortController();
    const call = client.login({ username: "u", password: "p" }, { signal: controller.signal, timeoutMs: 60_000 });
    controller.abort(new Error("user cancelled"));
    await expect(call).rejects.toThrow("user cancelled");
  });

  it("reports non-SOAP error answers and unexpected body elements", async () => {
    const html = createPartnerServiceClient({ endpoint: "http://a.invalid/", fetch: async () => new Response("<html>bad gateway</html>", { status: 502 }) });
    await expect(html.login({ username: "u", password: "p" })).rejects.toBeInstanceOf(HttpStatusError);
    const wrong = createPartnerServiceClient({
      endpoint: "http://a.invalid/",
      fetch: async () => new Response(buildSoapEnvelope({ version: "1.1", headers: [], body: "<x:other xmlns:x='urn:x'/>" })),
    });
    await expect(wrong.login({ username: "u", password: "p" })).rejects.toBeInstanceOf(SoapResponseError);
    expect(() => createPartnerServiceClient({ endpoint: "not a url" })).toThrow();
  });
});
