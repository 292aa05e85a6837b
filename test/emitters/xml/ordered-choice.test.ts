/**
 * Repeated choices keep their order (issue 27, item 5). A repeating xsd:choice (EPCIS's EventList: events of four
 * kinds and extension elements, interleaved), or a repeating sequence holding a choice, is one property holding
 * `{ kind, value }` items in document order, so decode -> encode writes the document back byte for byte, and the
 * output is valid to libxml2. The validator checks the items against the content model; the mock generator's values
 * follow it too.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { generateInlineXsd } from "../../helpers/xsd-inline.js";
import { xmllintValidate } from "./helpers/xmllint.js";
import { ValueGenerator } from "../../../src/mock/values.js";
import { xmlJsonForm } from "../../../src/convert/xml-json-form.js";
import { assignNames } from "../../../src/naming/assign-names.js";

type Fn = (...args: unknown[]) => unknown;
type Issue = { path: string; rule: string; message: string };

const FIXTURES = path.join(import.meta.dirname, "fixtures");
const EPCIS_XSD = path.join(FIXTURES, "epcis-events.xsd");
const EPCIS = "urn:epcglobal:epcis:xsd:1";
const EXT = "urn:example:ext";
const dir = mkdtempSync(path.join(os.tmpdir(), "specforge-ordered-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The fixture document as the encoder writes it: no whitespace between tags, prefixes as declared. */
const document = readFileSync(path.join(FIXTURES, "epcis-events.xml"), "utf8")
  .replace(/^<\?xml[^>]*\?>\s*/, "")
  .replace(/>\s+</g, "><")
  .trim();
const prefixes = { namespaces: [[EPCIS, "epcis"], [EXT, "ex"]] as const };

describe("a repeating xsd:choice (EPCIS event list)", () => {
  const gen = generateInlineXsd(readFileSync(EPCIS_XSD, "utf8"));
  const m = gen.load();
  const decode = m.decodeEPCISDocumentElement as Fn;
  const encode = m.encodeEPCISDocumentElement as Fn;
  const validate = m.validateEPCISDocumentType as (v: unknown) => Issue[];
  const validateList = m.validateEventListType as (v: unknown) => Issue[];

  it("is typed as one array of tagged items, and the generated code type-checks strict", () => {
    const types = gen.files.get("types.ts")!;
    expect(types).toContain(
      'items?: ({ kind: "ObjectEvent"; value: ObjectEventType } | { kind: "AggregationEvent"; value: AggregationEventType } | { kind: "QuantityEvent"; value: QuantityEventType } | { kind: "TransactionEvent"; value: TransactionEventType } | { kind: "$any"; value: { readonly ns: string; readonly name: string; readonly value: unknown; readonly attributes?: { readonly [name: string]: string } } })[];',
    );
    expect(types).not.toMatch(/ObjectEvent\?: ObjectEventType\[\]/);
    expect(gen.typecheck()).toEqual([]);
  });

  it("decodes the events in document order, extension elements in place", () => {
    const v = decode(document) as { EPCISBody: { EventList: { items: { kind: string; value: Record<string, unknown> }[] } } };
    const items = v.EPCISBody.EventList.items;
    expect(items.map((i) => i.kind)).toEqual(["ObjectEvent", "AggregationEvent", "ObjectEvent", "$any", "QuantityEvent", "ObjectEvent"]);
    expect(items.map((i) => i.value.action ?? i.value.quantity ?? i.value.name)).toEqual(["ADD", "ADD", "OBSERVE", "sensorReading", 200, "DELETE"]);
    expect(items[3]!.value).toEqual({ ns: EXT, name: "sensorReading", value: "21.5" });
    expect(validate(v)).toEqual([]);
  });

  it("encodes it back byte for byte, and libxml2 finds the output valid", () => {
    const out = encode(decode(document), prefixes) as string;
    expect(out).toBe(document);
    const again = encode(decode(out), { ...prefixes, xmlDeclaration: true }) as string;
    expect(again).toBe(`<?xml version="1.0" encoding="UTF-8"?>${document}`);
    expect(xmllintValidate(EPCIS_XSD, [out, encode(decode(document)) as string])).toEqual([]);
  });

  it("writes a value built in code in the order of its items", () => {
    const event = (kind: string, action: string) => ({
      kind,
      value: { $type: `${kind}Type`, eventTime: "2026-01-05T09:00:00Z", eventTimeZoneOffset: "+00:00", ...(kind === "ObjectEvent" ? { epcList: {} } : { childEPCs: {} }), action },
    });
    const value = { schemaVersion: "1.2", creationDate: "2026-01-05T10:00:00Z", EPCISBody: { EventList: { items: [event("AggregationEvent", "ADD"), event("ObjectEvent", "DELETE"), event("AggregationEvent", "DELETE")] } } };
    expect(validate(value)).toEqual([]);
    const out = encode(value, prefixes) as string;
    expect([...out.matchAll(/<(ObjectEvent|AggregationEvent)>/g)].map((x) => x[1])).toEqual(["AggregationEvent", "ObjectEvent", "AggregationEvent"]);
    expect(decode(out)).toEqual(value);
    expect(xmllintValidate(EPCIS_XSD, [out])).toEqual([]);
  });

  it("refuses items of no kind of the group, in the validator and the encoder", () => {
    const bad = { items: [{ kind: "ShippingEvent", value: {} }] };
    expect(validateList(bad).map((i) => `${i.path} ${i.rule}`)).toEqual(["/items/0/kind type"]);
    const value = { schemaVersion: "1.2", creationDate: "2026-01-05T10:00:00Z", EPCISBody: { EventList: bad } };
    expect(() => encode(value)).toThrow(/items\/0: not a \{ kind, value \} item/);
    // An item's value is checked by its kind's type.
    const wrong = { items: [{ kind: "QuantityEvent", value: { $type: "QuantityEventType", eventTime: "2026-01-05T09:00:00Z", eventTimeZoneOffset: "+00:00", epcClass: "urn:x", quantity: "many" } }] };
    expect(validateList(wrong).map((i) => i.path)).toEqual(["/items/0/value/quantity"]);
  });

  it("goes through specforge convert's JSON form and back to the same bytes; a bad item kind is located", () => {
    const form = xmlJsonForm(gen.doc, assignNames(gen.doc), gen.doc.elements.find((e) => e.name.local === "EPCISDocument")!);
    const json = JSON.parse(JSON.stringify(form.toJson(decode(document)))) as { EPCISBody: { EventList: { items: { kind: string }[] } } };
    expect(json.EPCISBody.EventList.items.map((i) => i.kind)).toEqual(["ObjectEvent", "AggregationEvent", "ObjectEvent", "$any", "QuantityEvent", "ObjectEvent"]);
    expect(encode(form.fromJson(json), prefixes)).toBe(document);
    json.EPCISBody.EventList.items[1]!.kind = "ShippingEvent";
    expect(() => form.fromJson(json)).toThrow(/\/EPCISBody\/EventList\/items\/1\/kind: must be one of ObjectEvent, AggregationEvent/);
  });

  it("mock values follow the content model and are libxml2-valid once encoded", () => {
    const doc = gen.doc;
    const values = new ValueGenerator(doc);
    const id = doc.types.find((t) => t.name === "EPCISDocumentType")!.id;
    const outs: string[] = [];
    let interleaved = 0;
    for (let seed = 0; seed < 30; seed++) {
      const v = values.value(id, seed) as { EPCISBody: { EventList?: { items?: { kind: string }[] } } };
      expect(validate(v), `seed ${seed}`).toEqual([]);
      const kinds = v.EPCISBody.EventList?.items?.map((i) => i.kind) ?? [];
      if (new Set(kinds).size > 1) interleaved++;
      const out = encode(v) as string;
      expect(decode(out), `seed ${seed}`).toEqual(v);
      outs.push(out);
    }
    expect(interleaved).toBeGreaterThan(0);
    expect(xmllintValidate(EPCIS_XSD, outs)).toEqual([]);
  });
});

