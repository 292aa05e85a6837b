/**
 * A repeating sequence of bounded elements (`<xs:sequence maxOccurs="2"><x1/><x2/></xs:sequence>`) keeps one array
 * per element; the encoder writes them in rounds, up to each element's maxOccurs per round in sequence order
 * (x1 x2 x1 x2), where it wrote each array whole (x1 x1 x2 x2, which libxml2 rejects: W3C suite groupH014v,
 * particlesA006/A007, Eb027/Eb036/Eb038, Q013, V003). libxml2 judges the output.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { generateInlineXsd } from "../../helpers/xsd-inline.js";
import { xmllintValidate } from "./helpers/xmllint.js";

type Fn = (v: unknown) => unknown;
const xsd = `<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema">
  <xs:element name="pairs"><xs:complexType><xs:sequence minOccurs="2" maxOccurs="2">
    <xs:element name="x1" type="xs:string"/><xs:element name="x2" type="xs:int"/>
  </xs:sequence></xs:complexType></xs:element>
  <xs:element name="twos"><xs:complexType><xs:sequence>
    <xs:element name="head" type="xs:string"/>
    <xs:sequence maxOccurs="2"><xs:element name="e1" type="xs:string" minOccurs="2" maxOccurs="2"/><xs:element name="e2" type="xs:string" minOccurs="2" maxOccurs="2" nillable="true"/></xs:sequence>
  </xs:sequence></xs:complexType></xs:element>
  <xs:element name="optional"><xs:complexType><xs:sequence maxOccurs="unbounded">
    <xs:element name="a" type="xs:string"/><xs:element name="b" type="xs:string" minOccurs="0"/>
  </xs:sequence></xs:complexType></xs:element>
</xs:schema>`;
const XSI = `xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"`;

describe("a repeating sequence of bounded elements", () => {
  const gen = generateInlineXsd(xsd);
  const m = gen.load() as Record<string, Fn>;
  const file = path.join(mkdtempSync(path.join(os.tmpdir(), "specforge-rounds-")), "rounds.xsd");
  writeFileSync(file, xsd);

  it("type-checks strict, one array per element as before", () => {
    expect(gen.typecheck()).toEqual([]);
    expect(gen.files.get("types.ts")).toMatch(/x1: \[string, \.\.\.string\[\]\];/);
  });

  it("is written back in sequence order, round by round, and libxml2 finds it valid", () => {
    const docs = [
      ["Pairs", `<pairs ${XSI}><x1>a</x1><x2>1</x2><x1>b</x1><x2>2</x2></pairs>`, { x1: ["a", "b"], x2: [1, 2] }],
      ["Twos", `<twos ${XSI}><head>h</head><e1>1</e1><e1>2</e1><e2>3</e2><e2 xsi:nil="true"/><e1>5</e1><e1>6</e1><e2>7</e2><e2>8</e2></twos>`,
        { head: "h", e1: ["1", "2", "5", "6"], e2: ["3", null, "7", "8"] }],
      ["Optional", `<optional ${XSI}><a>1</a><b>2</b><a>3</a></optional>`, { a: ["1", "3"], b: ["2"] }],
    ] as const;
    const outs: string[] = [];
    for (const [el, doc, value] of docs) {
      const v = m[`decode${el}Element`]!(doc);
      expect(v).toEqual(value);
      const out = m[`encode${el}Element`]!(v) as string;
      expect(out).toBe(doc);
      outs.push(out);
    }
    expect(xmllintValidate(file, outs)).toEqual([]);
  });

  it("still refuses a required array that is missing", () => {
    expect(() => m.encodePairsElement!({ x1: ["a", "b"] })).toThrow(/x2/);
  });
});
