import { describe, expect, it } from "vitest";
import { XmlCodecs, XmlEncodeError, XmlWriter, XSI_NS, xmlTextCodec, type XmlFieldSpec } from "../../../src/runtime/index.js";
import { prefixScope, XmlPrefixScope } from "../../../src/runtime/xml/prefix-scope.js";

/**
 * Encode with the prefixes fixed per document: the tags a scope makes, the writer mixing them with its own
 * declarations (namespaces outside the scope), and record codecs whose plans keep tags per field and, for open
 * content, per position. The output must be what the name-by-name writer wrote: the expected strings are exact.
 */
const A = "urn:a";
const B = "urn:b";

describe("XmlPrefixScope", () => {
  it("renames prefixes as the writer does (numbered, unused, not xml...) and spells tags with them", () => {
    const scope = new XmlPrefixScope([[A, "xmlish"], [B, "ns"], ["urn:c", "c"], ["urn:d", "c"], [XSI_NS, "xsi"]]);
    expect(scope.bindings).toEqual([[A, "ns1"], [B, "ns2"], ["urn:c", "c"], ["urn:d", "ns3"], [XSI_NS, "xsi"]]);
    expect(scope.counter).toBe(3);
    expect(scope.tag(B, "x")).toMatchObject({ start: "<ns2:x", open: "<ns2:x>", openAfterStart: "><ns2:x>", close: "</ns2:x>", nil: '<ns2:x xsi:nil="true"/>' });
    expect(scope.tag("", "plain")).toMatchObject({ start: "<plain", close: "</plain>" });
    expect(scope.tag("urn:elsewhere", "x")).toBeUndefined();
    expect(scope.typeAttribute("urn:d", "T")).toBe(' xsi:type="ns3:T"');
    expect(scope.typeAttribute("urn:elsewhere", "T")).toBeUndefined();
    // The same object for the same name: kept, not rebuilt.
    expect(scope.tag(B, "x")).toBe(scope.tag(B, "x"));
  });

  it("has no nil tag or xsi:type without an xsi prefix", () => {
    const scope = new XmlPrefixScope([[A, "a"]]);
    expect(scope.tag(A, "x")!.nil).toBeUndefined();
    expect(scope.typeAttribute(A, "T")).toBeUndefined();
  });

  it("is shared per declaration list, and made again when a caller changes its list", () => {
    const list: [string, string][] = [[A, "a"]];
    const first = prefixScope(list);
    expect(prefixScope(list)).toBe(first);
    list[0] = [A, "b"];
    const second = prefixScope(list);
    expect(second).not.toBe(first);
    expect(second.tag(A, "x")!.start).toBe("<b:x");
  });
});

describe("XmlWriter with a scope", () => {
  it("declares namespaces outside the scope where used, also inside elements opened from tags, and scopes them", () => {
    const w = new XmlWriter({ namespaces: [[A, "a"], [XSI_NS, "xsi"]] });
    w.startElement(A, "root");
    const scope = w.scope!;
    const item = scope.tag(A, "item")!;
    w.openTag(item);
    w.xsiType(B, "T");
    w.startElement(B, "inner");
    w.endElement();
    w.closeTag(item);
    w.openTag(item);
    w.startElement(B, "inner");
    w.nil();
    w.endElement();
    w.textElement(scope.tag(A, "t")!, "x & y");
    w.nilElement(scope.tag("", "n")!);
    w.closeTag(item);
    w.openTag(item);
    w.closeTag(item);
    w.endElement();
    expect(w.toString()).toBe(
      `<a:root xmlns:a="urn:a" xmlns:xsi="${XSI_NS}">` +
        '<a:item xmlns:ns1="urn:b" xsi:type="ns1:T"><ns1:inner/></a:item>' +
        '<a:item><ns2:inner xmlns:ns2="urn:b" xsi:nil="true"/><a:t>x &amp; y</a:t><n xsi:nil="true"/></a:item>' +
        "<a:item/></a:root>",
    );
  });

  it("ends the root's bindings with the root: a second top-level element declares its own", () => {
    const w = new XmlWriter({ namespaces: [[A, "a"]] });
    w.simpleElement(A, "first", "1");
    expect(w.scope).toBeUndefined();
    w.simpleElement(A, "second", "2");
    expect(w.toString()).toBe('<a:first xmlns:a="urn:a">1</a:first><ns1:second xmlns:ns1="urn:a">2</ns1:second>');
  });

  it("refuses a non-string for a tag's text after starting the element (so the error can be located)", () => {
    const w = new XmlWriter({ namespaces: [[A, "a"]] });
    w.startElement(A, "root");
    expect(() => w.textElement(w.scope!.tag(A, "when")!, new Date(0) as never)).toThrow(/^expected string, got Date$/);
    expect(w.written()).toBe('<a:root xmlns:a="urn:a"><a:when>');
  });

  it("says which element is left open", () => {
    const w = new XmlWriter({ namespaces: [[A, "a"]] });
    w.startElement(A, "root");
    expect(() => w.toString()).toThrow("element a:root is not closed");
  });
});

// <rec><id/><kid: rec>?<list/>*<nil nillable/>?<any ##any/>*</rec>
const text = xmlTextCodec((t: string) => t);
const codecs = new XmlCodecs([[A, "ns1"], [XSI_NS, "xsi"]]);
const fields: XmlFieldSpec[] = [
  [0 + 4, A, "id", "id", text],
  [0, A, "kid", "kid", undefined as never],
  [0 + 8, A, "list", "list", text],
  [0 + 16, A, "nil", "nil", text],
  [3 + 8, A, "##any", "$any"],
];
const rec = codecs.record(A, "rec", "Rec", 0, () => fields);
fields[1] = [0, A, "kid", "kid", rec];
const element = codecs.element(A, "rec", rec, false);
codecs.types([[A, "rec", rec]]);
const ROOT = `<ns1:rec xmlns:ns1="urn:a" xmlns:xsi="${XSI_NS}">`;

