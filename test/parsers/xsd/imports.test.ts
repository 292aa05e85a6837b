import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { nodeSpecHost } from "../../../src/parsers/host.js";
import { parseWsdl } from "../../../src/parsers/wsdl/index.js";
import { NS, XSD, parseFiles, recordOf, ref, schema, typeOf } from "./util.js";

const wsdl = (types: string, extra = "") =>
  `<definitions xmlns="http://schemas.xmlsoap.org/wsdl/" xmlns:xsd="${XSD}" targetNamespace="urn:w"><types>${types}</types>${extra}</definitions>`;

describe("schema composition", () => {
  it("several schemas in one WSDL import each other by namespace only", () => {
    const ir = parseFiles("/spec/a.wsdl", {
      "/spec/a.wsdl": wsdl(`
        <xsd:schema targetNamespace="urn:one" xmlns:two="urn:two"><xsd:import namespace="urn:two"/>
          <xsd:complexType name="A"><xsd:sequence><xsd:element name="b" type="two:B"/></xsd:sequence></xsd:complexType></xsd:schema>
        <xsd:schema targetNamespace="urn:two"><xsd:complexType name="B"/></xsd:schema>`),
    });
    expect(recordOf(ir, "A", "urn:one").members[0]).toMatchObject({ type: ref("B", "urn:two") });
    expect(ir.types.map((t) => t.origin.pointer)).toEqual([
      "/wsdl:definitions/wsdl:types/xsd:schema[1]/xsd:complexType[@name='A']",
      "/wsdl:definitions/wsdl:types/xsd:schema[2]/xsd:complexType[@name='B']",
    ]);
    expect(ir.info.namespaces).toEqual(["urn:one", "urn:two"]);
  });

  it("xsd:import and xsd:include of relative files (chameleon include takes the includer's namespace)", () => {
    const ir = parseFiles("/spec/main.xsd", {
      "/spec/main.xsd": schema(`
        <xsd:import namespace="urn:other" schemaLocation="sub/other.xsd"/>
        <xsd:include schemaLocation="common.xsd"/>
        <xsd:complexType name="T" xmlns:o="urn:other"><xsd:sequence>
          <xsd:element name="o" type="o:O"/><xsd:element name="c" type="tns:Common"/>
        </xsd:sequence></xsd:complexType>`),
      "/spec/sub/other.xsd": `<xsd:schema xmlns:xsd="${XSD}" targetNamespace="urn:other" xmlns:o="urn:other"><xsd:include schemaLocation="more.xsd"/><xsd:complexType name="O"><xsd:sequence><xsd:element name="m" type="o:More"/></xsd:sequence></xsd:complexType></xsd:schema>`,
      "/spec/sub/more.xsd": `<xsd:schema xmlns:xsd="${XSD}" targetNamespace="urn:other"><xsd:complexType name="More"/></xsd:schema>`,
      "/spec/common.xsd": `<xsd:schema xmlns:xsd="${XSD}"><xsd:complexType name="Common"><xsd:sequence><xsd:element name="x" type="Inner"/></xsd:sequence></xsd:complexType><xsd:complexType name="Inner"/></xsd:schema>`,
    });
    expect(ir.files).toEqual(["main.xsd", "sub/other.xsd", "common.xsd", "sub/more.xsd"]);
    expect(ir.types.map((t) => t.id)).toEqual([
      `xsd:{${NS}}T`,
      "xsd:{urn:other}O",
      `xsd:{${NS}}Common`,
      `xsd:{${NS}}Inner`,
      "xsd:{urn:other}More",
    ]);
    expect(recordOf(ir, "Common").members[0]).toMatchObject({ type: ref("Inner") });
    expect(typeOf(ir, "O", "urn:other").origin.file).toBe("sub/other.xsd");
  });

  it("SOAP-encoded array restriction -> record with one repeated item field typed by wsdl:arrayType", () => {
    const ir = parseFiles("/spec/a.wsdl", {
      "/spec/a.wsdl": wsdl(`<xsd:schema targetNamespace="${NS}" xmlns:tns="${NS}" xmlns:enc="http://schemas.xmlsoap.org/soap/encoding/" xmlns:w="http://schemas.xmlsoap.org/wsdl/">
        <xsd:import namespace="http://schemas.xmlsoap.org/soap/encoding/"/>
        <xsd:complexType name="Item"/>
        <xsd:complexType name="Items"><xsd:complexContent><xsd:restriction base="enc:Array">
          <xsd:attribute ref="enc:arrayType" w:arrayType="tns:Item[]"/></xsd:restriction></xsd:complexContent></xsd:complexType>
        <xsd:complexType name="Names"><xsd:complexContent><xsd:restriction base="enc:Array">
          <xsd:sequence><xsd:element name="name" type="xsd:string" minOccurs="0" maxOccurs="unbounded"/></xsd:sequence>
          <xsd:attribute ref="enc:arrayType" w:arrayType="xsd:string[]"/></xsd:restriction></xsd:complexContent></xsd:complexType>
      </xsd:schema>`),
    });
    const items = recordOf(ir, "Items");
    expect(items.base).toBeUndefined();
    expect(items.members).toEqual([
      expect.objectContaining({ name: "item", type: ref("Item"), occurs: { min: 0, max: "unbounded" }, nullable: true }),
    ]);
    expect(recordOf(ir, "Names").members).toEqual([expect.objectContaining({ name: "name", occurs: { min: 0, max: "unbounded" } })]);
  });
});

