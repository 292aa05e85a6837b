import { describe, expect, it } from "vitest";
import { namespaceAliasTable } from "../../../src/runtime/soap/namespace-aliases.js";
import { parseXml, xsiType, XmlWriter, XSI_NS } from "../../../src/runtime/index.js";

const SPEC = { partner: "urn:partner.api.example", sobject: "urn:sobject.api.example" };
const REAL = { partner: "urn:partner.soap.sforce.com", sobject: "urn:sobject.partner.soap.sforce.com" };
const family = { [SPEC.partner]: REAL.partner, [SPEC.sobject]: REAL.sobject };

describe("namespaceAliasTable", () => {
  it("is undefined without families (the server then never looks at aliases)", () => {
    expect(namespaceAliasTable(undefined)).toBeUndefined();
    expect(namespaceAliasTable([])).toBeUndefined();
    expect(namespaceAliasTable([{ [SPEC.partner]: SPEC.partner }])).toBeUndefined();
  });

  it("indexes alias -> spec and alias -> its family", () => {
    const table = namespaceAliasTable([family, { [SPEC.partner]: "urn:other" }])!;
    expect(table.toSpec.get(REAL.sobject)).toBe(SPEC.sobject);
    expect(table.toSpec.get("urn:other")).toBe(SPEC.partner);
    expect([...table.familyOf.get(REAL.partner)!]).toEqual([[SPEC.partner, REAL.partner], [SPEC.sobject, REAL.sobject]]);
    expect([...table.familyOf.get("urn:other")!]).toEqual([[SPEC.partner, "urn:other"]]);
  });

  it.each([
    [[{ [SPEC.partner]: "urn:x" }, { [SPEC.sobject]: "urn:x" }], "namespace alias urn:x stands for both urn:partner.api.example and urn:sobject.api.example"],
    [[{ [SPEC.partner]: SPEC.sobject, [SPEC.sobject]: "urn:y" }], "namespace alias urn:sobject.api.example is also a spec namespace"],
    [[{ [SPEC.partner]: "" }], "namespace alias of urn:partner.api.example must be a non-empty URI"],
  ])("refuses an ambiguous table %#", (families, message) => {
    expect(() => namespaceAliasTable(families)).toThrow(new TypeError(message));
  });
});

describe("XmlWriter namespaceAliases", () => {
  it("writes the alias URI in declarations only: element names, xsi:type and text are as encoded", () => {
    const w = new XmlWriter({ namespaces: [[SPEC.partner, "ns1"], [SPEC.sobject, "ns3"], [XSI_NS, "xsi"]], namespaceAliases: new Map(Object.entries(family)) });
    w.startElement(SPEC.partner, "records");
    w.xsiType(SPEC.sobject, "sObject");
    w.simpleElement(SPEC.sobject, "Name", SPEC.partner);
    w.simpleElement("urn:late", "x", "late binding");
    w.endElement();
    const xml = w.toString();
    expect(xml).toBe(
      `<ns1:records xmlns:ns1="${REAL.partner}" xmlns:ns3="${REAL.sobject}" xmlns:xsi="${XSI_NS}" xsi:type="ns3:sObject">` +
        `<ns3:Name>${SPEC.partner}</ns3:Name><ns2:x xmlns:ns2="urn:late">late binding</ns2:x></ns1:records>`,
    );
    const back = parseXml(xml);
    expect(back.ns).toBe(REAL.partner);
    expect(xsiType(back)).toEqual({ ns: REAL.sobject, local: "sObject" });
  });
});
