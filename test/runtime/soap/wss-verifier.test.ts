import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { memoryNonceCache, wsSecurity, wsSecurityVerifier, WsSecurityError, type WsSecurityFaultCode } from "../../../src/runtime/index.js";
import { makeTestKeys, type TestKeys } from "./wss-helpers.js";

/**
 * The verifier on hostile and unusual input, table-driven: each mutation of a validly signed message is refused with
 * the WS-Security fault code that names the problem, never a crash; plus the nonce cache's bound and the
 * certificate's validity period.
 */
let keys: TestKeys;
let signed: string;
beforeAll(async () => {
  keys = makeTestKeys();
  signed = await wsSecurity({ signature: { privateKey: keys.key, certificate: keys.cert } }).secureEnvelope({
    version: "1.1",
    headers: [],
    body: `<m:op xmlns:m="urn:m"><m:v>1</m:v></m:op>`,
  });
});
afterAll(() => keys.cleanup());

async function refusal(text: string, options = { signature: { trustedCertificates: [keys.cert] } } as Parameters<typeof wsSecurityVerifier>[0]): Promise<{ code: WsSecurityFaultCode; message: string }> {
  const error = await wsSecurityVerifier(options).verify(text).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(WsSecurityError);
  return { code: (error as WsSecurityError).code, message: (error as WsSecurityError).message };
}

const DS = "http://www.w3.org/2000/09/xmldsig#";

describe("wsSecurityVerifier refuses", () => {
  const cases: readonly [string, (s: string) => string, WsSecurityFaultCode, RegExp][] = [
    ["malformed XML", (s) => s.replace("</soapenv:Envelope>", ""), "InvalidSecurity", /malformed message/],
    ["a DOCTYPE (entity expansion)", (s) => s.replace('<?xml version="1.0" encoding="UTF-8"?>', '<!DOCTYPE x [<!ENTITY a "aaaa">]>'), "InvalidSecurity", /DOCTYPE/],
    ["a document that is not an envelope", () => "<a/>", "InvalidSecurity", /not a SOAP envelope/],
    ["two Bodies", (s) => s.replace("</soapenv:Envelope>", "<soapenv:Body/></soapenv:Envelope>"), "InvalidSecurity", /one Header and one Body/],
    ["two Security headers", (s) => s.replace("</soapenv:Header>", `<wsse:Security xmlns:wsse="http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-secext-1.0.xsd"/></soapenv:Header>`), "InvalidSecurity", /more than one wsse:Security/],
    ["another canonicalization", (s) => s.replace('<ds:CanonicalizationMethod Algorithm="http://www.w3.org/2001/10/xml-exc-c14n#">', '<ds:CanonicalizationMethod Algorithm="http://www.w3.org/TR/2001/REC-xml-c14n-20010315">'), "UnsupportedAlgorithm", /only exclusive c14n/],
    ["HMAC", (s) => s.replace("http://www.w3.org/2001/04/xmldsig-more#rsa-sha256", `${DS}hmac-sha1`), "UnsupportedAlgorithm", /unsupported signature method/],
    ["an XPath transform", (s) => s.replace('<ds:Transform Algorithm="http://www.w3.org/2001/10/xml-exc-c14n#"></ds:Transform>', `<ds:Transform Algorithm="http://www.w3.org/TR/1999/REC-xpath-19991116"></ds:Transform><ds:Transform Algorithm="http://www.w3.org/2001/10/xml-exc-c14n#"></ds:Transform>`), "UnsupportedAlgorithm", /unsupported transform/],
    ["a reference to the whole document", (s) => s.replace(/<ds:Reference URI="#TS-\w+">/, '<ds:Reference URI="">'), "UnsupportedAlgorithm", /only same-document references by Id/],
    ["an external reference", (s) => s.replace(/<ds:Reference URI="#TS-\w+">/, '<ds:Reference URI="http://attacker.invalid/x">'), "UnsupportedAlgorithm", /only same-document/],
    ["a reference to no element", (s) => s.replace(/<ds:Reference URI="#TS-\w+">/, '<ds:Reference URI="#nowhere">'), "InvalidSecurity", /names no element/],
    ["too many references", (s) => s.replace(/(<ds:Reference [\s\S]*?<\/ds:Reference>)/, (r) => r.repeat(40)), "InvalidSecurity", /more than 32 references/],
    ["a token reference outside the Security header", (s) => s.replace(/<wsse:Reference URI="#X509-\w+"/, `<wsse:Reference URI="#${/wsu:Id="(id-\w+)"/.exec(s)![1]}"`), "SecurityTokenUnavailable", /not a BinarySecurityToken/],
    ["a token that is not a certificate", (s) => s.replace(/(<wsse:BinarySecurityToken [^>]*>)[^<]+/, "$1AAAA"), "InvalidSecurityToken", /not an X.509 certificate/],
    ["a SignatureValue that is not base64", (s) => s.replace(/<ds:SignatureValue>[^<]+/, "<ds:SignatureValue>!!"), "InvalidSecurity", /not base64/],
  ];
  it.each(cases)("%s", async (_name, mutate, code, message) => {
    const mutated = mutate(signed);
    expect(mutated).not.toBe(signed);
    const r = await refusal(mutated);
    expect(r.code).toBe(code);
    expect(r.message).toMatch(message);
  });

  it("accepts the unchanged message, with its signed parts", async () => {
    await expect(wsSecurityVerifier({ signature: { trustedCertificates: [keys.cert] } }).verify(signed)).resolves.toMatchObject({ signedParts: ["Body", "Timestamp"] });
  });

  it("a certificate outside its validity period (the verifier's clock three days on)", async () => {
    const later = Date.now() + 3 * 86_400_000;
    const message = await wsSecurity({ signature: { privateKey: keys.key, certificate: keys.cert }, now: () => later }).secureEnvelope({ version: "1.1", headers: [], body: "<a/>" });
    expect(await refusal(message, { signature: { trustedCertificates: [keys.cert] }, now: () => later })).toMatchObject({ code: "InvalidSecurityToken" });
  });

  it("a certificate the trust callback rejects; accepted when it approves", async () => {
    const seen: number[] = [];
    const trust = (der: Uint8Array) => (seen.push(der.length), false);
    expect(await refusal(signed, { signature: { trust } })).toMatchObject({ code: "FailedAuthentication" });
    expect(seen).toHaveLength(1);
    await expect(wsSecurityVerifier({ signature: { trust: () => true } }).verify(signed)).resolves.toBeDefined();
  });
});

describe("memoryNonceCache", () => {
  it("refuses a nonce seen before until it expires, and refuses new ones when full of live nonces", () => {
    const cache = memoryNonceCache(2);
    expect(cache.add("a", 100, 0)).toBe(true);
    expect(cache.add("a", 100, 50)).toBe(false);
    expect(cache.add("b", 100, 50)).toBe(true);
    expect(cache.add("c", 100, 50)).toBe(false); // full of live nonces: never forget one to make room
    expect(cache.add("c", 300, 150)).toBe(true); // a and b expired at 100 and were dropped
    expect(cache.add("a", 300, 150)).toBe(true);
  });
});
