/**
 * XSD 1.1 constructs (src/parsers/xsd/xsd11.ts): what specforge keeps exactly (the 1.1 builtins, explicitTimezone,
 * xsd:override, wildcards and groups in xsd:all, defaultAttributes) and what degrades with a located warning instead
 * of refusing the schema (assert, assertion, alternative, openContent as a trailing wildcard, notQName, several
 * substitution group heads, identity-constraint refs). The generated code is run (in memory) on instances.
 */
import { describe, expect, it } from "vitest";
import { loadInMemory } from "../../../conformance/xsd/load-in-memory.js";
import type { AliasType, RecordType } from "../../../src/ir/model.js";
import { memorySpecHost } from "../../../src/parsers/host.js";
import { generateSpec, type OutputFile } from "../../../src/pipeline/generate-files.js";
import * as runtime from "../../../src/runtime/index.js";

const MAIN = `<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:t="urn:t" targetNamespace="urn:t"
    elementFormDefault="qualified" defaultAttributes="t:common">
  <xs:override schemaLocation="base.xsd">
    <xs:simpleType name="Code"><xs:restriction base="xs:string"><xs:length value="3"/></xs:restriction></xs:simpleType>
  </xs:override>
  <xs:attributeGroup name="common"><xs:attribute name="lang" type="xs:language"/></xs:attributeGroup>
  <xs:simpleType name="Stamp">
    <xs:restriction base="xs:dateTime"><xs:explicitTimezone value="required"/></xs:restriction>
  </xs:simpleType>
  <xs:simpleType name="LocalDate">
    <xs:restriction base="xs:date"><xs:explicitTimezone value="prohibited"/></xs:restriction>
  </xs:simpleType>
  <xs:simpleType name="Even">
    <xs:restriction base="xs:int"><xs:assertion test="$value mod 2 = 0"/></xs:restriction>
  </xs:simpleType>
  <xs:complexType name="Event">
    <xs:openContent mode="suffix"><xs:any namespace="urn:x" processContents="lax"/></xs:openContent>
    <xs:sequence>
      <xs:element name="at" type="t:Stamp"/>
      <xs:element name="day" type="t:LocalDate" minOccurs="0"/>
      <xs:element name="took" type="xs:dayTimeDuration" minOccurs="0"/>
      <xs:element name="span" type="xs:yearMonthDuration" minOccurs="0"/>
      <xs:element name="stamp" type="xs:dateTimeStamp" minOccurs="0"/>
      <xs:element name="code" type="t:Code" minOccurs="0"/>
      <xs:element name="n" type="t:Even" minOccurs="0"/>
    </xs:sequence>
    <xs:assert test="count(*) gt 0"/>
  </xs:complexType>
  <xs:complexType name="Bag" defaultAttributesApply="false">
    <xs:all>
      <xs:element name="a" type="xs:string"/>
      <xs:any namespace="##other" processContents="skip" notQName="t:b"/>
    </xs:all>
  </xs:complexType>
  <xs:element name="event" type="t:Event"/>
  <xs:element name="bag" type="t:Bag"/>
  <xs:element name="msg">
    <xs:alternative test="@kind = 'n'" type="xs:int"/>
  </xs:element>
</xs:schema>`;

const BASE = `<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" targetNamespace="urn:t">
  <xs:simpleType name="Code"><xs:restriction base="xs:string"><xs:length value="2"/></xs:restriction></xs:simpleType>
</xs:schema>`;

function generate() {
  const out = generateSpec({ file: "/s/main.xsd", display: "main.xsd", runtimeModule: "specforge/runtime", outDir: "out" }, memorySpecHost({ "/s/main.xsd": MAIN, "/s/base.xsd": BASE }));
  const mod = loadInMemory(out.files as OutputFile[], out.dir, "specforge/runtime", runtime) as Record<string, (v: unknown) => unknown>;
  return { out, mod };
}

