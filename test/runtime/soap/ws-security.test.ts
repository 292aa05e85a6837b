import { SignedXml } from "xml-crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPartnerServiceClient, createPartnerServiceServer } from "../../../generated/partner/index.js";
import {
  SoapFaultError, wsSecurity, wsSecurityVerifier, WSSE_NS, type Interceptor, type WsSecurityOptions, type WsSecurityResult,
  type WsSecurityVerifierOptions,
} from "../../../src/runtime/index.js";
import { certBase64, makeTestKeys, xmlsecSign, xmlsecVerify, type TestKeys } from "./wss-helpers.js";

/**
 * WS-Security end to end between the generated partner client and server (in process, through their fetch and
 * handler), with xmlsec1 and xml-crypto as independent verifiers of what we sign and xmlsec1 as an independent
 * signer of what we verify; then every tampering the issue lists, each refused before any handler runs.
 */
let keys: TestKeys;
beforeAll(() => {
  keys = makeTestKeys();
});
afterAll(() => keys.cleanup());

const USERS: Record<string, string> = { alice: "wonder land", bob: "b0b&<secret>" };
const password = (u: string) => USERS[u];

/** A partner server with `security`, the security results its handler saw, and a client wired to it. */
function setup(verifier: WsSecurityVerifierOptions, client: WsSecurityOptions | undefined, extra: { interceptors?: Interceptor[] } = {}) {
  const seen: (WsSecurityResult | undefined)[] = [];
  const handler = createPartnerServiceServer(
    {
      getServerTimestamp: (_input, ctx) => {
        seen.push(ctx.security);
        return { result: { timestamp: "2024-05-06T07:08:09.000Z" } };
      },
    },
    { security: wsSecurityVerifier(verifier) },
  );
  const sent: string[] = [];
  const capture: Interceptor = (next) => async (request) => {
    sent.push(await request.clone().text());
    return next(request);
  };
  const api = createPartnerServiceClient({
    endpoint: "http://127.0.0.1:1/services/Soap/u/17.0",
    fetch: (input, init) => handler(new Request(input as string, init)),
    interceptors: [capture, ...(extra.interceptors ?? [])],
    ...(client !== undefined ? { security: wsSecurity(client) } : {}),
  });
  /** Post a raw envelope to the server; the fault (code local name and message), or "ok". */
  const post = async (text: string): Promise<{ status: number; code: string; message: string }> => {
    const response = await handler(new Request("http://127.0.0.1/services/Soap/u/17.0", { method: "POST", headers: { "content-type": "text/xml", soapaction: '""' }, body: text }));
    const body = await response.text();
    const code = /<faultcode[^>]*>(?:[\w-]+:)?([^<]*)<\/faultcode>/.exec(body)?.[1] ?? "ok";
    const message = (/<faultstring>([^<]*)<\/faultstring>/.exec(body)?.[1] ?? "").replace(/&apos;/g, "'").replace(/&quot;/g, '"').replace(/&amp;/g, "&");
    return { status: response.status, code, message };
  };
  return { api, seen, sent, post, handler };
}

async function faultOf(call: Promise<unknown>): Promise<SoapFaultError> {
  const error = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(SoapFaultError);
  return error as SoapFaultError;
}

