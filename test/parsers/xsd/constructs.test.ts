import { describe, expect, it } from "vitest";
import type { Group } from "../../../src/ir/model.js";
import { NS, el, one, opt, parseXsdText, recordOf, ref, s, typeOf } from "./util.js";

describe("complex types", () => {
  it("sequence: fields in order with occurs (bounded maxOccurs stays a number), nillable, default and fixed", () => {
    const ir = parseXsdText(`
      <xsd:complexType name="T"><xsd:sequence>
        <xsd:element name="a" type="xsd:string"/>
        <xsd:element name="b" type="xsd:int" minOccurs="0" maxOccurs="unbounded" nillable="true"/>
        <xsd:element name="c" type="xsd:boolean" minOccurs="0" maxOccurs="5" default="true"/>
        <xsd:element name="d" type="xsd:string" fixed="x"/>
      </xsd:sequence></xsd:complexType>`);
    expect(recordOf(ir, "T").members).toMatchObject([
      { kind: "field", name: "a", type: s("string"), occurs: one, nullable: false, wire: el() },
      { name: "b", type: s("int32", "xsd:int"), occurs: { min: 0, max: "unbounded" }, nullable: true },
      { name: "c", occurs: { min: 0, max: 5 }, default: "true" },
      { name: "d", fixed: "x" },
    ]);
  });

  it("all: a top-level all is flattened like a sequence", () => {
    const ir = parseXsdText(`<xsd:complexType name="T"><xsd:all><xsd:element name="a" type="xsd:string"/><xsd:element name="b" type="xsd:string" minOccurs="0"/></xsd:all></xsd:complexType>`);
    expect(recordOf(ir, "T").members).toMatchObject([{ name: "a", occurs: one }, { name: "b", occurs: opt }]);
  });

  it("choice and nested compositors become Groups", () => {
    const ir = parseXsdText(`
      <xsd:complexType name="T"><xsd:sequence>
        <xsd:element name="a" type="xsd:string"/>
        <xsd:choice minOccurs="0" maxOccurs="unbounded">
          <xsd:element name="b" type="xsd:string"/>
          <xsd:sequence><xsd:element name="c" type="xsd:string"/><xsd:element name="d" type="xsd:string"/></xsd:sequence>
        </xsd:choice>
      </xsd:sequence></xsd:complexType>
      <xsd:complexType name="U"><xsd:choice><xsd:element name="x" type="xsd:string"/><xsd:element name="y" type="xsd:int"/></xsd:choice></xsd:complexType>`);
    expect(recordOf(ir, "T").members).toMatchObject([
      { kind: "field", name: "a" },
      {
        kind: "group",
        compositor: "choice",
        occurs: { min: 0, max: "unbounded" },
        members: [
          { kind: "field", name: "b" },
          { kind: "group", compositor: "sequence", occurs: one, members: [{ name: "c" }, { name: "d" }] },
        ],
      },
    ]);
    expect(recordOf(ir, "U").members).toMatchObject([{ kind: "group", compositor: "choice", members: [{ name: "x" }, { name: "y" }] }]);
  });

  it("a complexType with no content is a record with no members; mixed is kept", () => {
    const ir = parseXsdText(`<xsd:complexType name="E"/><xsd:complexType name="M" mixed="true"><xsd:sequence><xsd:element name="b" type="xsd:string"/></xsd:sequence></xsd:complexType>`);
    expect(recordOf(ir, "E")).toMatchObject({ kind: "record", members: [], name: "E", scope: NS });
    expect(recordOf(ir, "M").mixed).toBe(true);
  });

  it("complexContent extension: base + own members; abstract types", () => {
    const ir = parseXsdText(`
      <xsd:complexType name="Base" abstract="true"><xsd:sequence><xsd:element name="id" type="xsd:string"/></xsd:sequence></xsd:complexType>
      <xsd:complexType name="Sub"><xsd:complexContent><xsd:extension base="tns:Base">
        <xsd:sequence><xsd:element name="extra" type="xsd:int"/></xsd:sequence>
        <xsd:attribute name="flag" type="xsd:boolean"/>
      </xsd:extension></xsd:complexContent></xsd:complexType>`);
    expect(recordOf(ir, "Base").abstract).toBe(true);
    expect(recordOf(ir, "Sub")).toMatchObject({
      base: { id: `xsd:{${NS}}Base`, derivation: "extension" },
      members: [{ name: "extra" }, { name: "flag", wire: { xml: { kind: "attribute" } } }],
    });
    expect(recordOf(ir, "Sub").abstract).toBeUndefined();
  });

  it("complexContent restriction: base with derivation restriction and the restated content", () => {
    const ir = parseXsdText(`
      <xsd:complexType name="Base"><xsd:sequence><xsd:element name="a" type="xsd:string" minOccurs="0"/></xsd:sequence></xsd:complexType>
      <xsd:complexType name="R"><xsd:complexContent><xsd:restriction base="tns:Base">
        <xsd:sequence><xsd:element name="a" type="xsd:string"/></xsd:sequence>
      </xsd:restriction></xsd:complexContent></xsd:complexType>
      <xsd:complexType name="A"><xsd:complexContent><xsd:restriction base="xsd:anyType"><xsd:sequence><xsd:element name="z" type="xsd:string"/></xsd:sequence></xsd:restriction></xsd:complexContent></xsd:complexType>`);
    expect(recordOf(ir, "R")).toMatchObject({ base: { id: `xsd:{${NS}}Base`, derivation: "restriction" }, members: [{ name: "a", occurs: one }] });
    expect(recordOf(ir, "A").base).toBeUndefined();
    expect(recordOf(ir, "A").members).toMatchObject([{ name: "z" }]);
  });

  it("simpleContent extension: a $value text field plus attributes", () => {
    const ir = parseXsdText(`
      <xsd:complexType name="Money"><xsd:simpleContent><xsd:extension base="xsd:decimal">
        <xsd:attribute name="currency" type="xsd:string" use="required"/>
      </xsd:extension></xsd:simpleContent></xsd:complexType>
      <xsd:complexType name="Money2"><xsd:simpleContent><xsd:extension base="tns:Money">
        <xsd:attribute name="note" type="xsd:string"/>
      </xsd:extension></xsd:simpleContent></xsd:complexType>`);
    expect(recordOf(ir, "Money").members).toEqual([
      expect.objectContaining({ name: "$value", type: s("decimal"), occurs: one, wire: { xml: { kind: "text", ns: "", form: "unqualified" } } }),
      expect.objectContaining({ name: "currency", occurs: one, wire: { xml: { kind: "attribute", ns: "", form: "unqualified" } } }),
    ]);
    expect(recordOf(ir, "Money2")).toMatchObject({ base: { id: `xsd:{${NS}}Money`, derivation: "extension" }, members: [{ name: "note", occurs: opt }] });
  });

  it("simpleContent restriction: the inherited value type with the restriction's facets", () => {
    const ir = parseXsdText(`
      <xsd:complexType name="Code"><xsd:simpleContent><xsd:extension base="xsd:string"><xsd:attribute name="lang" type="xsd:string"/></xsd:extension></xsd:simpleContent></xsd:complexType>
      <xsd:complexType name="Short"><xsd:simpleContent><xsd:restriction base="tns:Code"><xsd:maxLength value="3"/></xsd:restriction></xsd:simpleContent></xsd:complexType>`);
    expect(recordOf(ir, "Short")).toMatchObject({
      base: { id: `xsd:{${NS}}Code`, derivation: "restriction" },
      members: [{ name: "$value", type: s("string"), facets: { maxLength: 3 } }],
    });
  });
});

