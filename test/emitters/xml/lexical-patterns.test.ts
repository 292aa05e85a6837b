/**
 * Pattern facets constrain the instance's text. Numbers, booleans and binary values do not keep it (1E-100 is read
 * as 1e-100), so xml.ts checks their patterns on the text as it decodes (validate.ts cannot: W3C XSD suite NIST
 * `*-pattern` groups for double, float, integers, lists of them; issue 27). Patterns of each restriction step must
 * all hold.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { generateInlineXsd } from "../../helpers/xsd-inline.js";
import { xmllintValidate } from "./helpers/xmllint.js";

/** A schema written to a temporary file, for xmllint. */
function schemaFile(xsd: string): string {
  const file = path.join(mkdtempSync(path.join(os.tmpdir(), "specforge-lexical-")), "schema.xsd");
  writeFileSync(file, xsd);
  return file;
}

const gen = generateInlineXsd(`<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema">
  <xs:simpleType name="Sci"><xs:restriction base="xs:double"><xs:pattern value="\\d{1}E\\-\\d{3}"/></xs:restriction></xs:simpleType>
  <xs:simpleType name="SciOne"><xs:restriction base="Sci"><xs:pattern value="1.*"/></xs:restriction></xs:simpleType>
  <xs:simpleType name="Digits"><xs:restriction><xs:simpleType><xs:list itemType="xs:int"/></xs:simpleType><xs:pattern value="\\d \\d"/></xs:restriction></xs:simpleType>
  <xs:simpleType name="Tokens"><xs:restriction base="xs:NMTOKENS"><xs:maxLength value="2"/></xs:restriction></xs:simpleType>
  <xs:element name="sci" type="SciOne"/>
  <xs:element name="r"><xs:complexType><xs:sequence><xs:element name="a" type="Sci"/><xs:element name="b" type="Digits"/></xs:sequence><xs:attribute name="c" type="Sci"/></xs:complexType></xs:element>
</xs:schema>`);
type Fn = (x: unknown) => unknown;
const m = gen.load() as Record<string, Fn>;

describe("patterns of types that lose their lexical form", () => {
  it("type-check strict", () => {
    expect(gen.typecheck()).toEqual([]);
  });

  it("are checked on the text when decoding, every step's", () => {
    expect(m.decodeSciElement!("<sci> 1E-100 </sci>")).toBe(1e-100);
    expect(() => m.decodeSciElement!("<sci>2E-100</sci>")).toThrow(/does not match the pattern 1\.\*/);
    expect(() => m.decodeSciElement!("<sci>1.0E-100</sci>")).toThrow(/does not match the pattern \\d\{1\}E/);
    expect(m.decodeRElement!('<r c="3E-003"><a>2E-010</a><b> 1\n 2 </b></r>')).toEqual({ a: 2e-10, b: [1, 2], c: 3e-3 });
    expect(() => m.decodeRElement!('<r c="3E-3"><a>2E-010</a><b>1 2</b></r>')).toThrow(/\/c: "3E-3" does not match/);
    expect(() => m.decodeRElement!("<r><a>2E-010</a><b>12 2</b></r>")).toThrow(/\/b: "12 2" does not match/);
  });

  it("leave validate.ts a comment, not a check on the value", () => {
    expect(gen.files.get("validate.ts")).toContain("// pattern checked by the decoder (the value of double does not keep its lexical form)");
    expect((m.validateSciOne as Fn)(1e-100)).toEqual([]);
  });
});

describe("length facets of NMTOKENS", () => {
  it("count tokens", () => {
    const issues = (v: string) => ((m.validateTokens as Fn)(v) as { rule: string }[]).map((i) => i.rule);
    expect(issues("abc def")).toEqual([]);
    expect(issues("a b c")).toEqual(["maxLength"]);
  });
});

