import { describe, expect, it } from "vitest";
import { XmlCodecs, xmlTextCodec, XmlDecodeError, XmlEncodeError, type XmlFieldSpec } from "../../../src/runtime/index.js";

/**
 * The table walk of generated xml.ts files on a hand-written table: the generated partner codecs cover the schema
 * features (test/emitters/xml); these pin what the table itself decides (wildcards by namespace, the position rule,
 * required checks in schema order, the bounded per-namespace lookups).
 */
const NS = "urn:t";
const text = xmlTextCodec((t: string) => t);
const codecs = new XmlCodecs([[NS, "t"]]);
// <rec><id/><tag/>*<any ##any/>*</rec>: id and tag are admitted by the wildcard too, so position decides.
const fields: XmlFieldSpec[] = [
  [0 + 4, NS, "id", "id", text],
  [0 + 8, NS, "tag", "tag", text],
  [3 + 8, NS, "##any", "$any"],
];
const rec = codecs.record(NS, "rec", "Rec", 0, () => fields);
const element = codecs.element(NS, "rec", rec, false);
codecs.types([[NS, "rec", rec]]);

describe("XmlRecordCodec", () => {
  it("reads a fixed name at its place and keeps it in $any after that place, in document order", () => {
    const xml = `<t:rec xmlns:t="${NS}"><t:id>1</t:id><t:tag>a</t:tag><t:x>2</t:x><t:id>3</t:id><t:tag>b</t:tag></t:rec>`;
    const value = element.fromXml(xml);
    expect(value).toEqual({
      id: "1",
      tag: ["a"],
      $any: [
        { ns: NS, name: "x", value: "2" },
        { ns: NS, name: "id", value: "3" },
        { ns: NS, name: "tag", value: "b" },
      ],
    });
    expect(element.toXml(value)).toBe(xml);
  });

  it("sends children of many namespaces to the wildcard (lookups per namespace stay bounded)", () => {
    const children = Array.from({ length: 50 }, (_, i) => `<n${i}:c xmlns:n${i}="urn:n${i}">${i}</n${i}:c>`).join("");
    const value = element.fromXml(`<t:rec xmlns:t="${NS}"><t:id>1</t:id>${children}</t:rec>`) as { $any: { ns: string; value: unknown }[] };
    expect(value.$any.map((item) => item.ns)).toEqual(Array.from({ length: 50 }, (_, i) => `urn:n${i}`));
    expect(value.$any[49]!.value).toBe("49");
  });

  it("reports a missing required element at the record's path, and a missing required property when encoding", () => {
    expect(() => element.fromXml(`<t:rec xmlns:t="${NS}"><t:tag>a</t:tag></t:rec>`)).toThrow(XmlDecodeError);
    expect(() => element.fromXml(`<t:rec xmlns:t="${NS}"/>`)).toThrow("/: required element id is missing");
    expect(() => element.toXml({ tag: ["a"] })).toThrow(XmlEncodeError);
    expect(() => element.toXml({ tag: ["a"] })).toThrow("Rec/id: required property is missing");
  });
});
