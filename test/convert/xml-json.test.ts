import fc from "fast-check";
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as partner from "../../generated/partner/index.js";
import { inspect } from "../../src/api.js";
import { openSpec, type OpenSpec } from "../../src/convert/convert.js";
import { elementCodecNames } from "../../src/emitters/xml/element-names.js";
import { arbitraries } from "../emitters/xml/helpers/arbitraries.js";
import { REPO } from "../helpers/seeds.js";

/**
 * `specforge convert` between XML and JSON for WSDL/XSD elements. Every global element of specs/partner.wsdl (every
 * operation's input and output, headers and faults) goes xml -> json -> xml to the same bytes and json -> xml -> json
 * to the same JSON, in process through `openSpec` (the same code the CLI runs, the spec loaded once); the CLI
 * cases go through the built bin, stdin to stdout.
 */
const WSDL = path.join(REPO, "specs/partner.wsdl");
const BIN = path.join(REPO, "bin", "specforge.js");
const cache = mkdtempSync(path.join(tmpdir(), "specforge-xml-json-test-"));
afterAll(() => rmSync(cache, { recursive: true, force: true }));
const env = { ...process.env, SPECFORGE_CACHE_DIR: cache };
const enc = new TextEncoder();
const dec = new TextDecoder();

function cli(args: string[], input: string | Buffer): { code: number | null; out: string; err: string } {
  const r = spawnSync(process.execPath, [BIN, "convert", ...args], { cwd: REPO, input, env, timeout: 60_000, maxBuffer: 64 << 20 });
  return { code: r.status, out: r.stdout.toString(), err: r.stderr.toString() };
}

function expectPayloadError(r: ReturnType<typeof cli>, where: RegExp): void {
  expect(r.err).toMatch(where);
  expect(r.err).not.toMatch(/^\s+at /m);
  expect(r.code).toBe(1);
  expect(r.out).toBe("");
}

describe("convert xml <-> json: every element of specs/partner.wsdl", () => {
  const doc = inspect(WSDL);
  const codecNames = elementCodecNames(doc);
  const codecs = partner as unknown as Record<string, (value: unknown) => string>;
  const arbs = arbitraries(doc);
  const operations = doc.services.flatMap((s) => (s.kind === "soap" ? s.operations : []));
  let spec: OpenSpec;
  beforeAll(async () => {
    spec = await openSpec({ spec: WSDL, cacheDir: cache });
  });

  it("covers every operation's input and output element", () => {
    const ids = new Set(doc.elements.map((e) => e.id));
    expect(operations.length).toBeGreaterThan(25);
    let parts = 0;
    for (const op of operations) {
      for (const part of [...(op.input?.parts ?? []), ...(op.output?.parts ?? [])]) {
        parts++;
        expect(part.element !== undefined && ids.has(part.element)).toBe(true);
      }
    }
    expect(parts).toBeGreaterThanOrEqual(2 * operations.length);
  });

  for (const el of doc.elements) {
    const clark = `{${el.name.ns}}${el.name.local}`;
    it(`${el.name.local}: xml -> json -> xml gives the same XML, json -> xml -> json the same JSON`, () => {
      const toJson = spec.converter({ type: clark, from: "xml", to: "json" });
      const toXml = spec.converter({ type: clark, from: "json", to: "xml" });
      const samples = fc.sample(arbs.element(el.id), { numRuns: 4, seed: 7 });
      for (const value of samples) {
        const xml = `${codecs[codecNames.get(el.id)!.encode]!(value)}\n`;
        const json = dec.decode(toJson.convert(enc.encode(xml)));
        // The JSON is plain JSON (no bigint or bytes leaked through), and it reads back as the same value.
        expect(() => JSON.parse(json) as unknown).not.toThrow();
        const back = dec.decode(toXml.convert(enc.encode(json)));
        expect(back).toBe(xml);
        expect(dec.decode(toJson.convert(enc.encode(back)))).toBe(json);
        expect(codecs[codecNames.get(el.id)!.decode]!(back as never)).toEqual(value);
      }
    });
  }
});