describe("record encode plans", () => {
  it("writes fields from their tags, nested records, lists and nil, exactly as before", () => {
    const value = { id: "1", kid: { id: "2 < 3", list: ["a", "b"] }, list: [], nil: null };
    const xml = element.toXml(value);
    // An empty list writes nothing (and reads back absent).
    expect(xml).toBe(`${ROOT}<ns1:id>1</ns1:id><ns1:kid><ns1:id>2 &lt; 3</ns1:id><ns1:list>a</ns1:list><ns1:list>b</ns1:list></ns1:kid><ns1:nil xsi:nil="true"/></ns1:rec>`);
    expect(element.fromXml(xml)).toEqual({ id: "1", kid: { id: "2 < 3", list: ["a", "b"] }, nil: null });
  });

  it("writes open content whose names change from record to record (tags kept by position are checked)", () => {
    const kid = (items: [string, string][]) => ({ id: "k", $any: items.map(([ns, name]) => ({ ns, name, value: `${name}!` })) });
    const value = { id: "1", $any: [{ ns: A, name: "wrap", value: [] }], kid: kid([[A, "x"], [A, "y"]]) };
    expect(element.toXml(value)).toBe(`${ROOT}<ns1:id>1</ns1:id><ns1:kid><ns1:id>k</ns1:id><ns1:x>x!</ns1:x><ns1:y>y!</ns1:y></ns1:kid><ns1:wrap/></ns1:rec>`);
    const swapped = { ...value, kid: kid([[A, "y"], [A, "x"], [B, "x"], [B, "x"]]) };
    expect(element.toXml(swapped)).toBe(
      `${ROOT}<ns1:id>1</ns1:id><ns1:kid><ns1:id>k</ns1:id><ns1:y>y!</ns1:y><ns1:x>x!</ns1:x>` +
        '<ns2:x xmlns:ns2="urn:b">x!</ns2:x><ns3:x xmlns:ns3="urn:b">x!</ns3:x></ns1:kid><ns1:wrap/></ns1:rec>',
    );
    // An empty element of open content reads back as its text.
    expect(element.fromXml(element.toXml(swapped))).toEqual({ ...swapped, $any: [{ ns: A, name: "wrap", value: "" }] });
    expect(element.toXml(value)).toBe(`${ROOT}<ns1:id>1</ns1:id><ns1:kid><ns1:id>k</ns1:id><ns1:x>x!</ns1:x><ns1:y>y!</ns1:y></ns1:kid><ns1:wrap/></ns1:rec>`);
  });

  it("follows the document's namespaces: a caller's prefixes, a namespace left out, aliases", () => {
    const value = { id: "1", kid: { id: "2" }, nil: null };
    expect(element.toXml(value, { namespaces: [[A, "q"], [XSI_NS, "xsi"]] })).toBe(
      `<q:rec xmlns:q="urn:a" xmlns:xsi="${XSI_NS}"><q:id>1</q:id><q:kid><q:id>2</q:id></q:kid><q:nil xsi:nil="true"/></q:rec>`,
    );
    // No namespaces: the root declares its own (its children use it), xsi where first needed.
    expect(element.toXml(value, { namespaces: [] })).toBe(
      '<ns1:rec xmlns:ns1="urn:a"><ns1:id>1</ns1:id><ns1:kid><ns1:id>2</ns1:id></ns1:kid>' +
        `<ns1:nil xmlns:xsi="${XSI_NS}" xsi:nil="true"/></ns1:rec>`,
    );
    // A namespace outside the caller's list, below the root: declared on each element that needs it.
    const outside = { id: "1", $any: [{ ns: B, name: "x", value: "1" }, { ns: B, name: "x", value: "2" }] };
    expect(element.toXml(outside, { namespaces: [[A, "a"]] })).toBe(
      '<a:rec xmlns:a="urn:a"><a:id>1</a:id><ns1:x xmlns:ns1="urn:b">1</ns1:x><ns2:x xmlns:ns2="urn:b">2</ns2:x></a:rec>',
    );
    expect(element.toXml(value, { namespaceAliases: new Map([[A, "urn:z"]]) })).toBe(
      `<ns1:rec xmlns:ns1="urn:z" xmlns:xsi="${XSI_NS}"><ns1:id>1</ns1:id><ns1:kid><ns1:id>2</ns1:id></ns1:kid><ns1:nil xsi:nil="true"/></ns1:rec>`,
    );
    // And the schema's own declarations again after those.
    expect(element.toXml(value)).toBe(`${ROOT}<ns1:id>1</ns1:id><ns1:kid><ns1:id>2</ns1:id></ns1:kid><ns1:nil xsi:nil="true"/></ns1:rec>`);
  });

  it("keeps the encode errors: missing required, wrong type with its path, forbidden characters", () => {
    expect(() => element.toXml({ kid: {} })).toThrow("Rec/id: required property is missing");
    expect(() => element.toXml({ id: "1", kid: { id: "2", list: ["a", 3] } })).toThrow(/^rec\.kid\.list\[1\]: expected string, got number$/);
    expect(() => element.toXml({ id: "1", $any: [{ ns: A, name: "x", value: "a\u0001" }] })).toThrow(XmlEncodeError);
    expect(() => element.toXml({ id: "1", $any: [{ ns: A, name: "x", value: "a\u0001" }] })).toThrow("character U+0001 at index 1 cannot be written in XML 1.0");
    expect(() => element.toXml({ id: "1", $any: [{ ns: A, value: "v" }] } as never)).toThrow("Rec/$any/0: open content items are { ns: string, name: string, value }");
  });
});