describe("simple types", () => {
  it("restriction with enumerations -> EnumType with the base scalar", () => {
    const ir = parseXsdText(`
      <xsd:simpleType name="Color"><xsd:annotation><xsd:documentation>Colours.</xsd:documentation></xsd:annotation>
        <xsd:restriction base="xsd:token"><xsd:enumeration value="red"/><xsd:enumeration value="green"><xsd:annotation><xsd:documentation>Go</xsd:documentation></xsd:annotation></xsd:enumeration></xsd:restriction></xsd:simpleType>
      <xsd:simpleType name="Level"><xsd:restriction base="xsd:int"><xsd:enumeration value="1"/><xsd:enumeration value="2"/></xsd:restriction></xsd:simpleType>
      <xsd:simpleType name="Warm"><xsd:restriction base="tns:Color"><xsd:enumeration value="red"/></xsd:restriction></xsd:simpleType>`);
    expect(typeOf(ir, "Color")).toMatchObject({
      kind: "enum",
      doc: "Colours.",
      base: s("string", "xsd:token"),
      values: [{ name: "red", value: "red" }, { name: "green", value: "green", doc: "Go" }],
    });
    expect(typeOf(ir, "Level")).toMatchObject({ kind: "enum", base: s("int32", "xsd:int"), values: [{ value: "1" }, { value: "2" }] });
    expect(typeOf(ir, "Warm")).toMatchObject({ kind: "enum", base: s("string", "xsd:token"), values: [{ value: "red" }] });
  });

  it("restriction with other facets -> AliasType with Facets (patterns joined, bounds as strings)", () => {
    const ir = parseXsdText(`
      <xsd:simpleType name="ID"><xsd:restriction base="xsd:string"><xsd:length value="18"/><xsd:pattern value="[a-z]+"/><xsd:pattern value="[0-9]+"/><xsd:whiteSpace value="collapse"/></xsd:restriction></xsd:simpleType>
      <xsd:simpleType name="Name"><xsd:restriction base="xsd:string"><xsd:minLength value="1"/><xsd:maxLength value="80"/></xsd:restriction></xsd:simpleType>
      <xsd:simpleType name="Amount"><xsd:restriction base="xsd:decimal"><xsd:minInclusive value="0"/><xsd:maxInclusive value="99999999999999999999.99"/><xsd:totalDigits value="22"/><xsd:fractionDigits value="2"/></xsd:restriction></xsd:simpleType>
      <xsd:simpleType name="Open"><xsd:restriction base="xsd:long"><xsd:minExclusive value="-1"/><xsd:maxExclusive value="9223372036854775807"/></xsd:restriction></xsd:simpleType>
      <xsd:simpleType name="Plain"><xsd:restriction base="tns:Name"/></xsd:simpleType>`);
    expect(typeOf(ir, "ID")).toEqual(
      expect.objectContaining({ kind: "alias", target: s("string"), facets: { length: 18, patterns: ["[a-z]+|[0-9]+"], whiteSpace: "collapse" } }),
    );
    expect(typeOf(ir, "Name")).toMatchObject({ facets: { minLength: 1, maxLength: 80 } });
    expect(typeOf(ir, "Amount")).toMatchObject({
      target: s("decimal"),
      facets: { minInclusive: "0", maxInclusive: "99999999999999999999.99", totalDigits: 22, fractionDigits: 2 },
    });
    expect(typeOf(ir, "Open")).toMatchObject({ facets: { minExclusive: "-1", maxExclusive: "9223372036854775807" } });
    expect(typeOf(ir, "Plain")).toEqual(expect.objectContaining({ kind: "alias", target: ref("Name") }));
    expect("facets" in typeOf(ir, "Plain")).toBe(false);
  });

  it("list -> alias of ListType; union -> alias of UnionExpr (inline members become anonymous types)", () => {
    const ir = parseXsdText(`
      <xsd:simpleType name="Ints"><xsd:list itemType="xsd:int"/></xsd:simpleType>
      <xsd:simpleType name="Words"><xsd:list><xsd:simpleType><xsd:restriction base="xsd:string"><xsd:maxLength value="5"/></xsd:restriction></xsd:simpleType></xsd:list></xsd:simpleType>
      <xsd:simpleType name="U"><xsd:union memberTypes="xsd:int tns:Ints"><xsd:simpleType><xsd:restriction base="xsd:string"><xsd:enumeration value="none"/></xsd:restriction></xsd:simpleType></xsd:union></xsd:simpleType>`);
    expect(typeOf(ir, "Ints")).toMatchObject({ kind: "alias", target: { kind: "list", of: s("int32", "xsd:int") } });
    expect(typeOf(ir, "Words")).toMatchObject({ target: { kind: "list", of: ref("Words.item") } });
    expect(typeOf(ir, "Words.item")).toMatchObject({ kind: "alias", name: "WordsItem", anonymous: true, facets: { maxLength: 5 } });
    expect(typeOf(ir, "U")).toMatchObject({ target: { kind: "union", of: [s("int32", "xsd:int"), ref("Ints"), ref("U.member1")] } });
    expect(typeOf(ir, "U.member1")).toMatchObject({ kind: "enum", anonymous: true, name: "UMember1" });
  });
});