/**
 * A local schemaLocation is a hint (XSD 1.0 Part 1 §4.2.1 include, §4.2.3 import; W3C suite MS-Schema schD7,
 * schG8): a file that is not there is a located warning and the schema is left out. A remote location the catalog
 * does not map, and a file that exists but cannot be read, stay errors.
 */
describe("a missing local schemaLocation", () => {
  it("on xsd:import and xsd:include is a located warning; the rest of the schema is lowered", () => {
    const ir = parseFiles("/spec/a.xsd", {
      "/spec/a.xsd": schema(`<xsd:import namespace="urn:gone" schemaLocation="not-exist.xsd"/>\n<xsd:include schemaLocation="../other/gone.xsd"/>\n<xsd:element name="e" type="xsd:int"/>`),
    });
    expect(ir.elements.map((e) => e.name.local)).toEqual(["e"]);
    expect(ir.files).toEqual(["a.xsd"]);
    expect(ir.warnings).toEqual([
      { file: "/spec/a.xsd", line: 2, column: 1, detail: "xsd:import schemaLocation 'not-exist.xsd': no such file; the imported schema is left out (a schemaLocation is a hint, XSD 1.0 §4.2.3)" },
      {
        file: "/spec/a.xsd",
        line: 3,
        column: 1,
        detail: "xsd:include schemaLocation '../other/gone.xsd': no such file; the included schema is left out (a schemaLocation is a hint, XSD 1.0 §4.2.1) (if the file is elsewhere, map /other/gone.xsd to it in an XML catalog: --catalog <file>)",
      },
    ]);
  });

  it("a component of the left-out schema that is used is still an unknown reference", () => {
    expect(() =>
      parseFiles("/spec/a.xsd", {
        "/spec/a.xsd": schema(`<xsd:import namespace="urn:gone" schemaLocation="not-exist.xsd"/>\n<xsd:complexType name="T"><xsd:complexContent><xsd:extension base="g:Base" xmlns:g="urn:gone"/></xsd:complexContent></xsd:complexType>`),
      }),
    ).toThrow("/spec/a.xsd:3:47: unknown type 'g:Base' ({urn:gone}Base)");
  });

  it("a remote location stays an error, and so does a local file that exists but cannot be read", () => {
    expect(() => parseFiles("/spec/a.xsd", { "/spec/a.xsd": schema(`<xsd:import namespace="urn:r" schemaLocation="http://example.com/r.xsd"/>`) })).toThrow(/is remote and specforge never fetches/);
    const dir = mkdtempSync(path.join(os.tmpdir(), "specforge-missing-import-"));
    mkdirSync(path.join(dir, "folder.xsd"));
    writeFileSync(path.join(dir, "a.xsd"), schema(`<xsd:include schemaLocation="folder.xsd"/>`));
    expect(() => parseWsdl(path.join(dir, "a.xsd"), nodeSpecHost({ cwd: dir }))).toThrow("a.xsd:2:1: cannot read schema 'folder.xsd': not a regular file (a directory)");
  });
});

