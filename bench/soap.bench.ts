import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { XMLBuilder, XMLParser } from "fast-xml-parser";
import soap from "soap";
// The runtime the generated code imports (dist/, built by `npm run bench`): one copy of it, as in an application.
import {
  buildSoapEnvelope, readSoapResponse, SOAP11_NS, wsSecurity, wsSecurityVerifier, type SoapClientBinding, type SoapClientOperation,
} from "specforge/runtime";
import { SignedXml } from "xml-crypto";
import { parse as txmlParse } from "txml/txml";
import * as partner from "../generated/partner/index.js";
import { schemaDriverFromWsdl, xmllintValidate } from "../test/emitters/xml/helpers/xmllint.js";
import { compare, interleaved, type BenchResult, type BenchSuite } from "./harness.js";

/**
 * SOAP codecs against node-soap, built from the same WSDL, in the same run: encoding a `create` of 200 sObjects
 * (10 open-content fields each) into a whole envelope, and decoding a 200-record `queryResponse` envelope.
 * node-soap's client writes the envelope synchronously into its HTTP client, which is stubbed to keep it.
 * Decoding is the generated client's own path (response text -> envelope -> body -> typed value, through
 * readSoapResponse, the function `call` hands a response to); beside node-soap, the untyped parsers txml (`parse`)
 * and fast-xml-parser (`XMLParser.parse`) read the same string into their own trees, as a floor for "just parsing".
 * The encode also runs against fast-xml-parser's XMLBuilder on the same envelope as a plain object (prefixed keys,
 * `@_` attributes): an untyped builder that knows no schema, the floor for writing this XML from JS objects.
 * Before measuring, our output is validated with xmllint against the WSDL's schemas (the bar is "fast and valid").
 */
const WSDL = path.resolve(import.meta.dirname, "../specs/partner.wsdl");
const ENS = "urn:sobject.api.example";
const FIELDS = ["Name", "Phone", "Website", "Industry", "Rating", "BillingCity", "BillingCountry", "Description", "AnnualRevenue", "Type"];

function id(i: number): string {
  return `001${String(i).padStart(15, "0")}`;
}

function record(i: number): partner.SObject {
  return { type: "Account", Id: id(i), $any: FIELDS.map((name, k) => ({ ns: ENS, name, value: `${name} ${i} & ${k}` })) };
}

/** The two documents are the same elements in the same order: equal once the namespaces we declare and
 * XMLBuilder's leave out (ns2, unused here) are taken away. */
function sameElements(theirs: string, ours: string): boolean {
  return theirs === ours.replace(' xmlns:ns2="urn:fault.api.example"', "");
}

/** One row per peer (the goals name each one), as rest-validators does. */
function perPeer(r: BenchResult): BenchResult[] {
  return Object.entries(r.peers ?? {}).map(([peerName, peer]) => ({ ...r, name: `${r.name} vs ${peerName}`, peer, peerName, ratio: Number((r.ours / peer).toFixed(2)), peers: undefined }));
}

interface NodeSoapClient {
  wsdl: { xmlToObject(xml: string): unknown };
  httpClient: unknown;
  create(args: unknown, cb: () => void): void;
}

/**
 * A signed call's security cost, sign + verify, on a `create` of 20 sObjects: ours (wsSecurity signing Body and
 * Timestamp with RSA-SHA256 and exclusive c14n, then wsSecurityVerifier checking trust, both digests and the
 * signature) against node-soap's WSSecurityCert (the same references and algorithms, by xml-crypto) followed by
 * xml-crypto's checkSignature, node-soap having no verifier of its own. A throwaway key made by openssl for the run.
 * Operations per CPU-second, both sides asynchronous-capable (ours is WebCrypto, theirs node:crypto, synchronous).
 */
