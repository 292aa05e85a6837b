/**
 * Conditional inclusion (XSD 1.1 Part 1, 4.2.1; the vc: attributes, which XSD 1.0 processors are asked to honour):
 * specforge reads schema documents as an XSD 1.0 processor, so an element for 1.1 only (`vc:minVersion="1.1"`) or
 * naming a type or facet it does not have (`vc:typeAvailable="xs:error"`) is left out, and its alternative for
 * older processors is kept (W3C suite saxonData/VC: vc001, vc002, vc014, vc024 were refused: "xsd:assert is not
 * supported", "unknown type 'xs:error'").
 */
import { describe, expect, it } from "vitest";
import { generateInlineXsd } from "../../helpers/xsd-inline.js";

const VC = `xmlns:vc="http://www.w3.org/2007/XMLSchema-versioning"`;
type Fn = (v: unknown) => unknown;

describe("vc: conditional inclusion", () => {
  const gen = generateInlineXsd(`<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" ${VC}>
    <xs:element name="temp"><xs:complexType>
      <xs:sequence><xs:element name="new" type="xs:string" vc:maxVersion="1.0"/><xs:element name="old" type="xs:string" vc:minVersion="1.0" vc:maxVersion="1.1"/></xs:sequence>
      <xs:attribute name="x" type="xs:int" use="required"/>
      <xs:attribute name="y" type="xs:error" vc:typeAvailable="xs:error"/>
      <xs:attribute name="y" vc:typeUnavailable="xs:error xs:string"><xs:simpleType><xs:restriction base="xs:integer"><xs:maxInclusive value="9"/></xs:restriction></xs:simpleType></xs:attribute>
      <xs:attribute name="z" type="xs:string" vc:facetUnavailable="xs:pattern"/>
      <xs:assert test="@x > 300" vc:minVersion="1.1"/>
    </xs:complexType></xs:element>
  </xs:schema>`);
  const m = gen.load() as Record<string, Fn>;

  it("leaves out what an XSD 1.0 processor does not have, keeps the alternatives", () => {
    const types = gen.files.get("types.ts")!;
    expect(types).toMatch(/\bold: string;/);
    expect(types).not.toMatch(/\bnew\b/);
    expect(types).not.toMatch(/\bz\?/);
    expect(m.decodeTempElement!('<temp x="1" y="7"><old>o</old></temp>')).toEqual({ old: "o", x: 1, y: 7n });
    expect((m.validateTemp as Fn)({ old: "o", x: 1, y: 10n })).toHaveLength(1);
    expect(gen.typecheck()).toEqual([]);
  });
});