/** A repeating sequence holding a choice: a timestamp, then one reading of either kind, again and again. */
const READINGS = `<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:tns="urn:r" targetNamespace="urn:r" elementFormDefault="qualified">
  <xs:element name="log">
    <xs:complexType>
      <xs:sequence>
        <xs:element name="device" type="xs:string"/>
        <xs:sequence maxOccurs="unbounded">
          <xs:element name="at" type="xs:dateTime"/>
          <xs:choice>
            <xs:element name="temperature" type="xs:decimal"/>
            <xs:element name="humidity" type="xs:int" nillable="true"/>
          </xs:choice>
        </xs:sequence>
        <xs:element name="end" type="xs:string" minOccurs="0"/>
      </xs:sequence>
    </xs:complexType>
  </xs:element>
</xs:schema>`;

describe("a repeating sequence holding a choice", () => {
  const gen = generateInlineXsd(READINGS);
  const m = gen.load();
  const decode = m.decodeLogElement as Fn;
  const encode = m.encodeLogElement as Fn;
  const validate = m.validateLog as (v: unknown) => Issue[];
  const xsd = path.join(dir, "readings.xsd");
  writeFileSync(xsd, READINGS);
  const doc =
    '<tns:log xmlns:tns="urn:r" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"><tns:device>d1</tns:device>' +
    "<tns:at>2026-01-01T00:00:00Z</tns:at><tns:temperature>21.5</tns:temperature>" +
    '<tns:at>2026-01-01T00:01:00Z</tns:at><tns:humidity xsi:nil="true"/>' +
    "<tns:at>2026-01-01T00:02:00Z</tns:at><tns:temperature>21.25</tns:temperature>" +
    "<tns:at>2026-01-01T00:03:00Z</tns:at><tns:humidity>40</tns:humidity><tns:end>ok</tns:end></tns:log>";
  const options = { namespaces: [["urn:r", "tns"], ["http://www.w3.org/2001/XMLSchema-instance", "xsi"]] };

  it("is one required property of items (the sequence occurs at least once), named after its kinds", () => {
    expect(gen.files.get("types.ts")).toContain(
      'atOrTemperatureOrHumidity: [({ kind: "at"; value: string } | { kind: "temperature"; value: string } | { kind: "humidity"; value: number | null }), ...({ kind: "at"; value: string } | { kind: "temperature"; value: string } | { kind: "humidity"; value: number | null })[]];',
    );
    expect(gen.typecheck()).toEqual([]);
  });

  it("round-trips byte for byte, nil items included, and libxml2 finds the output valid", () => {
    const v = decode(doc) as { atOrTemperatureOrHumidity: { kind: string; value: unknown }[] };
    expect(v.atOrTemperatureOrHumidity.map((i) => `${i.kind}=${String(i.value)}`)).toEqual([
      "at=2026-01-01T00:00:00Z", "temperature=21.5", "at=2026-01-01T00:01:00Z", "humidity=null",
      "at=2026-01-01T00:02:00Z", "temperature=21.25", "at=2026-01-01T00:03:00Z", "humidity=40",
    ]);
    expect(validate(v)).toEqual([]);
    const out = encode(v, options) as string;
    expect(out).toBe(doc);
    expect(xmllintValidate(xsd, [out])).toEqual([]);
  });

  it("reports items out of the content model's order, which libxml2 also rejects", () => {
    const v = decode(doc) as { device: string; atOrTemperatureOrHumidity: { kind: string; value: unknown }[] };
    const swapped = { ...v, atOrTemperatureOrHumidity: [v.atOrTemperatureOrHumidity[1]!, v.atOrTemperatureOrHumidity[0]!, ...v.atOrTemperatureOrHumidity.slice(2)] };
    expect(validate(swapped).map((i) => `${i.path} ${i.rule}`)).toEqual(["/atOrTemperatureOrHumidity content"]);
    const twoReadings = { ...v, atOrTemperatureOrHumidity: [...v.atOrTemperatureOrHumidity.slice(0, 2), v.atOrTemperatureOrHumidity[5]!] };
    expect(validate(twoReadings).map((i) => i.rule)).toEqual(["content"]);
    expect(validate({ device: "d1", atOrTemperatureOrHumidity: [] }).map((i) => i.rule)).toEqual(["minOccurs"]);
    expect(xmllintValidate(xsd, [encode(swapped, options) as string])).toHaveLength(1);
  });
});