describe("writing values whose patterns the decoder checks", () => {
  const g = generateInlineXsd(`<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema">
    <xs:simpleType name="One"><xs:restriction base="xs:boolean"><xs:pattern value="[01]"/></xs:restriction></xs:simpleType>
    <xs:simpleType name="Sci"><xs:restriction base="xs:double"><xs:pattern value="\\d{1}\\.\\d{8}E\\-\\d{2}"/></xs:restriction></xs:simpleType>
    <xs:simpleType name="Fixed"><xs:restriction base="xs:float"><xs:pattern value="\\d\\.\\d{4}"/></xs:restriction></xs:simpleType>
    <xs:simpleType name="Two"><xs:restriction base="xs:float"><xs:pattern value="\\d{2}E\\-\\d{1}"/></xs:restriction></xs:simpleType>
    <xs:simpleType name="Point"><xs:restriction base="xs:double"><xs:pattern value="\\.\\d{2}E\\-\\d{1}"/></xs:restriction></xs:simpleType>
    <xs:element name="one" type="One"/><xs:element name="sci" type="Sci"/><xs:element name="fixed" type="Fixed"/>
    <xs:simpleType name="Flags"><xs:restriction><xs:simpleType><xs:list itemType="xs:boolean"/></xs:simpleType><xs:pattern value="[1]{1} false [0]{1} true"/></xs:restriction></xs:simpleType>
    <xs:element name="two" type="Two"/><xs:element name="point" type="Point"/><xs:element name="flags" type="Flags"/>
  </xs:schema>`);
  const w = g.load() as Record<string, Fn>;

  it("type-check strict", () => {
    expect(g.typecheck()).toEqual([]);
  });

  it("write a lexical form of the value the patterns allow, which reads back as the same value", () => {
    for (const [el, text, value] of [["one", "1", true], ["one", "0", false], ["sci", "4.54918975E-08", 4.54918975e-8], ["fixed", "0.0100", 0.01],
      // NIST float-pattern-2: two digits before the point (62E-1 is 6.2: not 60E-1, which the pattern allows too).
      ["two", "62E-1", 6.2], ["two", "42E-2", 0.42], ["point", ".48E-3", 0.00048]] as const) {
      const E = el[0]!.toUpperCase() + el.slice(1);
      const decoded = w[`decode${E}Element`]!(`<${el}>${text}</${el}>`);
      expect(decoded).toBe(value);
      const out = w[`encode${E}Element`]!(decoded) as string;
      expect(out).toContain(`>${text}</`);
      expect(w[`decode${E}Element`]!(out)).toBe(value);
    }
  });

  it("write a list of booleans in the form the pattern wants at each position", () => {
    const flags = w.decodeFlagsElement!("<flags>1 false 0 true</flags>");
    expect(flags).toEqual([true, false, false, true]);
    const out = w.encodeFlagsElement!(flags) as string;
    expect(out).toContain(">1 false 0 true</");
    expect(w.decodeFlagsElement!(out)).toEqual(flags);
  });
});

describe("helper names come from the naming pass", () => {
  // `Sci`'s patterns constant wants `checkLexicalSciPatterns`, the check of a type named `SciPatterns` too; built by
  // concatenation the two were one identifier declared twice (TS2451) in xml.ts.
  const clash = generateInlineXsd(`<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema">
    <xs:simpleType name="Sci"><xs:restriction base="xs:double"><xs:pattern value="\\d{1}E\\-\\d{3}"/></xs:restriction></xs:simpleType>
    <xs:simpleType name="SciPatterns"><xs:restriction base="xs:double"><xs:pattern value="\\d{2}E\\-\\d{1}"/></xs:restriction></xs:simpleType>
    <xs:element name="r"><xs:complexType><xs:sequence><xs:element name="a" type="Sci"/><xs:element name="b" type="SciPatterns"/></xs:sequence></xs:complexType></xs:element>
  </xs:schema>`);
  const c = clash.load() as Record<string, Fn>;

  it("a type named like another's helper gets distinct names, strict-clean, and both checks still run", () => {
    expect(clash.typecheck()).toEqual([]);
    const xml = clash.files.get("xml.ts")!;
    expect(xml).toContain("function checkLexicalSciPatterns(");
    expect(xml).toContain("const checkLexicalPatternsOfSci: ");
    expect(c.decodeRElement!("<r><a>2E-010</a><b>12E-1</b></r>")).toEqual({ a: 2e-10, b: 1.2 });
    expect(() => c.decodeRElement!("<r><a>2E-10</a><b>12E-1</b></r>")).toThrow(/\/a: "2E-10" does not match/);
    expect(() => c.decodeRElement!("<r><a>2E-010</a><b>1E-1</b></r>")).toThrow(/\/b: "1E-1" does not match/);
  });
});