describe("UsernameToken and Timestamp, our client and our server", () => {
  it("accepts PasswordText and PasswordDigest and tells the handler who called", async () => {
    for (const passwordType of ["text", "digest"] as const) {
      const { api, seen, sent } = setup({ usernameToken: { password } }, { usernameToken: { username: "bob", password: USERS.bob!, passwordType } });
      const answer = await api.getServerTimestamp({});
      expect(answer.body.result.timestamp).toBe("2024-05-06T07:08:09.000Z");
      expect(seen).toEqual([{ username: "bob", signedParts: [] }]);
      expect(sent[0]).toContain(passwordType === "digest" ? "#PasswordDigest" : "#PasswordText");
      expect(sent[0]).toContain("<wsu:Timestamp");
      if (passwordType === "digest") expect(sent[0]).not.toContain("b0b");
    }
  });

  it("refuses a wrong password, an unknown user and PasswordText where a digest is demanded", async () => {
    const wrong = setup({ usernameToken: { password } }, { usernameToken: { username: "alice", password: "guess", passwordType: "digest" } });
    const f1 = await faultOf(wrong.api.getServerTimestamp({}));
    expect(f1.code).toEqual({ ns: WSSE_NS, local: "FailedAuthentication" });
    expect(wrong.seen).toEqual([]);
    const unknown = setup({ usernameToken: { password } }, { usernameToken: { username: "mallory", password: "x" } });
    expect((await faultOf(unknown.api.getServerTimestamp({}))).code).toEqual({ ns: WSSE_NS, local: "FailedAuthentication" });
    const text = setup({ usernameToken: { password, allowPasswordText: false } }, { usernameToken: { username: "alice", password: USERS.alice! } });
    expect((await faultOf(text.api.getServerTimestamp({}))).code).toEqual({ ns: WSSE_NS, local: "UnsupportedSecurityToken" });
  });

  it("refuses a replayed nonce (the same message sent twice)", async () => {
    const { api, sent, post, seen } = setup({ usernameToken: { password } }, { usernameToken: { username: "alice", password: USERS.alice!, passwordType: "digest" } });
    await api.getServerTimestamp({});
    expect(seen).toHaveLength(1);
    const replay = await post(sent[0]!);
    expect(replay).toMatchObject({ status: 500, code: "FailedAuthentication" });
    expect(replay.message).toMatch(/nonce was used before/);
    expect(seen).toHaveLength(1);
    // A fresh call (new nonce) still passes.
    await api.getServerTimestamp({});
    expect(seen).toHaveLength(2);
  });

  it("refuses an expired Timestamp, one from the future, and a UsernameToken too old", async () => {
    const hourAgo = () => Date.now() - 3_600_000;
    const expired = setup({ usernameToken: { password } }, { usernameToken: { username: "alice", password: USERS.alice! }, now: hourAgo });
    const f = await faultOf(expired.api.getServerTimestamp({}));
    expect(f.code).toEqual({ ns: WSSE_NS, local: "MessageExpired" });
    expect(f.message).toMatch(/Timestamp has expired/);
    const future = setup({ usernameToken: { password } }, { usernameToken: { username: "alice", password: USERS.alice! }, now: () => Date.now() + 3_600_000 });
    expect((await faultOf(future.api.getServerTimestamp({}))).message).toMatch(/created in the future/);
    // A long-lived Timestamp does not make an old UsernameToken acceptable.
    const old = setup(
      { usernameToken: { password } },
      { usernameToken: { username: "alice", password: USERS.alice!, passwordType: "digest" }, timestamp: { ttlSeconds: 7200 }, now: hourAgo },
    );
    expect((await faultOf(old.api.getServerTimestamp({}))).message).toMatch(/UsernameToken is too old/);
    // Within the skew: a client clock two minutes behind is fine.
    const skewed = setup({ usernameToken: { password } }, { usernameToken: { username: "alice", password: USERS.alice! }, now: () => Date.now() + 120_000 });
    await expect(skewed.api.getServerTimestamp({})).resolves.toBeDefined();
  });

  it("refuses a message without a Security header; a server without security refuses one that must be understood", async () => {
    const none = setup({ usernameToken: { password } }, undefined);
    expect((await faultOf(none.api.getServerTimestamp({}))).code).toEqual({ ns: WSSE_NS, local: "InvalidSecurity" });
    const plain = createPartnerServiceServer({ getServerTimestamp: () => ({ result: { timestamp: "2024-05-06T07:08:09.000Z" } }) });
    const api = createPartnerServiceClient({
      endpoint: "http://127.0.0.1:1/x",
      fetch: (input, init) => plain(new Request(input as string, init)),
      security: wsSecurity({ usernameToken: { username: "alice", password: "x" } }),
    });
    expect((await faultOf(api.getServerTimestamp({}))).code).toEqual({ ns: "http://schemas.xmlsoap.org/soap/envelope/", local: "MustUnderstand" });
  });

  it("answers SOAP 1.2 requests with the security code as a Sender subcode", async () => {
    const versioned = createPartnerServiceClient({
      endpoint: "http://127.0.0.1:1/x",
      soapVersion: "1.2",
      fetch: (input, init) => setup({ usernameToken: { password } }, undefined).handler(new Request(input as string, init)),
      security: wsSecurity({ usernameToken: { username: "alice", password: "nope" } }),
    });
    const f = await faultOf(versioned.getServerTimestamp({}));
    expect(f.code).toEqual({ ns: WSSE_NS, local: "FailedAuthentication" });
    expect(f.status).toBe(400);
  });
});