describe("XSD 1.1 constructs", () => {
  it("generate, with a located warning for each construct that is not expressed", () => {
    const { out } = generate();
    expect(out.doc.warnings?.map((w) => [w.line, w.column, w.detail])).toEqual([
      [14, 35, "xsd:assertion (XSD 1.1) is not checked: the type is kept without this facet"],
      [27, 5, "xsd:assert (XSD 1.1) is not checked: the type is kept without its assertion"],
      [32, 7, "notQName on xsd:any (XSD 1.1) is not applied: the wildcard admits those names too"],
      [38, 5, "xsd:alternative (XSD 1.1 conditional type assignment) is not applied: the element keeps its declared type"],
    ]);
    expect(new Set(out.doc.warnings!.map((w) => w.file))).toEqual(new Set(["/s/main.xsd"]));
  });

  it("keeps explicitTimezone as a pattern, open content as a trailing wildcard, defaultAttributes where they apply", () => {
    const { out } = generate();
    const type = (name: string) => out.doc.types.find((t) => t.name === name)!;
    expect((type("Stamp") as AliasType).facets?.patterns).toEqual([".*(Z|[+\\-][0-9]{2}:[0-9]{2})"]);
    const event = type("Event") as RecordType;
    const wildcard = event.members.find((m) => m.kind === "any");
    expect(wildcard).toMatchObject({ namespace: "urn:x", processContents: "lax", occurs: { min: 0, max: "unbounded" } });
    expect(event.members.map((m) => m.name)).toEqual(["at", "day", "took", "span", "stamp", "code", "n", "$any", "lang"]);
    // defaultAttributesApply="false" keeps the schema's default attributes off; an xsd:any sits in xsd:all.
    expect((type("Bag") as RecordType).members.map((m) => m.kind === "group" ? m.members.map((x) => x.name) : m.name).flat()).toEqual(["a", "$any"]);
  });

  it("runs: timezones required and prohibited, the 1.1 builtins, the overriding type's facets, open content", () => {
    const { mod } = generate();
    const decode = mod["decodeEventElement"]!;
    const validate = mod["validateEvent"]!;
    const ok = `<event xmlns="urn:t" lang="en"><at>2024-01-02T03:04:05Z</at><day>2024-01-02</day><took>P1DT2H</took><span>P1Y2M</span><stamp>2024-01-02T03:04:05+01:00</stamp><code>abc</code><n>3</n><x:extra xmlns:x="urn:x">1</x:extra></event>`;
    const value = decode(ok) as Record<string, unknown>;
    expect(validate(value)).toEqual([]);
    expect(value["lang"]).toBe("en");
    const again = mod["encodeEventElement"]!(value) as string;
    expect(again).toContain("extra");
    expect(decode(again)).toEqual(value);

    const issues = (xml: string): string[] => {
      try {
        return (validate(decode(xml)) as { message: string }[]).map((i) => i.message);
      } catch (e) {
        return [(e as Error).message];
      }
    };
    // explicitTimezone="required": a dateTime without a timezone is refused; "prohibited": a date with one is.
    expect(issues(`<event xmlns="urn:t"><at>2024-01-02T03:04:05</at></event>`).join()).toMatch(/pattern/);
    expect(issues(`<event xmlns="urn:t"><at>2024-01-02T03:04:05-05:00</at><day>2024-01-02+05:00</day></event>`).join()).toMatch(/pattern/);
    expect(issues(`<event xmlns="urn:t"><at>2024-01-02T03:04:05-05:00</at><day>2024-01-02</day></event>`)).toEqual([]);
    // xsd:override replaced base.xsd's Code (length 2) with its own (length 3).
    expect(issues(`<event xmlns="urn:t"><at>2024-01-02T03:04:05Z</at><code>ab</code></event>`).join()).toMatch(/length|3/);
  });
});

describe("chained xsd:override (W3C suite saxonData/Override over009)", () => {
  it("the outermost override wins over the overrides of the document it overrides", () => {
    const inner = `<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema"><xs:element name="para" type="xs:string"/></xs:schema>`;
    const middle = `<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema">
  <xs:override schemaLocation="inner.xsd"><xs:element name="para" type="xs:int"/></xs:override>
</xs:schema>`;
    const outer = `<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema">
  <xs:override schemaLocation="middle.xsd"><xs:element name="para" type="xs:boolean"/></xs:override>
</xs:schema>`;
    const out = generateSpec({ file: "/s/outer.xsd", display: "outer.xsd" }, memorySpecHost({ "/s/outer.xsd": outer, "/s/middle.xsd": middle, "/s/inner.xsd": inner }));
    const para = out.doc.elements.filter((e) => e.name.local === "para");
    expect(para.map((e) => e.type)).toEqual([{ kind: "scalar", scalar: "boolean" }]);
    expect(out.doc.warnings).toBeUndefined();
  });
});