/** A real-shaped query result: Id twice, a nil field, a parent sObject and a child QueryResult in open content. */
const SOBJECT_NS = "urn:sobject.api.example";
const queryResponse = {
  result: {
    done: true,
    queryLocator: null,
    size: 1,
    records: [
      {
        type: "Account",
        Id: "001000000000000AAA",
        $any: [
          { ns: SOBJECT_NS, name: "Id", value: "001000000000000AAA" },
          { ns: SOBJECT_NS, name: "Name", value: "Acme & Co <EU>" },
          { ns: SOBJECT_NS, name: "Description", value: null },
          { ns: SOBJECT_NS, name: "Owner", value: { $type: "sObject", type: "User", Id: "005000000000000AAA", $any: [{ ns: SOBJECT_NS, name: "Alias", value: "jdoe" }] } },
          {
            ns: SOBJECT_NS,
            name: "Contacts",
            value: { $type: "QueryResult", done: true, queryLocator: null, size: 1, records: [{ type: "Contact", Id: null, fieldsToNull: ["Phone"] }] },
          },
        ],
      },
    ],
  },
};

describe("convert xml <-> json through the CLI", () => {
  const Q = ["specs/partner.wsdl", "--type", "queryResponse"];

  it("open content ($any, Id twice, nil, nested typed records) survives xml -> json -> xml byte for byte", () => {
    const xml = `${partner.encodeQueryResponseElement(queryResponse as never)}\n`;
    const json = cli([...Q, "--from", "xml", "--to", "json"], xml);
    expect(json.err).toBe("");
    expect(json.code).toBe(0);
    expect(JSON.parse(json.out)).toEqual(queryResponse);
    const back = cli([...Q, "--from", "json", "--to", "xml"], json.out);
    expect(back.err).toBe("");
    expect(back.out).toBe(xml);
  });

  it("bytes are base64 in JSON, and a string that is not base64 is refused with its path", () => {
    const email = { bccSender: null, emailPriority: null, replyTo: null, saveAsActivity: null, senderDisplayName: null, subject: "s", useSignature: null };
    const single = { charset: null, htmlBody: null, plainTextBody: "hi", targetObjectId: null, templateId: null, whatId: null, fileAttachments: [{ fileName: "a.bin", body: new Uint8Array([0, 1, 2, 250, 255]) }] };
    const value = { messages: [{ $type: "SingleEmailMessage", ...email, ...single }] };
    let xml: string;
    try {
      xml = `${partner.encodeSendEmailElement(value as never)}\n`;
    } catch (e) {
      throw new Error(`fixture does not fit the partner schema: ${(e as Error).message}`);
    }
    const r = cli(["specs/partner.wsdl", "--type", "sendEmail", "--from", "xml", "--to", "json"], xml);
    expect(r.err).toBe("");
    const json = JSON.parse(r.out) as { messages: { fileAttachments: { body: string }[] }[] };
    expect(json.messages[0]!.fileAttachments[0]!.body).toBe("AAEC+v8=");
    json.messages[0]!.fileAttachments[0]!.body = "not base64!";
    expectPayloadError(
      cli(["specs/partner.wsdl", "--type", "sendEmail", "--from", "json", "--to", "xml"], JSON.stringify(json)),
      /^\{urn:partner\.api\.example\}sendEmail: cannot read the json input: \/messages\/0\/fileAttachments\/0\/body: expected base64 \(padded, standard alphabet\), got "not base64!"$/m,
    );
  });

  it("malformed JSON names line and column", () => {
    expectPayloadError(cli([...Q, "--from", "json", "--to", "xml"], '{\n  "result": {\n    "done": tru\n'), /cannot read the json input: invalid JSON at line 3 column 13/);
  });

  it("JSON of the wrong shape names the JSON pointer of the first problem", async () => {
    // In process (the CLI prints exactly this message, as the cases above show): one spawn per case is slow.
    const toXml = (await openSpec({ spec: WSDL, cacheDir: cache })).converter({ type: "queryResponse", from: "json", to: "xml" });
    const wrong = (result: unknown) => () => toXml.convert(enc.encode(JSON.stringify({ result })));
    const at = (where: string) => new RegExp(`^\\{urn:partner\\.api\\.example\\}queryResponse: cannot read the json input: ${where}$`);
    expect(wrong({ done: "yes", queryLocator: null, size: 0 })).toThrow(at('/result/done: expected true or false, got "yes"'));
    expect(wrong({ done: true, queryLocator: null })).toThrow(at("/result/size: required property is missing"));
    expect(wrong({ done: true, queryLocator: null, size: 1.5 })).toThrow(at("/result/size: expected an integer, got 1\\.5"));
    expect(wrong({ done: true, queryLocator: null, size: 0, sise: 1 })).toThrow(at('/result/sise: QueryResult has no property "sise"'));
    expect(wrong({ done: true, queryLocator: null, size: 1, records: [{ type: "A", Id: null, $any: [{ ns: SOBJECT_NS, name: "X", value: { a: 1 } }] }] })).toThrow(
      at("/result/records/0/\\$any/0/value: an object in open content needs a \\$type naming a record type of the schema"),
    );
    expect(wrong({ done: true, queryLocator: null, size: 1, records: [{ $type: "QueryResult", type: "A", Id: null }] })).toThrow(at('/result/records/0/\\$type: "QueryResult" is not sObject or a type derived from it \\(sObject\\)'));
    expect(() => toXml.convert(enc.encode("[]"))).toThrow(at("/: expected an object, got an array"));
  });

  it("JSON input is bounded like XML input: depth and size", () => {
    const deep = `${"[".repeat(400)}${"]".repeat(400)}`;
    expectPayloadError(cli([...Q, "--from", "json", "--to", "xml"], deep), /cannot read the json input: invalid JSON at line 1 column \d+: nesting deeper than 257 levels/);
    const huge = Buffer.alloc(16 * 1024 * 1024 + 1, 0x20);
    expectPayloadError(cli([...Q, "--from", "json", "--to", "xml"], huge), /cannot read the json input: the JSON input is larger than 16777216 bytes/);
  });

  it("XML input keeps the XML decoder's limits on the way to JSON (DOCTYPE refused)", () => {
    const doctype = '<!DOCTYPE x [<!ENTITY e "boom">]><queryResponse xmlns="urn:partner.api.example"/>';
    expectPayloadError(cli([...Q, "--from", "xml", "--to", "json"], doctype), /cannot read the xml input: .*DOCTYPE.* at 1:1/);
  });
});

