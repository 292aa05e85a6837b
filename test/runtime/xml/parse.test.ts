import { describe, expect, it } from "vitest";
import { lookupNamespace, parseXml, resolveQName, xsiType, XmlParseError } from "../../../src/runtime/index.js";

function parseError(text: string, limits?: Parameters<typeof parseXml>[1]): XmlParseError {
  try {
    parseXml(text, limits);
  } catch (e) {
    if (e instanceof XmlParseError) return e;
    throw e;
  }
  throw new Error("expected an XmlParseError");
}

describe("parseXml", () => {
  it("resolves namespaces: any prefix, default namespaces, declarations anywhere up the tree", () => {
    const root = parseXml(
      `<?xml version="1.0"?><!-- c --><a:root xmlns:a="urn:a" xmlns="urn:d"><child x="1" a:y="2"><a:leaf xmlns:a="urn:other">t</a:leaf><plain xmlns=""/></child></a:root>`,
    );
    expect([root.ns, root.local, root.prefix]).toEqual(["urn:a", "root", "a"]);
    const child = root.children[0]!;
    expect([child.ns, child.local]).toEqual(["urn:d", "child"]);
    expect(child.attrs).toEqual([
      { ns: "", local: "x", prefix: "", value: "1" },
      { ns: "urn:a", local: "y", prefix: "a", value: "2" },
    ]);
    expect(child.children[0]!.ns).toBe("urn:other");
    expect(child.children[0]!.text).toBe("t");
    expect(child.children[1]!.ns).toBe("");
    expect(lookupNamespace(child.children[1]!, "a")).toBe("urn:a");
    expect(resolveQName(child, "a:T")).toEqual({ ns: "urn:a", local: "T" });
  });

  it("expands the predefined entities, character references and CDATA; normalizes line ends", () => {
    const root = parseXml(`<r a="x&#10;y\tz">&lt;&gt;&amp;&quot;&apos;&#x1F600;&#233;<![CDATA[<raw>&amp;]]>a\r\nb</r>`);
    expect(root.text).toBe(`<>&"'\u{1F600}é<raw>&amp;a\nb`);
    expect(root.attrs[0]!.value).toBe("x\ny z");
  });

  it("reads xsi:type as a resolved QName", () => {
    const root = parseXml(`<r xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:q="urn:q" xsi:type="q:T"/>`);
    expect(xsiType(root)).toEqual({ ns: "urn:q", local: "T" });
  });

  it("refuses DOCTYPE and entity declarations (no entity expansion at all)", () => {
    expect(parseError(`<!DOCTYPE r [<!ENTITY x "y">]><r>&x;</r>`).message).toMatch(/DOCTYPE declarations are not allowed at 1:1/);
    expect(parseError(`<r><!ENTITY x "y"></r>`).message).toMatch(/ENTITY declarations are not allowed/);
    expect(parseError(`<r>&x;</r>`).message).toMatch(/undefined entity &x;/);
    const billion = `<!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;">]><lolz>&lol2;</lolz>`;
    expect(() => parseXml(billion)).toThrow(XmlParseError);
  });

  it("rejects malformed XML with line and column", () => {
    const e = parseError("<r>\n  <a>\n  </b>\n</r>");
    expect([e.line, e.column]).toEqual([3, 3]);
    expect(e.message).toMatch(/end tag <\/b> does not match <a>/);
    // Like the spec reader: both tags named, at the end tag's '<' (issue 17), also when nested on one line.
    const nested = parseError("<r>\n  <b>\n    <c>x</d>\n  </b>\n</r>");
    expect([nested.line, nested.column]).toEqual([3, 9]);
    expect(nested.message).toMatch(/^end tag <\/d> does not match <c> at 3:9$/);
    expect(parseError("<r a='1' a='2'/>").message).toMatch(/duplicate attribute/);
    expect(parseError("<r xmlns:p='u1' xmlns:q='u1' p:a='1' q:a='2'/>").message).toMatch(/duplicate attribute \{u1\}a/);
    expect(parseError("<p:r/>").message).toMatch(/unbound namespace prefix 'p'/);
    expect(parseError("<r>").message).toMatch(/not closed/);
    expect(parseError("<r/><s/>").message).toMatch(/content after the root/);
    expect(parseError("text<r/>").message).toMatch(/expected the root element/);
    expect(parseError("<r>\u0001</r>").message).toMatch(/U\+0001 is not allowed/);
    expect(parseError("<r a=1/>").message).toMatch(/quoted value/);
    expect(parseError("<1r/>").message).toMatch(/expected a name/);
    expect(parseError("<r>]]></r>").message).toMatch(/']]>' is not allowed/);
    expect(parseError("<r a='<'/>").message).toMatch(/'<' is not allowed in an attribute/);
    expect(parseError("<r>&#0;</r>").message).toMatch(/not an XML character/);
  });

  it("reads text split by entities, CR LF and CDATA the same wherever they fall", () => {
    // The parser remembers where the next '&', CR and ']]>' are across text runs; these cases cross those marks.
    const root = parseXml("<r><a>x &amp; y</a><b>plain</b><c>&lt;</c><d>1\r\n&amp;\r2</d><e>tail&gt;</e><f>&quot;&apos;&amp;</f></r>");
    expect(root.children.map((c) => c.text)).toEqual(["x & y", "plain", "<", "1\n&\n2", "tail>", `"'&`]);
    expect(parseXml("<r>a<![CDATA[]]]]><![CDATA[>]]>b</r>").text).toBe("a]]>b");
    expect(parseError("<r><a>ok</a>x]]>y</r>").message).toMatch(/']]>' is not allowed in text at 1:14/);
    expect(parseError("<r><a>&amp;</a>&am;</r>").message).toMatch(/undefined entity &am;/);
    expect(parseError("<r>&amp</r>").message).toMatch(/unterminated entity reference/);
  });

  it("matches end tags exactly, including names that share a prefix", () => {
    expect(parseXml("<ab><a></a ></ab>").children[0]!.local).toBe("a");
    expect(parseError("<ab><a></ab></ab>").message).toMatch(/end tag <\/ab> does not match <a>/);
    expect(parseError("<a><b></bc></a>").message).toMatch(/end tag <\/bc> does not match <b>/);
    expect(parseError("<a:b xmlns:a='u'></a:c>").message).toMatch(/does not match <a:b>/);
    expect(parseError("<a><b></b").message).toMatch(/unterminated end tag/);
  });

  it("rejects a namespace declared twice on one element, and malformed qualified names", () => {
    expect(parseError("<r xmlns:p='u1' xmlns:p='u2'/>").message).toMatch(/duplicate attribute xmlns:p/);
    expect(parseError("<r xmlns='u1' xmlns='u2'/>").message).toMatch(/duplicate attribute xmlns/);
    expect(parseError("<a:b:c/>").message).toMatch(/not a valid qualified name/);
    expect(parseError("<a: xmlns:a='u'/>").message).toMatch(/not a valid qualified name/);
    expect(parseError("<r :a='1'/>").message).toMatch(/expected a name|not a valid qualified name/);
  });

  it("enforces limits: size, depth, attributes, name length", () => {
    expect(parseError("<r>" + "x".repeat(100) + "</r>", { maxBytes: 50 }).message).toMatch(/larger than 50/);
    const deep = "<a>".repeat(200) + "</a>".repeat(200);
    expect(parseError(deep).message).toMatch(/nested deeper than 128/);
    expect(() => parseXml("<a>".repeat(100) + "</a>".repeat(100))).not.toThrow();
    const attrs = Array.from({ length: 4100 }, (_, i) => `a${i}="1"`).join(" ");
    expect(parseError(`<r ${attrs}/>`).message).toMatch(/more than 4096 attributes/);
    // A schema may declare thousands of attributes on an element (W3C XSD suite attgD003: 2,000).
    const twoThousand = Array.from({ length: 2000 }, (_, i) => `a${i}="1"`).join(" ");
    expect(parseXml(`<r ${twoThousand}/>`).attrs).toHaveLength(2000);
    expect(parseError(`<${"n".repeat(300)}/>`).message).toMatch(/name longer than 256/);
    // A deep document of a million levels is refused quickly rather than overflowing the stack.
    expect(parseError("<a>".repeat(1_000_000)).message).toMatch(/nested deeper/);
  });

  it("keeps namespace URIs exactly, whatever they look like", () => {
    for (const uri of ["__proto__", "1", "0x10", "constructor", "urn:a b", "é"]) {
      const root = parseXml(`<p:r xmlns:p="${uri}"><p:c/></p:r>`);
      expect([root.ns, root.children[0]!.ns]).toEqual([uri, uri]);
    }
  });

  it("keeps __proto__ and constructor as ordinary names", () => {
    const root = parseXml(`<__proto__ constructor="x"><constructor/></__proto__>`);
    expect(root.local).toBe("__proto__");
    expect(root.attrs[0]).toEqual({ ns: "", local: "constructor", prefix: "", value: "x" });
    expect(({} as Record<string, unknown>).x).toBeUndefined();
  });
});