async function signedCallRow(): Promise<BenchResult> {
  const dir = mkdtempSync(path.join(tmpdir(), "specforge-bench-wss-"));
  try {
    const keyFile = path.join(dir, "key.pem");
    const certFile = path.join(dir, "cert.pem");
    execFileSync("openssl", ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", keyFile, "-out", certFile, "-days", "1", "-subj", "/CN=bench"], { stdio: "ignore", timeout: 30_000 });
    const key = readFileSync(keyFile, "utf8");
    const cert = readFileSync(certFile, "utf8");
    const body = partner.encodeCreateElement({ sObjects: Array.from({ length: 20 }, (_, i) => ({ ...record(i), Id: null })) });
    const security = wsSecurity({ signature: { privateKey: key, certificate: cert } });
    const verifier = wsSecurityVerifier({ signature: { trustedCertificates: [cert] } });
    const ours = async () => {
      const signed = await security.secureEnvelope({ version: "1.1", headers: [], body });
      if ((await verifier.verify(signed)).signedParts.length !== 2) throw new Error("ours: not both parts signed");
    };
    const nodeSoapSecurity = new soap.WSSecurityCert(key, cert, "", { signatureAlgorithm: "http://www.w3.org/2001/04/xmldsig-more#rsa-sha256" });
    const unsigned = `<soapenv:Envelope xmlns:soapenv="${SOAP11_NS}"><soapenv:Header></soapenv:Header><soapenv:Body>${body}</soapenv:Body></soapenv:Envelope>`;
    const theirs = async () => {
      const signed = nodeSoapSecurity.postProcess(unsigned, "soapenv");
      const check = new SignedXml({ publicCert: cert, getCertFromKeyInfo: () => null });
      check.loadSignature(/<(?:ds:)?Signature\b[\s\S]*<\/(?:ds:)?Signature>/.exec(signed)![0]);
      if (!check.checkSignature(signed)) throw new Error("node-soap: signature does not verify");
    };
    const count = 20;
    const rates = await interleaved(["ours", "node-soap"] as const, count, 8, async (side) => {
      const one = side === "ours" ? ours : theirs;
      for (let i = 0; i < count; i++) await one();
    });
    return {
      name: "soap WS-Security sign+verify (create, 20 sObjects)",
      ours: Math.round(rates.ours),
      peer: Math.round(rates["node-soap"]),
      peerName: "node-soap WSSecurityCert + xml-crypto",
      unit: "calls/cpu-s",
      ratio: Number((rates.ours / rates["node-soap"]).toFixed(2)),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export const suite: BenchSuite = {
  name: "soap",
  async run() {
    const client = (await soap.createClientAsync(WSDL)) as unknown as NodeSoapClient;
    let sent = "";
    client.httpClient = { request: (_url: string, data: string) => (sent = data), requestStream: () => undefined };

    const create: partner.Create = { sObjects: Array.from({ length: 200 }, (_, i) => ({ ...record(i), Id: null })) };
    const nodeSoapCreate = { sObjects: create.sObjects!.map((o) => ({ type: o.type, Id: null, ...Object.fromEntries(o.$any!.map((f) => [f.name, f.value])) })) };
    // Round-tripped through bytes, as a response read off the network is: a flat string, not the writer's rope.
    const built = buildSoapEnvelope({
      version: "1.1",
      body: partner.encodeQueryResponseElement({ result: { done: true, queryLocator: null, size: 200, records: Array.from({ length: 200 }, (_, i) => record(i)) } }),
    });
    const response = new TextDecoder().decode(new TextEncoder().encode(built));
    // The same create envelope for XMLBuilder: the namespaces our encoder declares, xsi:nil as a plain attribute.
    const builder = new XMLBuilder({ ignoreAttributes: false, suppressEmptyNode: true, suppressBooleanAttributes: false });
    const builderCreate = {
      "?xml": { "@_version": "1.0", "@_encoding": "UTF-8" },
      "soapenv:Envelope": {
        "@_xmlns:soapenv": SOAP11_NS,
        "soapenv:Body": {
          "ns1:create": {
            "@_xmlns:ns1": "urn:partner.api.example",
            "@_xmlns:ns3": ENS,
            "@_xmlns:xsi": "http://www.w3.org/2001/XMLSchema-instance",
            "ns1:sObjects": create.sObjects!.map((o) => ({
              "ns3:type": o.type,
              "ns3:Id": { "@_xsi:nil": "true" },
              ...Object.fromEntries(o.$any!.map((f) => [`ns3:${f.name}`, f.value])),
            })),
          },
        },
      },
    };

    const ourCreate = () => buildSoapEnvelope({ version: "1.1", body: partner.encodeCreateElement(create) });
    // What the generated client's `query` passes to the runtime (client.ts), and a 200 OK.
    const binding: SoapClientBinding = { version: "1.1", requestHeaders: {}, responseHeaders: {}, faults: {} };
    const query: SoapClientOperation<partner.Query, partner.QueryResponse, Record<string, never>> = {
      name: "query",
      action: "",
      encodeInput: partner.encodeQueryElement,
      outputElement: "{urn:partner.api.example}queryResponse",
      decodeOutput: partner.decodeQueryResponseElement,
    };
    const ok = { url: "http://127.0.0.1/", status: 200, statusText: "OK", ok: true };
    const ourDecode = () => readSoapResponse(binding, query, response, ok).body;
    const fxp = new XMLParser({ ignoreAttributes: false, removeNSPrefix: false });

    // Sanity before timing: both sides produce/consume the same data, and our output validates.
    client.create(nodeSoapCreate, () => undefined);
    if (!sent.includes("Description 199 &amp; 7")) throw new Error("node-soap did not write the create request");
    if (!sameElements(builder.build(builderCreate) as string, ourCreate())) throw new Error("XMLBuilder's create differs from ours");
    if (ourDecode().result.records!.length !== 200) throw new Error("decode lost records");
    const failures = xmllintValidate(schemaDriverFromWsdl(WSDL), [
      partner.encodeCreateElement(create),
      partner.encodeQueryResponseElement(ourDecode()),
    ]);
    if (failures.length > 0) throw new Error(`our output does not validate: ${failures[0]!.errors}`);
    process.stderr.write("soap: encoded create and queryResponse validate under xmllint\n");

    return [
      ...perPeer(
        compare("soap encode create (200 sObjects x 10 fields)", ourCreate, {
          "node-soap": () => client.create(nodeSoapCreate, () => undefined),
          "fast-xml-parser XMLBuilder": () => builder.build(builderCreate),
        }),
      ),
      ...perPeer(
        compare("soap decode queryResponse (200 records)", ourDecode, {
          "node-soap": () => client.wsdl.xmlToObject(response),
          txml: () => txmlParse(response),
          "fast-xml-parser": () => fxp.parse(response),
        }),
      ),
      await signedCallRow(),
    ];
  },
};