const signing = (k: TestKeys, extra: Partial<NonNullable<WsSecurityOptions["signature"]>> = {}): WsSecurityOptions => ({
  signature: { privateKey: k.key, certificate: k.cert, ...extra },
});
const trusting = (k: TestKeys, extra: Partial<NonNullable<WsSecurityVerifierOptions["signature"]>> = {}): WsSecurityVerifierOptions => ({
  signature: { trustedCertificates: [k.cert], ...extra },
});

/** xml-crypto (the second oracle) checks the signature of a WS-Security message with the given certificate. */
function xmlCryptoVerify(xml: string, cert: string): boolean {
  const signature = /<ds:Signature[\s\S]*<\/ds:Signature>/.exec(xml)![0];
  const verifier = new SignedXml({ publicCert: cert, getCertFromKeyInfo: () => null });
  verifier.loadSignature(signature);
  return verifier.checkSignature(xml);
}

describe("X.509 signatures", () => {
  it("signs Body and Timestamp so that xmlsec1, xml-crypto and our server accept them (RSA-SHA256, RSA-SHA1; SOAP 1.1, 1.2)", async () => {
    const cases = [
      { version: "1.1" as const, algorithm: "rsa-sha256" as const, digest: "sha256" as const },
      { version: "1.2" as const, algorithm: "rsa-sha256" as const, digest: "sha256" as const },
      { version: "1.1" as const, algorithm: "rsa-sha1" as const, digest: "sha1" as const },
    ];
    for (const c of cases) {
      const { api, sent, seen } = setup(trusting(keys, { allowSha1: c.algorithm === "rsa-sha1" }), signing(keys, { algorithm: c.algorithm, digest: c.digest }));
      const client = c.version === "1.1" ? api : createPartnerServiceClient({
        endpoint: "http://127.0.0.1:1/x",
        soapVersion: "1.2",
        fetch: async (input, init) => {
          sent.push(String(init?.body));
          return setup(trusting(keys), undefined).handler(new Request(input as string, init));
        },
        security: wsSecurity(signing(keys)),
      });
      await client.getServerTimestamp({});
      const xml = sent[0]!;
      expect(xml).toContain(c.algorithm === "rsa-sha1" ? "xmldsig#rsa-sha1" : "xmldsig-more#rsa-sha256");
      const checked = xmlsecVerify(keys, xml);
      expect(checked.output).toContain("SignedInfo References (ok/all): 2/2");
      expect(checked.ok).toBe(true);
      expect(xmlCryptoVerify(xml, keys.cert)).toBe(true);
      // The other certificate's key does not verify it (xmlsec1 is really checking).
      expect(xmlsecVerify(keys, xml, keys.otherCertFile).ok).toBe(false);
      if (c.version === "1.1") expect(seen[0]).toMatchObject({ signedParts: ["Body", "Timestamp"] });
    }
  });

  it("refuses SHA-1 unless allowed", async () => {
    const { api } = setup(trusting(keys), signing(keys, { algorithm: "rsa-sha1", digest: "sha1" }));
    expect((await faultOf(api.getServerTimestamp({}))).code).toEqual({ ns: WSSE_NS, local: "UnsupportedAlgorithm" });
  });

  it("signs and verifies together with a UsernameToken (signed too when asked)", async () => {
    const { api, seen, sent } = setup(
      { ...trusting(keys, { requiredParts: ["Body", "Timestamp", "UsernameToken"] }), usernameToken: { password } },
      { ...signing(keys, { parts: ["Body", "Timestamp", "UsernameToken"] }), usernameToken: { username: "alice", password: USERS.alice!, passwordType: "digest" } },
    );
    await api.getServerTimestamp({});
    expect(seen[0]).toMatchObject({ username: "alice", signedParts: ["Body", "Timestamp", "UsernameToken"] });
    expect(xmlCryptoVerify(sent[0]!, keys.cert)).toBe(true);
  });

  it("verifies what xmlsec1 signed (KeyInfo with the X509Certificate)", async () => {
    const now = Date.now();
    const template =
      `<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Header>` +
      `<wsse:Security xmlns:wsse="${WSSE_NS}" xmlns:wsu="http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-utility-1.0.xsd" soap:mustUnderstand="1">` +
      `<wsu:Timestamp wsu:Id="TS-1"><wsu:Created>${new Date(now).toISOString()}</wsu:Created><wsu:Expires>${new Date(now + 300_000).toISOString()}</wsu:Expires></wsu:Timestamp>` +
      `<ds:Signature xmlns:ds="http://www.w3.org/2000/09/xmldsig#"><ds:SignedInfo><ds:CanonicalizationMethod Algorithm="http://www.w3.org/2001/10/xml-exc-c14n#"/>` +
      `<ds:SignatureMethod Algorithm="http://www.w3.org/2001/04/xmldsig-more#rsa-sha256"/>` +
      ["#TS-1", "#Body-1"]
        .map(
          (uri) =>
            `<ds:Reference URI="${uri}"><ds:Transforms><ds:Transform Algorithm="http://www.w3.org/2001/10/xml-exc-c14n#"><ec:InclusiveNamespaces xmlns:ec="http://www.w3.org/2001/10/xml-exc-c14n#" PrefixList="soap"/></ds:Transform></ds:Transforms>` +
            `<ds:DigestMethod Algorithm="http://www.w3.org/2001/04/xmlenc#sha256"/><ds:DigestValue/></ds:Reference>`,
        )
        .join("") +
      `</ds:SignedInfo><ds:SignatureValue/><ds:KeyInfo><ds:X509Data><ds:X509Certificate/></ds:X509Data></ds:KeyInfo></ds:Signature></wsse:Security></soap:Header>` +
      `<soap:Body xmlns:wsu="http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-utility-1.0.xsd" wsu:Id="Body-1">\n  <p:getServerTimestamp xmlns:p="urn:partner.api.example" xmlns:unused="urn:unused"><!-- a comment --></p:getServerTimestamp>\n</soap:Body></soap:Envelope>`;
    const signed = xmlsecSign(keys, template);
    expect(signed).toContain("<ds:X509Certificate>");
    const { post, seen } = setup(trusting(keys), undefined);
    expect(await post(signed)).toMatchObject({ code: "ok", status: 200 });
    expect(seen[0]).toMatchObject({ signedParts: ["Body", "Timestamp"] });
    // Not trusted: the same message checked by a server that trusts only the other certificate.
    expect(await setup(trusting({ ...keys, cert: keys.otherCert }), undefined).post(signed)).toMatchObject({ code: "FailedAuthentication" });
  });

  describe("tampering: each refused before the handler runs", () => {
    /** A message our client signed, captured without being delivered. */
    async function signedMessage(options: WsSecurityOptions = signing(keys)): Promise<string> {
      const sent: string[] = [];
      const api = createPartnerServiceClient({
        endpoint: "http://127.0.0.1:1/x",
        fetch: async (_input, init) => {
          sent.push(String(init?.body));
          return new Response("not delivered", { status: 503 });
        },
        security: wsSecurity(options),
      });
      await api.getServerTimestamp({}).catch(() => undefined);
      return sent[0]!;
    }

    it("accepts the untouched message (the baseline the refusals are measured against)", async () => {
      const { post, seen } = setup(trusting(keys), undefined);
      expect(await post(await signedMessage())).toMatchObject({ code: "ok" });
      expect(seen).toHaveLength(1);
    });

    it("a changed Body", async () => {
      const original = await signedMessage();
      const msg = original.replace(/(<soapenv:Body[^>]*>)/, '$1<ns9:transfer xmlns:ns9="urn:attacker">1000000</ns9:transfer>');
      expect(msg).not.toBe(original);
      const { post, seen } = setup(trusting(keys), undefined);
      const r = await post(msg);
      expect(r).toMatchObject({ code: "FailedCheck" });
      expect(r.message).toMatch(/digest of #id-\w+ does not match/);
      expect(seen).toHaveLength(0);
      expect(xmlsecVerify(keys, msg).ok).toBe(false);
    });

    it("a changed Timestamp", async () => {
      const msg = (await signedMessage()).replace(/<wsu:Expires>[^<]*<\/wsu:Expires>/, `<wsu:Expires>${new Date(Date.now() + 86_400_000).toISOString()}</wsu:Expires>`);
      const { post, seen } = setup(trusting(keys), undefined);
      const r = await post(msg);
      expect(r).toMatchObject({ code: "FailedCheck" });
      expect(r.message).toMatch(/digest of #TS-\w+ does not match/);
      expect(seen).toHaveLength(0);
    });

    it("an expired Timestamp (validly signed)", async () => {
      const msg = await signedMessage({ ...signing(keys), now: () => Date.now() - 3_600_000 });
      expect(xmlsecVerify(keys, msg).ok).toBe(true);
      const { post, seen } = setup(trusting(keys), undefined);
      expect(await post(msg)).toMatchObject({ code: "MessageExpired" });
      expect(seen).toHaveLength(0);
    });

    it("a replayed nonce in a signed message", async () => {
      const msg = await signedMessage({ ...signing(keys), usernameToken: { username: "alice", password: USERS.alice!, passwordType: "digest" } });
      const { post, seen } = setup({ ...trusting(keys), usernameToken: { password } }, undefined);
      expect(await post(msg)).toMatchObject({ code: "ok" });
      expect(await post(msg)).toMatchObject({ code: "FailedAuthentication" });
      expect(seen).toHaveLength(1);
    });

    it("a wrong certificate: signed by an untrusted key, or a trusted certificate swapped in", async () => {
      const untrusted = await signedMessage(signing({ ...keys, key: keys.otherKey, cert: keys.otherCert }));
      const { post, seen } = setup(trusting(keys), undefined);
      expect(await post(untrusted)).toMatchObject({ code: "FailedAuthentication", message: "the signing certificate is not trusted" });
      const swapped = untrusted.replace(certBase64(keys.otherCert), certBase64(keys.cert));
      expect(swapped).not.toBe(untrusted);
      expect(await post(swapped)).toMatchObject({ code: "FailedCheck", message: "the signature value does not verify" });
      expect(seen).toHaveLength(0);
    });

    it("a changed SignedInfo (a digest value replaced)", async () => {
      const msg = await signedMessage();
      const body = msg.slice(msg.indexOf("<soapenv:Body"));
      const evil = body.replace(/<ns1:getServerTimestamp[^>]*\/?>(<\/ns1:getServerTimestamp>)?/, '<ns1:login xmlns:ns1="urn:partner.api.example"><ns1:username>x</ns1:username><ns1:password>y</ns1:password></ns1:login>');
      const { digest } = await import("../../../src/runtime/soap/wss/crypto.js");
      const { parseDom } = await import("../../../src/runtime/soap/wss/dom.js");
      const { excC14n } = await import("../../../src/runtime/soap/wss/c14n.js");
      const evilDigest = Buffer.from(await digest("sha256", excC14n(parseDom(msg.slice(0, msg.indexOf("<soapenv:Body")) + evil).children.at(-1) as never))).toString("base64");
      const bodyId = /wsu:Id="(id-\w+)"/.exec(body)![1];
      const msg2 = (msg.slice(0, msg.indexOf("<soapenv:Body")) + evil).replace(new RegExp(`(URI="#${bodyId}">[\\s\\S]*?<ds:DigestValue>)[^<]*`), `$1${evilDigest}`);
      const { post, seen } = setup(trusting(keys), undefined);
      expect(await post(msg2)).toMatchObject({ code: "FailedCheck", message: "the signature value does not verify" });
      expect(seen).toHaveLength(0);
    });

    it("signature wrapping: the signed Body moved under a header and another Body put in its place", async () => {
      const msg = await signedMessage();
      const start = msg.indexOf("<soapenv:Body");
      const end = msg.indexOf("</soapenv:Body>") + "</soapenv:Body>".length;
      const signedBody = msg.slice(start, end);
      const evilBody = `<soapenv:Body><ns1:getServerTimestamp xmlns:ns1="urn:partner.api.example"/></soapenv:Body>`;
      const wrapper = `<w:Wrapper xmlns:w="urn:attacker">${signedBody}</w:Wrapper>`;
      const wrapped = msg.slice(0, start).replace("</soapenv:Header>", `${wrapper}</soapenv:Header>`) + evilBody + msg.slice(end);
      const { post, seen } = setup(trusting(keys), undefined);
      // The references still resolve and every digest still matches: only where the signed Body now sits is wrong.
      const r = await post(wrapped);
      expect(r).toMatchObject({ code: "FailedCheck", message: "the signature does not cover the message's Body" });
      // The same attack with the new Body claiming the signed Body's Id.
      const id = /wsu:Id="(id-\w+)"/.exec(signedBody)![1]!;
      const sameId = wrapped.replace(evilBody, evilBody.replace("<soapenv:Body>", `<soapenv:Body xmlns:wsu="http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-utility-1.0.xsd" wsu:Id="${id}">`));
      expect(await post(sameId)).toMatchObject({ code: "InvalidSecurity", message: `the Id "${id}" occurs more than once` });
      expect(seen).toHaveLength(0);
      // Without the verifier, the plain server would have processed the wrapped message.
      const plain = createPartnerServiceServer({ getServerTimestamp: () => ({ result: { timestamp: "2024-05-06T07:08:09.000Z" } }) });
      const plainAnswer = await plain(new Request("http://127.0.0.1/x", { method: "POST", headers: { "content-type": "text/xml" }, body: wrapped.replace('soapenv:mustUnderstand="1"', "") }));
      expect(plainAnswer.status).toBe(200);
    });

    it("a Timestamp left out of the signature, and a signature removed", async () => {
      const bodyOnly = await signedMessage(signing(keys, { parts: ["Body"] }));
      const { post } = setup(trusting(keys), undefined);
      expect(await post(bodyOnly)).toMatchObject({ code: "FailedCheck", message: "the signature does not cover the message's Timestamp" });
      const msg = await signedMessage();
      const stripped = msg.replace(/<ds:Signature[\s\S]*<\/ds:Signature>/, "");
      expect(await post(stripped)).toMatchObject({ code: "InvalidSecurity", message: "missing ds:Signature" });
    });
  });
});