/** W3C suite MS-DataTypes anyURI_a002: a schemaLocation is an xsd:anyURI (an IRI reference), not a file name. */
describe("schemaLocation as a URI reference", () => {
  const other = (ns: string) => `<xsd:schema xmlns:xsd="${XSD}" targetNamespace="${ns}"><xsd:element name="x" type="xsd:int"/></xsd:schema>`;

  it("non-ASCII characters are read as written; %XX escapes name the unescaped file", () => {
    const ir = parseFiles("/spec/a.xsd", {
      "/spec/a.xsd": schema(
        `<xsd:import namespace="urn:a" schemaLocation="名前空間.xsd"/>\n<xsd:import namespace="urn:b" schemaLocation="my%20types.xsd"/>\n<xsd:import namespace="urn:c" schemaLocation="%E5%90%8D.xsd"/>`,
      ),
      "/spec/名前空間.xsd": other("urn:a"),
      "/spec/my types.xsd": other("urn:b"),
      "/spec/名.xsd": other("urn:c"),
    });
    expect(ir.files).toEqual(["a.xsd", "名前空間.xsd", "my types.xsd", "名.xsd"]);
    expect(ir.elements.map((e) => e.name.ns)).toEqual(["urn:a", "urn:b", "urn:c"]);
    // A file whose name really has the escape in it is read as written.
    expect(parseFiles("/spec/a.xsd", { "/spec/a.xsd": schema(`<xsd:import namespace="urn:b" schemaLocation="my%20types.xsd"/>`), "/spec/my%20types.xsd": other("urn:b") }).files).toEqual(["a.xsd", "my%20types.xsd"]);
  });

  it("anyURI_a002's include, import and empty redefine of a file that does not exist are three warnings", () => {
    const ir = parseFiles("/spec/a.xsd", {
      "/spec/a.xsd": schema(`<xsd:include schemaLocation="名前空間URI"/>\n<xsd:import schemaLocation="名前空間URI" namespace="名前空間URI1"/>\n<xsd:redefine schemaLocation="名前空間URI"/>\n<xsd:element name="e" type="xsd:int"/>`),
    });
    expect(ir.warnings?.map((w) => `${w.line}: ${w.detail}`)).toEqual([
      "2: xsd:include schemaLocation '名前空間URI': no such file; the included schema is left out (a schemaLocation is a hint, XSD 1.0 §4.2.1)",
      "3: xsd:import schemaLocation '名前空間URI': no such file; the imported schema is left out (a schemaLocation is a hint, XSD 1.0 §4.2.3)",
      "4: xsd:redefine schemaLocation '名前空間URI': no such file; the redefined schema is left out (a schemaLocation is a hint, XSD 1.0 §4.2.2)",
    ]);
    expect(ir.elements.map((e) => e.name.local)).toEqual(["e"]);
  });

  it("a redefine that restates components needs its schema: a missing one is an error (§4.2.2 clause 1)", () => {
    expect(() =>
      parseFiles("/spec/a.xsd", { "/spec/a.xsd": schema(`<xsd:redefine schemaLocation="gone.xsd"><xsd:simpleType name="S"><xsd:restriction base="tns:S"/></xsd:simpleType></xsd:redefine>`) }),
    ).toThrow("/spec/a.xsd:2:1: cannot read schema 'gone.xsd': ENOENT: no such file '/spec/gone.xsd'");
  });
});
