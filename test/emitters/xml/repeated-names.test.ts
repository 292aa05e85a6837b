/**
 * One element name at several places of a content model (`<e/>` three times in a sequence, each with its own
 * default; `e1, e2, e1`): each child goes to the field at its position, as wildcards already did. The first field
 * took them all, and the others were reported missing (W3C suite memberType004/008/022, mgQ002/Q003, mgO006,
 * particlesZ034_a1). libxml2 judges the output.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { generateInlineXsd } from "../../helpers/xsd-inline.js";
import { xmllintValidate } from "./helpers/xmllint.js";

type Fn = (v: unknown) => unknown;
const xsd = `<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema">
  <xs:element name="three"><xs:complexType><xs:sequence>
    <xs:element name="e" type="xs:int" default="1"/><xs:element name="e" type="xs:int" default="2"/><xs:element name="e" type="xs:int" default="3"/>
  </xs:sequence></xs:complexType></xs:element>
  <xs:element name="around"><xs:complexType><xs:sequence>
    <xs:element name="e1" type="xs:string" maxOccurs="2"/><xs:element name="e2" type="xs:string"/><xs:element name="e1" type="xs:string" minOccurs="0"/>
  </xs:sequence></xs:complexType></xs:element>
</xs:schema>`;

describe("an element name at several places of a sequence", () => {
  const gen = generateInlineXsd(xsd);
  const m = gen.load() as Record<string, Fn>;
  const file = path.join(mkdtempSync(path.join(os.tmpdir(), "specforge-names-")), "names.xsd");
  writeFileSync(file, xsd);

  it("type-checks strict", () => {
    expect(gen.typecheck()).toEqual([]);
  });

  it("reads each child into the field at its position, and writes them back in order", () => {
    const three = m.decodeThreeElement!("<three><e/><e>20</e><e/></three>");
    expect(Object.values(three as object)).toEqual([1, 20, 3]);
    const around = m.decodeAroundElement!("<around><e1>a</e1><e1>b</e1><e2>c</e2><e1>d</e1></around>");
    expect(Object.values(around as object)).toEqual([["a", "b"], "c", "d"]);
    expect((m.validateAround as Fn)(around)).toEqual([]);
    const outs = [m.encodeThreeElement!(three) as string, m.encodeAroundElement!(around) as string];
    expect(outs[1]).toBe("<around><e1>a</e1><e1>b</e1><e2>c</e2><e1>d</e1></around>".replace("<around>", '<around xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">'));
    expect(m.decodeThreeElement!(outs[0])).toEqual(three);
    expect(xmllintValidate(file, outs)).toEqual([]);
  });

  it("still refuses a missing required occurrence", () => {
    expect(() => m.decodeThreeElement!("<three><e/><e/></three>")).toThrow(/required element e is missing/);
  });
});
