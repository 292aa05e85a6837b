import { describe, expect, it } from "vitest";
import { SpecError } from "../../../src/errors.js";
import { attr, normalizeDoc, resolveQName, textContent, xpath } from "../../../src/parsers/xml/dom.js";
import { readXml } from "../../../src/parsers/xml/read.js";

const read = (text: string) => readXml(text, "/spec/a.xml", "a.xml");

function errorOf(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(SpecError);
    return (e as Error).message;
  }
  throw new Error("expected a SpecError");
}

describe("readXml", () => {
  it("builds a namespace-aware tree with 1-based positions of each '<'", () => {
    const root = read(`<?xml version="1.0"?>\n<a:root xmlns:a="urn:a" x="1">\n  <a:child name="c"/>\n  <plain>t<![CDATA[<x>]]></plain>\n</a:root>`);
    expect(root.name).toEqual({ ns: "urn:a", local: "root", prefix: "a" });
    expect(root.line).toBe(2);
    expect(root.column).toBe(1);
    expect(attr(root, "x")).toBe("1");
    const [child, plain] = root.children;
    expect(child).toMatchObject({ line: 3, column: 3, name: { ns: "urn:a", local: "child" } });
    expect(plain?.name).toEqual({ ns: "", local: "plain", prefix: "" });
    expect(textContent(plain!)).toBe("t<x>");
    expect(child?.parent).toBe(root);
    expect(child?.file).toBe("/spec/a.xml");
  });

  it("keeps the in-scope prefix map on every element to resolve QName values", () => {
    const root = read(`<r xmlns="urn:d" xmlns:p="urn:p"><s xmlns:p="urn:q"><t/></s></r>`);
    const t = root.children[0]!.children[0]!;
    expect(resolveQName(t, "p:Foo")).toEqual({ ns: "urn:q", local: "Foo" });
    expect(resolveQName(t, "Foo")).toEqual({ ns: "urn:d", local: "Foo" });
    expect(resolveQName(root, "p:Foo")).toEqual({ ns: "urn:p", local: "Foo" });
    expect(resolveQName(t, "xml:lang")).toEqual({ ns: "http://www.w3.org/XML/1998/namespace", local: "lang" });
    expect(errorOf(() => resolveQName(t, "zz:Foo"))).toBe("a.xml:1:53: unknown namespace prefix 'zz' in 'zz:Foo'");
  });

  it("builds XPath pointers with canonical prefixes", () => {
    const root = read(
      `<w:definitions xmlns:w="http://schemas.xmlsoap.org/wsdl/" xmlns:s="http://www.w3.org/2001/XMLSchema"><w:types><s:schema><s:complexType name="X"><s:sequence/></s:complexType></s:schema></w:types></w:definitions>`,
    );
    const seq = root.children[0]!.children[0]!.children[0]!.children[0]!;
    expect(xpath(seq)).toBe("/wsdl:definitions/wsdl:types/xsd:schema[1]/xsd:complexType[@name='X']/xsd:sequence");
  });

  it("indexes unnamed siblings of the same name, whichever element is asked first, and gives the same path again", () => {
    const root = read(
      `<w:definitions xmlns:w="http://schemas.xmlsoap.org/wsdl/" xmlns:s="http://www.w3.org/2001/XMLSchema"><w:types>` +
        `<s:schema><s:complexType name="A"/></s:schema><s:annotation/><s:schema><s:choice><s:sequence/><s:element name="e"/><s:sequence><s:any/></s:sequence></s:choice></s:schema>` +
        `</w:types></w:definitions>`,
    );
    const types = root.children[0]!;
    const [first, annotation, second] = types.children;
    const choice = second!.children[0]!;
    const [seq1, element, seq2] = choice.children;
    // The deepest first (its ancestors' paths are made on the way), then the rest.
    expect(xpath(seq2!.children[0]!)).toBe("/wsdl:definitions/wsdl:types/xsd:schema[2]/xsd:choice/xsd:sequence[2]/xsd:any");
    expect(xpath(seq1!)).toBe("/wsdl:definitions/wsdl:types/xsd:schema[2]/xsd:choice/xsd:sequence[1]");
    expect(xpath(element!)).toBe("/wsdl:definitions/wsdl:types/xsd:schema[2]/xsd:choice/xsd:element[@name='e']");
    expect(xpath(first!)).toBe("/wsdl:definitions/wsdl:types/xsd:schema[1]");
    expect(xpath(annotation!)).toBe("/wsdl:definitions/wsdl:types/xsd:annotation");
    expect(xpath(first!.children[0]!)).toBe("/wsdl:definitions/wsdl:types/xsd:schema[1]/xsd:complexType[@name='A']");
    expect(xpath(seq2!)).toBe("/wsdl:definitions/wsdl:types/xsd:schema[2]/xsd:choice/xsd:sequence[2]");
    expect(xpath(root)).toBe("/wsdl:definitions");
  });

  it("makes the path of an element nested thousands deep (no recursion)", () => {
    // Specs stop at MAX_XML_DEPTH (test/hostile/limits.test.ts); the limit is raised here to test xpath on its own.
    const depth = 20000;
    const root = readXml(`${"<a>".repeat(depth)}${"</a>".repeat(depth)}`, "/spec/a.xml", "a.xml", { maxDepth: depth + 1 });
    let deepest = root;
    while (deepest.children.length > 0) deepest = deepest.children[0]!;
    expect(xpath(deepest)).toBe("/a".repeat(depth));
  });

  it.each([
    // A mismatched end tag: both tags named, at the end tag's '<' (not after it).
    ["unclosed tag", `<a>\n<b></a>`, "a.xml:2:4: end tag </a> does not match <b> (opened at line 2, column 1)"],
    ["mismatched end tag", `<a>\n  <b>\n    <c>x</d>\n  </b>\n</a>`, "a.xml:3:9: end tag </d> does not match <c> (opened at line 3, column 5)"],
    ["mismatched prefixed end tag", `<p:a xmlns:p="urn:p">\n<p:b></p:c></p:a>`, "a.xml:2:6: end tag </p:c> does not match <p:b> (opened at line 2, column 1)"],
    ["end tag after the root", `<a></a>\n</b>`, "a.xml:2:1: end tag </b> has no open element to close"],
    ["DOCTYPE", `<?xml version="1.0"?>\n<!DOCTYPE a [<!ENTITY x "y">]>\n<a/>`, "a.xml:2:1: DOCTYPE is not allowed"],
    ["unbound prefix", `<a>\n  <p:b/></a>`, "a.xml:2:8: unbound namespace prefix: \"p\"."],
    ["undefined entity", `<a>&nope;</a>`, "a.xml:1:9: undefined entity."],
  ])("reports malformed XML (%s) as a SpecError", (_, text, message) => {
    expect(errorOf(() => read(text))).toBe(message);
  });

  it("normalises documentation text per line", () => {
    expect(normalizeDoc("\n   First   line\t here\n\n     second\n  ")).toBe("First line here\n\nsecond");
    expect(normalizeDoc("  \n ")).toBeUndefined();
  });
});
