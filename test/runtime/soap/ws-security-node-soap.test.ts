import { readFileSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import soap from "soap";
import { SignedXml } from "xml-crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPartnerServiceClient, createPartnerServiceServer } from "../../../generated/partner/index.js";
import { serveNode, type NodeServerHandle } from "../../../src/runtime/http/node.js";
import { HttpStatusError, wsSecurity, wsSecurityVerifier, type WsSecurityResult } from "../../../src/runtime/index.js";
import { makeTestKeys, type TestKeys } from "./wss-helpers.js";

/**
 * WS-Security against node-soap, both ways, over loopback HTTP: node-soap's WSSecurity (UsernameToken, text and
 * digest) and WSSecurityCert (X.509 signature by xml-crypto) clients calling a generated server with a verifier; and
 * the generated client with wsSecurity calling node-soap's server, whose authenticate hook checks the digest with
 * node-soap's own passwordDigest and the signature with xml-crypto (what node-soap signs with).
 */
const WSDL_FILE = path.resolve(import.meta.dirname, "../../../specs/partner.wsdl");
const WSDL = readFileSync(WSDL_FILE, "utf8");
const PATH = "/services/Soap/u/17.0";
const USERS: Record<string, string> = { alice: "wonder land", bob: "b0b&<secret>" };
const TIMESTAMP = "2024-05-06T07:08:09.000Z";

let keys: TestKeys;
beforeAll(() => {
  keys = makeTestKeys();
});
afterAll(() => keys.cleanup());

/** node-soap rejects with an error whose `root` is the parsed fault envelope. */
async function nodeSoapFault(call: Promise<unknown>): Promise<{ faultcode: string; faultstring: string }> {
  const error = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  const fault = (error as { root?: { Envelope?: { Body?: { Fault?: unknown } } } } | undefined)?.root?.Envelope?.Body?.Fault;
  if (fault === undefined) throw new Error(`expected a fault, got ${String(error)}`);
  return fault as never;
}

describe("node-soap clients against a generated server with a verifier", () => {
  let server: NodeServerHandle;
  const seen: (WsSecurityResult | undefined)[] = [];
  const start = async (verifier: Parameters<typeof wsSecurityVerifier>[0]) => {
    seen.length = 0;
    await server?.close();
    const handler = createPartnerServiceServer(
      {
        getServerTimestamp: (_input, ctx) => {
          seen.push(ctx.security);
          return { result: { timestamp: TIMESTAMP } };
        },
      },
      { security: wsSecurityVerifier(verifier) },
    );
    server = await serveNode(handler);
    return soap.createClientAsync(WSDL_FILE, { endpoint: `${server.url}${PATH}` });
  };
  afterAll(() => server?.close());

  it("WSSecurity PasswordDigest and PasswordText", async () => {
    const client = await start({ usernameToken: { password: (u) => USERS[u] } });
    for (const passwordType of ["PasswordDigest", "PasswordText"]) {
      client.setSecurity(new soap.WSSecurity("bob", USERS.bob!, { passwordType, hasNonce: true }));
      const [answer] = await client.getServerTimestampAsync({});
      expect(new Date(answer.result.timestamp).toISOString()).toBe(TIMESTAMP);
    }
    expect(seen).toEqual([
      { username: "bob", signedParts: [] },
      { username: "bob", signedParts: [] },
    ]);
  });

  it("WSSecurity with a wrong password is refused with wsse:FailedAuthentication", async () => {
    const client = await start({ usernameToken: { password: (u) => USERS[u] } });
    client.setSecurity(new soap.WSSecurity("alice", "not it", { passwordType: "PasswordDigest" }));
    const fault = await nodeSoapFault(client.getServerTimestampAsync({}));
    expect(fault.faultcode).toMatch(/^\w+:FailedAuthentication$/);
    expect(seen).toEqual([]);
  });

  it("WSSecurityCert: RSA-SHA256 over Body and Timestamp, verified; an untrusted key refused", async () => {
    const client = await start({ signature: { trustedCertificates: [keys.cert] } });
    client.setSecurity(new soap.WSSecurityCert(keys.key, keys.cert, "", { signatureAlgorithm: "http://www.w3.org/2001/04/xmldsig-more#rsa-sha256" }));
    const [answer] = await client.getServerTimestampAsync({});
    expect(new Date(answer.result.timestamp).toISOString()).toBe(TIMESTAMP);
    expect(seen).toHaveLength(1);
    expect(seen[0]!.signedParts).toEqual(["Body", "Timestamp"]);
    expect(Buffer.from(seen[0]!.certificate!).toString("base64")).toBe(keys.cert.replace(/-----[A-Z ]+-----|\s/g, ""));

    client.setSecurity(new soap.WSSecurityCert(keys.otherKey, keys.otherCert, ""));
    const fault = await nodeSoapFault(client.getServerTimestampAsync({}));
    expect(fault.faultcode).toMatch(/:FailedAuthentication$/);
    expect(seen).toHaveLength(1);
  });
});

describe("the generated client against node-soap's server", () => {
  let server: http.Server;
  let url: string;
  const raw = new WeakMap<http.IncomingMessage, Promise<string>>();
  let authenticate: (security: unknown, req: http.IncomingMessage) => Promise<boolean>;
  const calls: unknown[] = [];

  beforeAll(async () => {
    server = http.createServer();
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const service = {
      PartnerService: {
        Soap: {
          getServerTimestamp() {
            calls.push(1);
            return { result: { timestamp: TIMESTAMP } };
          },
        },
      },
    };
    let listener!: soap.Server;
    await new Promise<void>((resolve) => {
      listener = soap.listen(server, { path: PATH, services: service, xml: WSDL, callback: () => resolve() });
    });
    listener.authenticate = (security: unknown, _cb: unknown, req: unknown) => authenticate(security, req as http.IncomingMessage);
    // node-soap has taken over the server's request listeners: put one in front that reads each request's raw text
    // (for the signature check) and hands it to node-soap as `req.body`, which node-soap reads instead of the stream.
    const soapListeners = server.listeners("request") as ((req: http.IncomingMessage, res: http.ServerResponse) => void)[];
    server.removeAllListeners("request");
    server.on("request", (req: http.IncomingMessage, res: http.ServerResponse) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      const text = new Promise<string>((resolve) =>
        req.on("end", () => {
          (req as { body?: Buffer }).body = Buffer.concat(chunks);
          resolve(Buffer.concat(chunks).toString("utf8"));
          for (const l of soapListeners) l.call(server, req, res);
        }),
      );
      raw.set(req, text);
    });
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}${PATH}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  type NodeSoapUsernameToken = {
    Username: string;
    Password: { $value: string; attributes: { Type: string } };
    Nonce?: { $value: string };
    Created?: string;
  };

  /** node-soap's own digest check of the UsernameToken it parsed. */
  const checkDigest = async (security: unknown) => {
    const ut = (security as { UsernameToken?: NodeSoapUsernameToken } | undefined)?.UsernameToken;
    if (ut === undefined) return false;
    const expected = USERS[ut.Username];
    if (expected === undefined) return false;
    if (ut.Password.attributes.Type.endsWith("#PasswordDigest")) return soap.passwordDigest(ut.Nonce!.$value, ut.Created!, expected) === ut.Password.$value;
    return ut.Password.$value === expected;
  };

  it("UsernameToken PasswordDigest and PasswordText are accepted by node-soap's digest check; a wrong one refused", async () => {
    authenticate = checkDigest;
    calls.length = 0;
    for (const passwordType of ["digest", "text"] as const) {
      const api = createPartnerServiceClient({ endpoint: url, security: wsSecurity({ usernameToken: { username: "bob", password: USERS.bob!, passwordType } }) });
      expect((await api.getServerTimestamp({})).body.result.timestamp).toBe(TIMESTAMP);
    }
    expect(calls).toHaveLength(2);
    const wrong = createPartnerServiceClient({ endpoint: url, security: wsSecurity({ usernameToken: { username: "bob", password: "guess", passwordType: "digest" } }) });
    // node-soap answers a failed authenticate with HTTP 401 (and a fault written in SOAP 1.2's shape in a 1.1 envelope).
    const error = await wrong.getServerTimestamp({}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HttpStatusError);
    expect((error as HttpStatusError).status).toBe(401);
    expect(calls).toHaveLength(2);
  });

  it("an X.509-signed request verifies with xml-crypto on node-soap's side (Body and Timestamp referenced)", async () => {
    const verified: string[][] = [];
    authenticate = async (_security, req) => {
      const xml = await raw.get(req)!;

      const signature = /<ds:Signature[\s\S]*<\/ds:Signature>/.exec(xml)?.[0];
      if (signature === undefined) return false;
      const verifier = new SignedXml({ publicCert: keys.cert, getCertFromKeyInfo: () => null });
      verifier.loadSignature(signature);
      // xml-crypto throws on a signature that does not verify (and answers false on some problems).
      const ok = (() => {
        try {
          return verifier.checkSignature(xml);
        } catch {
          return false;
        }
      })();
      if (!ok) return false;
      verified.push(verifier.getSignedReferences().map((r) => /^<(\w+:\w+)/.exec(r)?.[1] ?? r));
      return true;
    };
    calls.length = 0;
    const api = createPartnerServiceClient({ endpoint: url, security: wsSecurity({ signature: { privateKey: keys.key, certificate: keys.cert } }) });
    expect((await api.getServerTimestamp({})).body.result.timestamp).toBe(TIMESTAMP);
    expect(verified).toEqual([["wsu:Timestamp", "soapenv:Body"]]);
    // Signed by a key the node-soap side does not hold the certificate of: refused there too.
    const other = createPartnerServiceClient({ endpoint: url, security: wsSecurity({ signature: { privateKey: keys.otherKey, certificate: keys.otherCert } }) });
    expect(await other.getServerTimestamp({}).catch((e: unknown) => e)).toMatchObject({ status: 401 });
    expect(calls).toHaveLength(1);
  });
});