/**
 * A choice repeated through its group reference's occurrences (`<xs:group ref="G" minOccurs="2" maxOccurs="4"/>`,
 * W3C suite particlesEc029): the fewest items is 2, the group's minOccurs counted once (it was counted twice: "at
 * least 4 elements" for a valid `<a/><a/>`).
 */
describe("a choice repeated by its group reference's minOccurs", () => {
  const xsd = `<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema">
  <xs:group name="G"><xs:choice><xs:element name="a" type="xs:string"/><xs:element name="b" type="xs:string"/></xs:choice></xs:group>
  <xs:group name="Pair"><xs:sequence><xs:element name="x" type="xs:string"/><xs:choice><xs:element name="y" type="xs:string"/><xs:element name="z" type="xs:string"/></xs:choice></xs:sequence></xs:group>
  <xs:element name="doc"><xs:complexType><xs:group ref="G" minOccurs="2" maxOccurs="4"/></xs:complexType></xs:element>
  <xs:element name="pairs"><xs:complexType><xs:group ref="Pair" minOccurs="3" maxOccurs="unbounded"/></xs:complexType></xs:element>
</xs:schema>`;
  const gen = generateInlineXsd(xsd);
  const m = gen.load();
  const file = path.join(dir, "group-occurs.xsd");
  writeFileSync(file, xsd);

  it("types the fewest items as the group's minOccurs times one occurrence's elements", () => {
    expect(gen.files.get("types.ts")).toContain("@minItems 2\n");
    expect(gen.files.get("types.ts")).toContain("@minItems 6\n");
    expect(gen.typecheck()).toEqual([]);
  });

  it("accepts the fewest occurrences, rejects fewer, as libxml2 does", () => {
    const rules = (el: string, doc: string) => ((m[`validate${el}`] as (v: unknown) => Issue[])((m[`decode${el}Element`] as Fn)(doc))).map((i) => i.rule);
    const docs = ["<doc><a/><b/></doc>", "<pairs><x/><y/><x/><z/><x/><y/></pairs>"];
    expect(rules("Doc", docs[0]!)).toEqual([]);
    expect(rules("Pairs", docs[1]!)).toEqual([]);
    expect(xmllintValidate(file, docs)).toEqual([]);
    const fewer = ["<doc><a/></doc>", "<pairs><x/><y/><x/><z/></pairs>"];
    expect(rules("Doc", fewer[0]!)).toContain("minOccurs");
    expect(rules("Pairs", fewer[1]!)).toContain("minOccurs");
    expect(xmllintValidate(file, fewer)).toHaveLength(2);
  });
});