describe("attributes, groups, wildcards, references", () => {
  it("attributes: use=required -> min 1, default/fixed, prohibited dropped, qualified by attributeFormDefault", () => {
    const ir = parseXsdText(
      `<xsd:complexType name="T">
        <xsd:attribute name="a" type="xsd:string" use="required"/>
        <xsd:attribute name="b" type="xsd:int" default="3"/>
        <xsd:attribute name="c" type="xsd:string" fixed="x" form="unqualified"/>
        <xsd:attribute name="d" type="xsd:string" use="prohibited"/>
        <xsd:attribute name="e"><xsd:simpleType><xsd:restriction base="xsd:string"><xsd:enumeration value="y"/></xsd:restriction></xsd:simpleType></xsd:attribute>
        <xsd:attribute ref="xml:lang"/>
      </xsd:complexType>`,
      `attributeFormDefault="qualified"`,
    );
    expect(recordOf(ir, "T").members).toMatchObject([
      { name: "a", occurs: one, nullable: false, wire: { xml: { kind: "attribute", ns: NS, form: "qualified" } } },
      { name: "b", occurs: opt, default: "3", type: s("int32", "xsd:int") },
      { name: "c", fixed: "x", wire: { xml: { ns: "", form: "unqualified" } } },
      { name: "e", type: ref("T.e") },
      { name: "lang", type: s("string"), wire: { xml: { kind: "attribute", ns: "http://www.w3.org/XML/1998/namespace", form: "qualified" } } },
    ]);
    expect(typeOf(ir, "T.e")).toMatchObject({ kind: "enum", name: "TE", anonymous: true });
  });

  it("attributeGroup refs are inlined (nested), global attribute refs are qualified; anyAttribute", () => {
    const ir = parseXsdText(`
      <xsd:attribute name="g" type="xsd:string"/>
      <xsd:attributeGroup name="Inner"><xsd:attribute name="i" type="xsd:int"/><xsd:anyAttribute namespace="##other" processContents="lax"/></xsd:attributeGroup>
      <xsd:attributeGroup name="Outer"><xsd:attribute name="o" type="xsd:string"/><xsd:attributeGroup ref="tns:Inner"/></xsd:attributeGroup>
      <xsd:complexType name="T"><xsd:attributeGroup ref="tns:Outer"/><xsd:attribute ref="tns:g" use="required"/></xsd:complexType>`);
    const t = recordOf(ir, "T");
    expect(t.members).toMatchObject([
      { name: "o" },
      { name: "i" },
      { name: "g", occurs: one, wire: { xml: { kind: "attribute", ns: NS, form: "qualified" } } },
    ]);
    expect(t.anyAttribute).toEqual({ namespace: "##other", processContents: "lax" });
  });

  it("xsd:group ref is inlined as a named Group with the ref's occurs", () => {
    const ir = parseXsdText(`
      <xsd:group name="Addr"><xsd:sequence><xsd:element name="street" type="xsd:string"/><xsd:element name="city" type="xsd:string"/></xsd:sequence></xsd:group>
      <xsd:complexType name="T"><xsd:sequence><xsd:element name="name" type="xsd:string"/><xsd:group ref="tns:Addr" minOccurs="0"/></xsd:sequence></xsd:complexType>`);
    expect(recordOf(ir, "T").members).toMatchObject([
      { kind: "field", name: "name" },
      { kind: "group", compositor: "sequence", name: "Addr", occurs: opt, members: [{ name: "street" }, { name: "city" }] },
    ]);
  });

  it("element refs: named after the referenced element, with wire.xml.ref, its namespace, qualified", () => {
    const ir = parseXsdText(
      `<xsd:element name="item" type="xsd:string" nillable="true"/>
      <xsd:complexType name="T"><xsd:sequence><xsd:element ref="tns:item" maxOccurs="unbounded"/></xsd:sequence></xsd:complexType>`,
      `elementFormDefault="unqualified"`,
    );
    expect(recordOf(ir, "T").members[0]).toEqual(
      expect.objectContaining({
        name: "item",
        type: s("string"),
        nullable: true,
        occurs: { min: 0 + 1, max: "unbounded" },
        wire: { xml: { kind: "element", ns: NS, form: "qualified", ref: `xsd-element:{${NS}}item` } },
      }),
    );
  });

  it("xsd:any -> OpenContent with namespace, processContents and occurs", () => {
    const ir = parseXsdText(`<xsd:complexType name="T"><xsd:sequence>
      <xsd:any namespace="##other" processContents="lax" minOccurs="0" maxOccurs="unbounded"/><xsd:any/>
    </xsd:sequence></xsd:complexType>`);
    expect(recordOf(ir, "T").members).toMatchObject([
      { kind: "any", name: "$any", namespace: "##other", processContents: "lax", occurs: { min: 0, max: "unbounded" } },
      { kind: "any", name: "$any2", namespace: "##any", processContents: "strict", occurs: one },
    ]);
  });

  it("element form: unqualified local elements have ns '' (elementFormDefault and form=)", () => {
    const ir = parseXsdText(
      `<xsd:complexType name="T"><xsd:sequence><xsd:element name="a" type="xsd:string"/><xsd:element name="b" type="xsd:string" form="qualified"/></xsd:sequence></xsd:complexType>`,
      "",
    );
    expect(recordOf(ir, "T").members).toMatchObject([{ wire: el("", "unqualified") }, { wire: el(NS, "qualified") }]);
  });
});

