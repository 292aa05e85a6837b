import { describe, expect, it } from "vitest";
import {
  decodeBase64, decodeHex, encodeBase64, encodeHex, escapeAttribute, escapeText, formatXsdDouble, parseXml, parseXsdBoolean,
  parseXsdDecimal, parseXsdDouble, parseXsdInt, parseXsdLong, parseXsdTemporal, XmlDecodeError, XmlEncodeError, XmlWriter,
} from "../../../src/runtime/index.js";

describe("XmlWriter and escaping", () => {
  it("escapes all five specials in text and attributes, and round-trips through the parser", () => {
    expect(escapeText(`a&b<c>d"e'f`)).toBe("a&amp;b&lt;c&gt;d&quot;e&apos;f");
    expect(escapeAttribute("x\ty\nz\r")).toBe("x&#9;y&#10;z&#13;");
    const w = new XmlWriter();
    const nasty = `&<>"'\t\n\r \u{1F600} ]]>`;
    w.startElement("urn:x", "r");
    w.attribute("", "a", nasty);
    w.text(nasty);
    w.endElement();
    const root = parseXml(w.toString());
    expect(root.text).toBe(nasty);
    expect(root.attrs[0]!.value).toBe(nasty);
  });

  it("rejects characters XML 1.0 cannot carry", () => {
    for (const bad of ["\u0000", "\u0001", "\u001f", "\uffff", "\ud800", "x\udc00"]) {
      expect(() => escapeText(bad)).toThrow(XmlEncodeError);
    }
    expect(escapeText("\u{1F600}")).toBe("\u{1F600}");
  });

  it("declares prefixes where needed and scopes them", () => {
    const w = new XmlWriter({ namespaces: [["urn:a", "a"]] });
    w.startElement("urn:a", "r");
    w.startElement("urn:b", "c");
    w.xsiType("urn:c", "T");
    w.endElement();
    w.startElement("urn:b", "d");
    w.nil();
    w.endElement();
    w.startElement("", "plain");
    w.endElement();
    w.endElement();
    expect(w.toString()).toBe(
      '<a:r xmlns:a="urn:a"><ns1:c xmlns:ns1="urn:b" xmlns:ns2="urn:c" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:type="ns2:T"/>' +
        '<ns3:d xmlns:ns3="urn:b" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:nil="true"/><plain/></a:r>',
    );
  });
});

describe("XSD lexical forms", () => {
  it("booleans", () => {
    expect(["true", "1", " false ", "0"].map((s) => parseXsdBoolean(s, ""))).toEqual([true, true, false, false]);
    expect(() => parseXsdBoolean("yes", "/x")).toThrow(XmlDecodeError);
  });

  it("integers with ranges, long as bigint", () => {
    expect(parseXsdInt(" -2147483648 ", -2147483648, 2147483647, "")).toBe(-2147483648);
    expect(() => parseXsdInt("2147483648", -2147483648, 2147483647, "/size")).toThrow(/outside the range/);
    expect(() => parseXsdInt("1.5", 0, 10, "")).toThrow(/not a valid/);
    expect(parseXsdLong("9223372036854775807", -(2n ** 63n), 2n ** 63n - 1n, "")).toBe(9223372036854775807n);
    expect(() => parseXsdLong("9223372036854775808", -(2n ** 63n), 2n ** 63n - 1n, "")).toThrow(XmlDecodeError);
  });

  it("float/double with INF, -INF, NaN; decimal kept exact", () => {
    expect(parseXsdDouble("INF", "")).toBe(Infinity);
    expect(parseXsdDouble("-INF", "")).toBe(-Infinity);
    expect(parseXsdDouble("NaN", "")).toBeNaN();
    expect(parseXsdDouble("1.5E3", "")).toBe(1500);
    expect(() => parseXsdDouble("Infinity", "")).toThrow(XmlDecodeError);
    expect([NaN, Infinity, -Infinity, 0.1, -0].map(formatXsdDouble)).toEqual(["NaN", "INF", "-INF", "0.1", "-0"]);
    expect(parseXsdDecimal(" 12345678901234567890.000000001 ", "")).toBe("12345678901234567890.000000001");
    expect(() => parseXsdDecimal("1e5", "")).toThrow(XmlDecodeError);
  });

  it("dates and times are validated and kept as strings", () => {
    expect(parseXsdTemporal("2024-02-29T23:59:59.123Z", "dateTime", "")).toBe("2024-02-29T23:59:59.123Z");
    expect(parseXsdTemporal("2024-02-29+01:00", "date", "")).toBe("2024-02-29+01:00");
    expect(parseXsdTemporal("10:00:00", "time", "")).toBe("10:00:00");
    expect(() => parseXsdTemporal("2024-13-01T00:00:00", "dateTime", "/d")).toThrow(/not a valid xsd:dateTime/);
    expect(() => parseXsdTemporal("2024-01-01", "dateTime", "")).toThrow(XmlDecodeError);
    expect(() => parseXsdTemporal("P", "duration", "")).toThrow(XmlDecodeError);
  });

  it("base64Binary and hexBinary", () => {
    const bytes = new Uint8Array([0, 1, 2, 250, 251, 252, 253]);
    for (let n = 0; n <= bytes.length; n++) {
      const b = bytes.slice(0, n);
      expect(decodeBase64(encodeBase64(b))).toEqual(b);
      expect(encodeBase64(b)).toBe(Buffer.from(b).toString("base64"));
    }
    expect(decodeBase64("AAEC\n+vv8/Q==")).toEqual(bytes);
    expect(decodeBase64("A===")).toBeUndefined();
    expect(decodeBase64("****")).toBeUndefined();
    expect(encodeHex(bytes)).toBe("000102FAFBFCFD");
    expect(decodeHex("000102fafbfcfd")).toEqual(bytes);
    expect(decodeHex("0")).toBeUndefined();
  });
});
