import { describe, expect, it } from "vitest";
import {
  parseXml, SOAP_ENCODING_11, SOAP_ENCODING_12, soapRpcMessage, soapRpcPartTypes, soapRpcPart, XmlCodecs, xmlTextCodec, XmlSimpleCodec,
  type XmlElementNode,
} from "../../../src/runtime/index.js";

/**
 * The rpc wrapper codec on its own: a string[] SOAP-ENC array type ({urn:t}Names, member `name`), a record with two
 * fields ({urn:t}Pair) and xsd builtins, the way a generated xml.ts declares them.
 */
const T = "urn:t";
const XSD = "http://www.w3.org/2001/XMLSchema";
const codecs = new XmlCodecs([[T, "ns1"], [XSD, "ns2"], ["http://www.w3.org/2001/XMLSchema-instance", "xsi"]], {
  codecs: [
    ["s$1", xmlTextCodec((text: string) => text)],
    ["s$2", new XmlSimpleCodec((text: string) => Number(text), (v: number) => String(v))],
  ],
  records: [
    ["r$Names", T, "Names", "Names", 0, [[8, "", "name", "name", "s$1"]]],
    ["r$Pair", T, "Pair", "Pair", 0, [[4, "", "left", "left", "s$1"], [4, "", "right", "right", "s$2"]]],
  ],
  families: [],
  elements: [],
  types: [[T, "Names", "r$Names"], [T, "Pair", "r$Pair"], [XSD, "string", "s$1"], [XSD, "int", "s$2"]],
});
const partTypes = soapRpcPartTypes(codecs.typeCodecs(), [[T, "Names", "name", "name", XSD, "string"], [T, "Pair"], [XSD, "string"], [XSD, "int"]]);
const namespaces = codecs.namespaces;

const message = (encoding: string | undefined, parts: [string, string][]) =>
  soapRpcMessage<unknown>({
    ns: "urn:svc",
    local: "op",
    ...(encoding !== undefined ? { encoding } : {}),
    single: parts.length === 1,
    namespaces,
    parts: parts.map(([name, type]) => soapRpcPart(name, partTypes, type)),
  });

const body = (xml: string): XmlElementNode[] => [...parseXml(`<b xmlns:enc="${SOAP_ENCODING_11}" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xsd="${XSD}">${xml}</b>`).children];

describe("SoapRpcMessage", () => {
  it("writes a literal wrapper with unqualified part accessors and reads it back", () => {
    const m = message(undefined, [["count", `{${XSD}}int`], ["pair", `{${T}}Pair`]]);
    const xml = m.encode({ count: 3, pair: { left: "a&b", right: -1 } });
    expect(xml).toBe('<m:op xmlns:ns1="urn:t" xmlns:ns2="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:m="urn:svc"><count>3</count><pair><left>a&amp;b</left><right>-1</right></pair></m:op>');
    expect(m.decode(parseXml(xml))).toEqual({ count: 3, pair: { left: "a&b", right: -1 } });
  });

  it("names each part's type with xsi:type and writes SOAP-ENC arrays under use=encoded (1.1 and 1.2)", () => {
    const m11 = message(SOAP_ENCODING_11, [["names", `{${T}}Names`], ["n", `{${XSD}}int`]]);
    const xml = m11.encode({ names: { name: ["x", "y"] }, n: 7 });
    expect(xml).toContain('<names xsi:type="soapenc:Array" soapenc:arrayType="ns2:string[2]"><name xsi:type="ns2:string">x</name><name xsi:type="ns2:string">y</name></names>');
    expect(xml).toContain('<n xsi:type="ns2:int">7</n>');
    expect(m11.decode(parseXml(xml))).toEqual({ names: { name: ["x", "y"] }, n: 7 });
    const m12 = message(SOAP_ENCODING_12, [["names", `{${T}}Names`]]);
    expect(m12.encode({ name: [] })).toContain('<names soapenc:itemType="ns2:string" soapenc:arraySize="0"/>');
  });

  it("reads SOAP-ENC array items whatever their element name", () => {
    const m = message(SOAP_ENCODING_11, [["names", `{${T}}Names`]]);
    const [op] = body('<op><names xsi:type="enc:Array" enc:arrayType="xsd:string[3]"><item>a</item><string>b</string><x:v xmlns:x="urn:x">c</x:v></names></op>');
    expect(m.decode(op!)).toEqual({ name: ["a", "b", "c"] });
    // Without the array markup too: the type is a SOAP-ENC array, whose member names are not significant (SOAP 1.1
    // §5.4.2), and node-soap sends its arrays without arrayType and with elements named after the part.
    const [plainOp] = body("<op><names><name>a</name><other>b</other></names></op>");
    expect(m.decode(plainOp!)).toEqual({ name: ["a", "b"] });
  });

  it("resolves href/id multi-refs to sibling body elements and inside the wrapper", () => {
    const m = message(SOAP_ENCODING_11, [["pair", `{${T}}Pair`], ["again", `{${T}}Pair`], ["s", `{${XSD}}string`]]);
    const [op, ...others] = body(
      '<op><pair href="#id0"/><again href="#id0"/><s href="#id1"/></op>' +
        '<multiRef id="id0" xsi:type="ns:Pair" xmlns:ns="urn:t"><left href="#id1"/><right>5</right></multiRef><multiRef id="id1">shared</multiRef>',
    );
    expect(m.decode(op!, others)).toEqual({ pair: { left: "shared", right: 5 }, again: { left: "shared", right: 5 }, s: "shared" });
  });

  it("refuses dangling and cyclic references, unknown, repeated and missing parts", () => {
    const m = message(SOAP_ENCODING_11, [["pair", `{${T}}Pair`]]);
    expect(() => m.decode(body('<op><pair href="#nope"/></op>')[0]!)).toThrow(/href="#nope" names no element/);
    const [op, ...others] = body('<op><pair href="#a"/></op><r id="a"><left href="#a"/><right>1</right></r>');
    expect(() => m.decode(op!, others)).toThrow(/cycle/);
    expect(() => m.decode(body("<op><pear/></op>")[0]!)).toThrow(/unexpected element pear in op: its parts are pair/);
    expect(() => m.decode(body("<op/>")[0]!)).toThrow(/op has no part pair/);
    const two = body("<op><pair><left>a</left><right>1</right></pair><pair><left>a</left><right>1</right></pair></op>")[0]!;
    expect(() => m.decode(two)).toThrow(/appears twice/);
  });

  it("reads members qualified with the wrapper's namespace (node-soap's client) only under use=encoded", () => {
    const xml = '<m:op xmlns:m="urn:svc"><pair><m:left>a</m:left><m:right>2</m:right></pair></m:op>';
    expect(message(SOAP_ENCODING_11, [["pair", `{${T}}Pair`]]).decode(parseXml(xml))).toEqual({ left: "a", right: 2 });
    expect(() => message(undefined, [["pair", `{${T}}Pair`]]).decode(parseXml(xml))).toThrow();
  });

  it("maps values to parts: one part is its value, none is undefined, several an object", () => {
    const none = message(undefined, []);
    expect(none.encode(undefined)).toMatch(/^<m:op [^>]*\/>$|^<m:op [^>]*><\/m:op>$/);
    expect(none.decode(parseXml('<op/>'))).toBeUndefined();
    expect(() => message(undefined, [["a", `{${XSD}}int`], ["b", `{${XSD}}int`]]).encode(3)).toThrow(/expected an object with the message parts \(a, b\)/);
  });
});