describe("convert xml <-> json: values JSON cannot carry as they are", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "specforge-xml-json-xsd-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const xsd = path.join(dir, "numbers.xsd");
  writeFileSync(
    xsd,
    `<xsd:schema xmlns:xsd="http://www.w3.org/2001/XMLSchema" targetNamespace="urn:n" xmlns:n="urn:n" elementFormDefault="qualified">
  <xsd:element name="sample"><xsd:complexType><xsd:sequence>
    <xsd:element name="big" type="xsd:long" maxOccurs="unbounded"/>
    <xsd:element name="huge" type="xsd:integer"/>
    <xsd:element name="hex" type="xsd:hexBinary"/>
    <xsd:element name="when" type="xsd:dateTime"/>
    <xsd:element name="ratio" type="xsd:double" maxOccurs="unbounded"/>
  </xsd:sequence></xsd:complexType></xsd:element>
</xsd:schema>
`,
  );
  const xml =
    '<n:sample xmlns:n="urn:n"><n:big>-9223372036854775808</n:big><n:big>9223372036854775807</n:big><n:huge>123456789012345678901234567890</n:huge>' +
    "<n:hex>00FF10</n:hex><n:when>2026-11-27T03:00:00.5Z</n:when><n:ratio>NaN</n:ratio><n:ratio>INF</n:ratio><n:ratio>-INF</n:ratio><n:ratio>-0</n:ratio><n:ratio>1.5</n:ratio></n:sample>";

  it("bigint as decimal strings, bytes as base64, dateTime as written, NaN/INF/-0 as XSD lexical; and back", async () => {
    const args = [xsd, "--type", "sample"];
    const json = cli([...args, "--from", "xml", "--to", "json"], xml);
    expect(json.err).toBe("");
    expect(JSON.parse(json.out)).toEqual({
      big: ["-9223372036854775808", "9223372036854775807"],
      huge: "123456789012345678901234567890",
      hex: "AP8Q",
      when: "2026-11-27T03:00:00.5Z",
      ratio: ["NaN", "INF", "-INF", "-0", 1.5],
    });
    const spec = await openSpec({ spec: xsd, cacheDir: cache });
    const back = spec.converter({ type: "sample", from: "json", to: "xml" }).convert(enc.encode(json.out));
    // The same content (the generated writer picks its own prefixes): every lexical form as the input had it.
    const texts = (x: string) => [...x.matchAll(/<(?:[a-z0-9]+:)?([a-z]+)>([^<]*)</g)].map((m) => `${m[1]}=${m[2]}`);
    expect(texts(dec.decode(back))).toEqual(texts(xml));
    expect(texts(xml)).toHaveLength(10);
    expect(dec.decode(spec.converter({ type: "sample", from: "xml", to: "json" }).convert(back))).toBe(json.out);
    expect(() => spec.converter({ type: "sample", from: "json", to: "xml" }).convert(enc.encode(json.out.replace('"123456789012345678901234567890"', '"12e3"')))).toThrow(
      /\/huge: expected an integer as a decimal string, got "12e3"$/,
    );
  });
});
