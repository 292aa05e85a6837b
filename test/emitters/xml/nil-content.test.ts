/**
 * An element with xsi:nil="true" decodes to null and must have no content at all (XSD 1.0 Part 1, 3.3.4 Element
 * Locally Valid (Element) 3.2.3): the decoder skipped whatever was inside (W3C suite Complex/complex012.n2 `****`,
 * complex013.n1 `<e/>`). libxml2 judges the same documents.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { generateInlineXsd } from "../../helpers/xsd-inline.js";
import { xmllintValidate } from "./helpers/xmllint.js";

type Fn = (v: unknown) => unknown;
const XSI = `xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"`;
const xsd = `<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema">
  <xs:element name="amount" nillable="true"><xs:complexType><xs:simpleContent><xs:extension base="xs:decimal">
    <xs:attribute name="present" type="xs:boolean"/></xs:extension></xs:simpleContent></xs:complexType></xs:element>
  <xs:element name="order"><xs:complexType><xs:sequence>
    <xs:element name="note" type="xs:string" nillable="true"/>
    <xs:element name="line" nillable="true" maxOccurs="unbounded"><xs:complexType><xs:sequence><xs:element name="e" minOccurs="0"/></xs:sequence></xs:complexType></xs:element>
  </xs:sequence></xs:complexType></xs:element>
</xs:schema>`;

describe("an element with xsi:nil", () => {
  const m = generateInlineXsd(xsd).load() as Record<string, Fn>;
  const file = path.join(mkdtempSync(path.join(os.tmpdir(), "specforge-nil-")), "nil.xsd");
  writeFileSync(file, xsd);

  it("is null when empty, at the root, in a field and in a list", () => {
    const valid = [`<amount ${XSI} xsi:nil="true"/>`, `<order ${XSI}><note xsi:nil="1"></note><line/><line xsi:nil="true"/></order>`];
    expect(m.decodeAmountElement!(valid[0])).toBeNull();
    expect(m.decodeOrderElement!(valid[1])).toEqual({ note: null, line: [{}, null] });
    expect(xmllintValidate(file, valid)).toEqual([]);
  });

  it("is refused with characters or child elements inside, as libxml2 refuses it", () => {
    const invalid = [
      [`<amount ${XSI} xsi:nil="true">****</amount>`, "/"],
      [`<order ${XSI}><note xsi:nil="true">text</note><line/></order>`, "/note"],
      [`<order ${XSI}><note/><line xsi:nil="1"><e/></line></order>`, "/line/0"],
    ] as const;
    for (const [doc, at] of invalid) {
      const el = doc.startsWith("<amount") ? "Amount" : "Order";
      expect(() => m[`decode${el}Element`]!(doc), doc).toThrow(`${at}: an element with xsi:nil="true" must be empty`);
    }
    expect(xmllintValidate(file, invalid.map(([d]) => d))).toHaveLength(3);
  });
});