/**
 * A pattern on a list of floats or doubles tests the whole list, each item in its own notation (NIST
 * list-float-pattern-1: "4E-11 .24E-4 1.26E4 9.652E25 8.7382455E-25"). The writer gives each item a form the pattern's
 * part at its position allows (the pattern split at its top-level spaces), then tests the joined list against the
 * whole pattern; libxml2 judges the output.
 */
describe("writing lists of floats and doubles whose whole-list pattern the decoder checks", () => {
  const xsd = `<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema">
    <xs:simpleType name="Floats"><xs:list itemType="xs:float"/></xs:simpleType>
    <xs:simpleType name="FloatRow"><xs:restriction base="Floats"><xs:pattern value="\\d{1}E\\-\\d{2} \\.\\d{2}E\\-\\d{1} \\d{1}\\.\\d{2}E\\d{1} \\d{1}\\.\\d{3}E\\d{2} \\d{1}\\.\\d{7}E\\-\\d{2}"/></xs:restriction></xs:simpleType>
    <xs:simpleType name="DoubleRow"><xs:restriction><xs:simpleType><xs:list itemType="xs:double"/></xs:simpleType><xs:pattern value="\\d{1}E\\-\\d{3} \\d{1}\\.\\d{2}E\\-\\d{2} \\d{1}\\.\\d{4}E\\-\\d{1}"/></xs:restriction></xs:simpleType>
    <xs:simpleType name="Either"><xs:restriction base="Floats"><xs:pattern value="\\d\\.\\dE\\d \\d|\\d\\.\\d{3}"/></xs:restriction></xs:simpleType>
    <xs:element name="floats" type="FloatRow"/><xs:element name="doubles" type="DoubleRow"/><xs:element name="either" type="Either"/>
  </xs:schema>`;
  const g = generateInlineXsd(xsd);
  const w = g.load() as Record<string, Fn>;

  it("type-check strict", () => {
    expect(g.typecheck()).toEqual([]);
  });

  it("write every item in the form its position wants, and the output reads back and is schema-valid", () => {
    const outs: string[] = [];
    for (const [el, text, value] of [
      ["floats", "4E-11 .24E-4 1.26E4 9.652E25 8.7382455E-25", [4e-11, 0.000024, 12600, 9.652e25, 8.7382455e-25]],
      ["doubles", "6E-255 6.75E-96 1.5674E-2", [6e-255, 6.75e-96, 0.015674]],
      // A top-level "|": no parts to line up; one item takes a form the whole pattern allows.
      ["either", "1.500", [1.5]],
    ] as const) {
      const E = el[0]!.toUpperCase() + el.slice(1);
      const decoded = w[`decode${E}Element`]!(`<${el}>${text}</${el}>`);
      expect(decoded).toEqual(value);
      const out = w[`encode${E}Element`]!(decoded) as string;
      expect(out).toContain(`>${text}</`);
      expect(w[`decode${E}Element`]!(out)).toEqual(value);
      outs.push(out);
    }
    expect(xmllintValidate(schemaFile(xsd), outs)).toEqual([]);
  });

  it("still refuse a list that does not match", () => {
    expect(() => w.decodeFloatsElement!("<floats>4E-11 0.000024 1.26E4 9.652E25 8.7382455E-25</floats>")).toThrow(/does not match the pattern/);
  });
});