describe("global elements and anonymous types", () => {
  it("element with a named type -> ElementDecl with a type ref; abstract, substitutionGroup, nillable, doc", () => {
    const ir = parseXsdText(`
      <xsd:complexType name="Shape"/>
      <xsd:element name="shape" type="tns:Shape" abstract="true"/>
      <xsd:element name="circle" type="tns:Shape" substitutionGroup="tns:shape" nillable="true">
        <xsd:annotation><xsd:documentation>  A   circle.
            Round. </xsd:documentation></xsd:annotation>
      </xsd:element>
      <xsd:element name="square" substitutionGroup="tns:shape"/>`);
    expect(ir.elements).toEqual([
      expect.objectContaining({ id: `xsd-element:{${NS}}shape`, name: { ns: NS, local: "shape" }, type: ref("Shape"), abstract: true, nullable: false }),
      expect.objectContaining({ id: `xsd-element:{${NS}}circle`, substitutionGroup: `xsd-element:{${NS}}shape`, nullable: true, doc: "A circle.\nRound." }),
      expect.objectContaining({ name: { ns: NS, local: "square" }, type: ref("Shape") }),
    ]);
  });

  it("element with an anonymous type -> anonymous named type after the element; nested ones Parent.child / ParentChild", () => {
    const ir = parseXsdText(`
      <xsd:element name="login"><xsd:complexType><xsd:sequence>
        <xsd:element name="options"><xsd:complexType><xsd:sequence><xsd:element name="x" type="xsd:int"/></xsd:sequence></xsd:complexType></xsd:element>
        <xsd:element name="mode"><xsd:simpleType><xsd:restriction base="xsd:string"><xsd:maxLength value="2"/></xsd:restriction></xsd:simpleType></xsd:element>
      </xsd:sequence></xsd:complexType></xsd:element>`);
    expect(ir.types.map((t) => [t.id, t.name, t.anonymous])).toEqual([
      [`xsd:{${NS}}login`, "login", true],
      [`xsd:{${NS}}login.options`, "loginOptions", true],
      [`xsd:{${NS}}login.mode`, "loginMode", true],
    ]);
    expect(ir.elements[0]).toMatchObject({ type: ref("login") });
    expect(recordOf(ir, "login").members).toMatchObject([{ name: "options", type: ref("login.options") }, { name: "mode", type: ref("login.mode") }]);
  });

  it("anonymous ids never collide with named types", () => {
    const ir = parseXsdText(`<xsd:complexType name="login"/><xsd:element name="login"><xsd:complexType/></xsd:element>`);
    expect(ir.types.map((t) => t.id)).toEqual([`xsd:{${NS}}login`, `xsd:{${NS}}login#2`]);
  });

  it("records origins with file, position, XPath pointer and construct; docs on types and fields", () => {
    const ir = parseXsdText(`<xsd:complexType name="SaveResult">
  <xsd:annotation><xsd:documentation>Result.</xsd:documentation></xsd:annotation>
  <xsd:sequence><xsd:element name="id" type="xsd:string"><xsd:annotation><xsd:documentation>The id</xsd:documentation></xsd:annotation></xsd:element></xsd:sequence>
</xsd:complexType>`);
    const t = recordOf(ir, "SaveResult");
    expect(t.origin).toEqual({
      file: "a.xsd",
      line: 2,
      column: 1,
      pointer: "/xsd:schema/xsd:complexType[@name='SaveResult']",
      construct: `xsd complexType {${NS}}SaveResult`,
    });
    expect(t.doc).toBe("Result.");
    expect(t.members[0]).toMatchObject({
      doc: "The id",
      origin: { line: 4, column: 17, pointer: "/xsd:schema/xsd:complexType[@name='SaveResult']/xsd:sequence/xsd:element[@name='id']" },
    });
    expect((t.members[0] as Group).origin.construct).toBe(`xsd element id in {${NS}}SaveResult`);
  });

  it("keeps declaration order and is deterministic", () => {
    const body = `<xsd:simpleType name="Z"><xsd:restriction base="xsd:string"/></xsd:simpleType>
      <xsd:element name="e" type="tns:A"/><xsd:complexType name="A"/><xsd:complexType name="B"/>`;
    const a = parseXsdText(body);
    expect(a.types.map((t) => t.name)).toEqual(["Z", "A", "B"]);
    expect(JSON.stringify(parseXsdText(body))).toBe(JSON.stringify(a));
    expect(a).toMatchObject({ format: "xsd", entry: "a.xsd", files: ["a.xsd"], services: [], extensions: [], info: { namespaces: [NS] } });
  });
});
