import path from "node:path";
import soap from "soap";
import * as partner from "../generated/partner/index.js";
import { buildSoapEnvelope, parseSoapEnvelope } from "../src/runtime/index.js";
import { schemaDriverFromWsdl, xmllintValidate } from "../test/emitters/xml/helpers/xmllint.js";
import { compare, type BenchSuite } from "./harness.js";

/**
 * SOAP codecs against node-soap, built from the same WSDL, in the same run: encoding a `create` of 200 sObjects
 * (10 open-content fields each) into a whole envelope, and decoding a 200-record `queryResponse` envelope.
 * node-soap's client writes the envelope synchronously into its HTTP client, which is stubbed to keep it.
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

interface NodeSoapClient {
  wsdl: { xmlToObject(xml: string): unknown };
  httpClient: unknown;
  create(args: unknown, cb: () => void): void;
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

    const ourCreate = () => buildSoapEnvelope({ version: "1.1", body: partner.encodeCreateElement(create) });
    const ourDecode = () => partner.decodeQueryResponseElement(parseSoapEnvelope(response).body[0]!);

    // Sanity before timing: both sides produce/consume the same data, and our output validates.
    client.create(nodeSoapCreate, () => undefined);
    if (!sent.includes("Description 199 &amp; 7")) throw new Error("node-soap did not write the create request");
    if (ourDecode().result.records!.length !== 200) throw new Error("decode lost records");
    const failures = xmllintValidate(schemaDriverFromWsdl(WSDL), [
      partner.encodeCreateElement(create),
      partner.encodeQueryResponseElement(ourDecode()),
    ]);
    if (failures.length > 0) throw new Error(`our output does not validate: ${failures[0]!.errors}`);
    process.stderr.write("soap: encoded create and queryResponse validate under xmllint\n");

    return [
      compare("soap encode create (200 sObjects x 10 fields)", ourCreate, {
        "node-soap": () => client.create(nodeSoapCreate, () => undefined),
      }),
      compare("soap decode queryResponse (200 records)", ourDecode, {
        "node-soap": () => client.wsdl.xmlToObject(response),
      }),
    ];
  },
};
