import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { nodeSpecHost } from "../../../src/parsers/host.js";
import { generateSpec } from "../../../src/pipeline/generate-files.js";
import { wsSecurity, wsSecurityVerifier, type SoapClientOptions, type SoapServerOptions } from "../../../src/runtime/index.js";
import { SHARED } from "../../helpers/seeds.js";
import { makeTestKeys, xmlsecVerify, type TestKeys } from "./wss-helpers.js";

/**
 * A CyberSource-shaped request: the client generated from the real CyberSourceTransaction 1.26 WSDL (shared corpus,
 * generated into a temp folder at test time), signed per CyberSource's published message-level security profile: an
 * X.509 BinarySecurityToken (X509v3, Base64Binary), a Signature over the Body by wsu:Id with exclusive c14n, SHA-256
 * digest and RSA-SHA256, KeyInfo a SecurityTokenReference to the token, the Security header mustUnderstand. xmlsec1
 * verifies it; the generated CyberSource server with a verifier accepts it.
 */
const WSDL = path.join(SHARED, "corpus/wsdl/cybersource/CyberSourceTransaction_1.26.wsdl");

interface CyberSourceModule {
  createTransactionProcessorClient(options: SoapClientOptions): {
    runTransaction(input: Record<string, unknown>): Promise<{ body: Record<string, unknown> }>;
  };
}
interface CyberSourceServerModule {
  createTransactionProcessorServer(handlers: Record<string, unknown>, options?: SoapServerOptions): (request: Request) => Promise<Response>;
}

let keys: TestKeys;
let root: string;
let client: CyberSourceModule;
let server: CyberSourceServerModule;

beforeAll(async () => {
  keys = makeTestKeys();
  const out = generateSpec({ file: WSDL, display: path.basename(WSDL) }, nodeSpecHost({}));
  root = mkdtempSync(path.join(tmpdir(), "specforge-cybersource-"));
  for (const file of out.files) {
    mkdirSync(path.dirname(path.join(root, file.path)), { recursive: true });
    writeFileSync(path.join(root, file.path), file.content);
  }
  client = (await import(path.join(root, out.dir, "client.ts"))) as CyberSourceModule;
  server = (await import(path.join(root, out.dir, "server.ts"))) as CyberSourceServerModule;
});
afterAll(() => {
  keys.cleanup();
  rmSync(root, { recursive: true, force: true });
});

const REQUEST = {
  merchantID: "specforge_test",
  merchantReferenceCode: "ref-0001",
  purchaseTotals: { currency: "USD", grandTotalAmount: "10.00" },
  card: { accountNumber: "4111111111111111", expirationMonth: 12n, expirationYear: 2031n },
  ccAuthService: { run: "true" },
};

describe("a CyberSource-shaped signed runTransaction", () => {
  it("is signed per the profile, verified by xmlsec1 and accepted by the generated CyberSource server", async () => {
    const sent: string[] = [];
    const seen: unknown[] = [];
    const handler = server.createTransactionProcessorServer(
      {
        runTransaction: (input: { merchantReferenceCode: string }, ctx: { security?: { signedParts: readonly string[] } }) => {
          seen.push([input.merchantReferenceCode, ctx.security?.signedParts]);
          return { merchantReferenceCode: input.merchantReferenceCode, requestID: "1", decision: "ACCEPT", reasonCode: 100n, requestToken: "t" };
        },
      },
      { security: wsSecurityVerifier({ signature: { trustedCertificates: [keys.cert], requiredParts: ["Body"] }, requireTimestamp: false }) },
    );
    const api = client.createTransactionProcessorClient({
      endpoint: "https://ics2wstest.ic3.com/commerce/1.x/transactionProcessor",
      fetch: async (input, init) => {
        sent.push(String(init?.body));
        return handler(new Request(input as string, init));
      },
      security: wsSecurity({ timestamp: false, signature: { privateKey: keys.key, certificate: keys.cert, algorithm: "rsa-sha256", digest: "sha256", parts: ["Body"] } }),
    });
    const answer = await api.runTransaction(REQUEST);
    expect(answer.body).toMatchObject({ decision: "ACCEPT", reasonCode: 100n });
    expect(seen).toEqual([["ref-0001", ["Body"]]]);

    const xml = sent[0]!;
    // The profile's pieces, in the message as sent.
    expect(xml).toMatch(/<wsse:Security [^>]*soapenv:mustUnderstand="1"/);
    expect(xml).toMatch(/<wsse:BinarySecurityToken EncodingType="[^"]+#Base64Binary" ValueType="[^"]+#X509v3" wsu:Id="(X509-\w+)">/);
    expect(xml).toContain('<ds:SignatureMethod Algorithm="http://www.w3.org/2001/04/xmldsig-more#rsa-sha256">');
    expect(xml).toContain('<ds:DigestMethod Algorithm="http://www.w3.org/2001/04/xmlenc#sha256">');
    expect(xml.match(/<ds:Reference URI="#([^"]+)"/g)).toHaveLength(1);
    const bodyId = /<soapenv:Body [^>]*wsu:Id="([^"]+)"/.exec(xml)![1];
    expect(xml).toContain(`<ds:Reference URI="#${bodyId}">`);
    const tokenId = /wsu:Id="(X509-\w+)"/.exec(xml)![1];
    expect(xml).toContain(`<wsse:SecurityTokenReference><wsse:Reference URI="#${tokenId}"`);
    expect(xml).toMatch(/<(\w+):merchantID>specforge_test<\/\1:merchantID>/);

    const checked = xmlsecVerify(keys, xml);
    expect(checked.output).toContain("SignedInfo References (ok/all): 1/1");
    expect(checked.ok).toBe(true);
    // The card number changed in flight: xmlsec1 and the server both refuse it.
    const tampered = xml.replace("4111111111111111", "4000000000000002");
    expect(xmlsecVerify(keys, tampered).ok).toBe(false);
    const refused = await handler(new Request("https://x/", { method: "POST", headers: { "content-type": "text/xml", soapaction: '"runTransaction"' }, body: tampered }));
    expect(await refused.text()).toContain("FailedCheck");
    expect(seen).toHaveLength(1);
  });
});
