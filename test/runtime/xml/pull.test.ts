import { describe, expect, it } from "vitest";
import { parseXml, XmlParseError, XmlPullReader, XSI_NS, type XmlLimits } from "../../../src/runtime/index.js";

/** Read a whole document through the pull reader, keeping nothing (what a decoder that skips everything does). */
function drain(text: string, limits?: Partial<XmlLimits>): void {
  XmlPullReader.document(text, limits).drain();
}

function outcome(run: () => unknown): string {
  try {
    run();
    return "ok";
  } catch (e) {
    if (e instanceof XmlParseError) return `${e.message}`;
    throw e;
  }
}

/** The pull reader's outcome must be the tree parser's, message and line:column included. */
function expectSameAsTree(text: string, limits?: Partial<XmlLimits>): string {
  const pulled = outcome(() => drain(text, limits));
  expect(pulled).toBe(outcome(() => parseXml(text, limits)));
  return pulled;
}

/** Every element as "depth {ns}local [attrs] "text"", read with nextChild(true) all the way down. */
function events(text: string): string[] {
  const r = XmlPullReader.document(text);
  const out: string[] = [];
  const element = (depth: number): void => {
    const attrs = Array.from({ length: r.attrCount }, (_, i) => `{${r.attrNs[i]}}${r.attrLocal[i]}=${r.attrValue[i]}`);
    out.push(`${depth} {${r.ns}}${r.local}${attrs.length > 0 ? ` [${attrs.join(" ")}]` : ""}`);
    let text = "";
    while (r.nextChild(true)) {
      text += r.lastText;
      element(depth + 1);
    }
    text += r.lastText;
    if (text !== "") out.push(`${depth} text ${JSON.stringify(text)}`);
  };
  element(0);
  r.end();
  return out;
}

describe("XmlPullReader", () => {
  it("reports elements, namespaces, attributes and text in document order", () => {
    const doc = `<?xml version="1.0"?><!-- c --><a:root xmlns:a="urn:a" xmlns="urn:d"><child x="1" a:y="2">one<a:leaf xmlns:a="urn:other">t</a:leaf>two<plain xmlns=""/></child></a:root>`;
    expect(events(doc)).toEqual([
      "0 {urn:a}root",
      "1 {urn:d}child [{}x=1 {urn:a}y=2]",
      "2 {urn:other}leaf",
      "2 text \"t\"",
      "2 {}plain",
      "1 text \"onetwo\"",
    ]);
  });

  it("expands the predefined entities, character references and CDATA; normalizes line ends and attribute values", () => {
    const r = XmlPullReader.document(`<r a="x&#10;y\tz&amp;">&lt;&gt;&amp;&quot;&apos;&#x1F600;&#233;<![CDATA[<raw>&amp;]]>a\r\nb<!-- no --><?pi x?>c</r>`);
    expect(r.attribute("", "a")).toBe("x\ny z&");
    expect(r.readText()).toBe(`<>&"'\u{1F600}é<raw>&amp;a\nbc`);
    r.end();
  });

  it("readText keeps the element's own text and reads (and checks) its children", () => {
    const r = XmlPullReader.document(`<r>a<x>no<y/></x>b<z/>c</r>`);
    expect(r.readText()).toBe("abc");
    r.end();
    expect(() => XmlPullReader.document(`<r>a<x>&bad;</x>b</r>`).readText()).toThrow(/undefined entity &bad;/);
  });

  it("skip reads past an element of any depth, iteratively", () => {
    const deep = `<r><a>${"<b>".repeat(100)}x${"</b>".repeat(100)}</a><c/></r>`;
    const r = XmlPullReader.document(deep);
    expect(r.nextChild()).toBe(true);
    expect(r.local).toBe("a");
    r.skip();
    expect([r.nextChild(), r.local]).toEqual([true, "c"]);
    expect(r.nextChild()).toBe(false); // <c/> has no content
    expect(r.nextChild()).toBe(false); // </r>
    r.end();
  });

  it("resolves xsi:type and xsi:nil in the element's scope, and prefixes once per declaration", () => {
    const r = XmlPullReader.document(`<r xmlns:xsi="${XSI_NS}" xmlns:q="urn:q"><a xsi:type="q:T" xsi:nil=" true "/><b xmlns:q="urn:q2" xsi:type="q:U"/><c xsi:type="z:V"/></r>`);
    r.nextChild();
    expect([r.xsiType(), r.isNil()]).toEqual([{ ns: "urn:q", local: "T" }, true]);
    r.skip();
    r.nextChild();
    expect([r.xsiType(), r.isNil()]).toEqual([{ ns: "urn:q2", local: "U" }, false]);
    expect(r.scope?.uri).toBe("urn:q2");
    expect(r.parentScope?.prefix).toBe("q");
    expect(r.parentScope?.uri).toBe("urn:q");
    r.skip();
    r.nextChild();
    expect(r.xsiType()).toEqual({ ns: "?z", local: "V" });
    r.drain();
  });

  it("maps namespace aliases as it reads, and keeps the namespace as written", () => {
    const aliases = new Map([["urn:real", "urn:spec"]]);
    const r = XmlPullReader.document(`<p:r xmlns:p="urn:real" p:a="1"><x xmlns="urn:other"/></p:r>`, undefined, aliases);
    expect([r.ns, r.declaredNs, r.attrNs[0]]).toEqual(["urn:spec", "urn:real", "urn:spec"]);
    r.nextChild();
    expect([r.ns, r.declaredNs]).toEqual(["urn:other", "urn:other"]);
    r.drain();
  });

  it("resolves xsi:type through an aliased binding and leaves text that equals an alias URI alone", () => {
    const aliases = new Map([["urn:real", "urn:spec"]]);
    const xsi = "http://www.w3.org/2001/XMLSchema-instance";
    const r = XmlPullReader.document(`<r xmlns:e="urn:real" xmlns:xsi="${xsi}" xsi:type="e:T"><e:v>urn:real</e:v></r>`, undefined, aliases);
    expect(r.xsiType()).toEqual({ ns: "urn:spec", local: "T" });
    expect(r.nextChild()).toBe(true);
    expect([r.ns, r.readText()]).toEqual(["urn:spec", "urn:real"]);
    r.drain();
  });

  it("re-reads one element of a document from its offset, in its parent's bindings", () => {
    const text = `<r xmlns:p="urn:p"><p:a k="v"><p:b>t</p:b></p:a></r>`;
    const doc = XmlPullReader.document(text);
    doc.nextChild();
    const start = doc.start;
    const scope = doc.parentScope;
    doc.drain();
    const again = XmlPullReader.element(text, start, scope, doc.limits);
    expect([again.ns, again.local, again.attribute("", "k")]).toEqual(["urn:p", "a", "v"]);
    expect(again.nextChild()).toBe(true);
    expect([again.ns, again.local, again.readText()]).toEqual(["urn:p", "b", "t"]);
    expect(again.nextChild()).toBe(false);
  });

  it("gives the same error, message and line:column, as parseXml for every malformed document", () => {
    const cases: [string, RegExp][] = [
      ["", /expected the root element at 1:1/],
      ["text", /expected the root element at 1:1/],
      ["</r>", /unexpected end tag at 1:1/],
      ["<r>", /element <r> is not closed at 1:4/],
      ["<r><a></r>", /end tag <\/r> does not match <a> at 1:7/],
      ["<r>\n  <a>\n  </b>\n</r>", /end tag <\/b> does not match <a> at 3:3/],
      ["<r></r", /unterminated end tag at 1:4/],
      ["<r/><s/>", /content after the root element at 1:5/],
      ["<r/>text", /content after the root element/],
      ["<r", /unterminated start tag <r> at 1:1/],
      ["<r a>", /expected '=' after attribute a/],
      ["<r a=1/>", /expected a quoted value for attribute a/],
      ["<r a='1/>", /unterminated value of attribute a/],
      ["<r a='1'b='2'/>", /expected whitespace before an attribute/],
      ["<r a='<'/>", /'<' is not allowed in an attribute value/],
      ["<r a='1' a='2'/>", /duplicate attribute a/],
      ["<r xmlns:p='urn:x' xmlns:q='urn:x' p:a='1' q:a='2'/>", /duplicate attribute \{urn:x\}a/],
      ["<r xmlns:p='urn:x' xmlns:p='urn:y'/>", /duplicate attribute xmlns:p/],
      ["<p:r/>", /unbound namespace prefix 'p' at 1:1/],
      ["<r p:a='1'/>", /unbound namespace prefix 'p'/],
      ["<r xmlns:p=''/>", /prefix p cannot be bound to the empty namespace/],
      ["<r xmlns:xml='urn:x'/>", /reserved namespace binding/],
      ["<r xmlns:xmlns='urn:x'/>", /reserved namespace binding/],
      ["<r xmlns:p='http://www.w3.org/2000/xmlns/'/>", /reserved namespace binding/],
      ["<xmlns:r/>", /the xmlns prefix cannot name an element or attribute/],
      ["<a:b:c/>", /'a:b:c' is not a valid qualified name/],
      ["<:r/>", /':r' is not a valid qualified name/],
      ["<r:/>", /'r:' is not a valid qualified name/],
      ["<1r/>", /expected a name at 1:2/],
      ["<r>&x;</r>", /undefined entity &x; \(only the five predefined entities exist\) at 1:4/],
      ["<r>&amp</r>", /unterminated entity reference/],
      ["<r>&#xZZ;</r>", /malformed character reference &#xZZ;/],
      ["<r>&#0;</r>", /character reference &#0; is not an XML character/],
      ["<r a='&nope;'/>", /undefined entity &nope;/],
      ["<r>]]></r>", /']]>' is not allowed in text at 1:4/],
      ["<r><![CDATA[x</r>", /unterminated CDATA section/],
      ["<r><!-- x</r>", /unterminated comment/],
      ["<r><?pi x</r>", /unterminated processing instruction/],
      ["<!DOCTYPE r><r/>", /DOCTYPE declarations are not allowed at 1:1/],
      ["<r><!ENTITY x 'y'></r>", /ENTITY declarations are not allowed/],
      ["<r><!ELEMENT r ANY></r>", /unexpected markup declaration/],
      ["<r>\u0001</r>", /character U\+0001 is not allowed in XML at 1:4/],
      ["<r a='\uffff'/>", /character U\+ffff is not allowed in XML/],
      // The first forbidden character in the text is reported, whichever of them comes later in the search order.
      ["<r>\u001f\n\u0001\u0008</r>", /character U\+001f is not allowed in XML at 1:4/],
      ["<r>\u00e9\u2028\n<a/>\u000b\ufffe\u0000</r>", /character U\+000b is not allowed in XML at 2:5/],
      ["<r>ok</r>\u000c", /character U\+000c is not allowed in XML at 1:10/],
    ];
    for (const [text, message] of cases) expect(expectSameAsTree(text), text).toMatch(message);
  });

  it("enforces the limits as parseXml does: size, depth, attribute count, name length", () => {
    expect(expectSameAsTree("<r/>   ", { maxBytes: 5 })).toMatch(/document larger than 5 characters/);
    const deep = "<a>".repeat(10) + "</a>".repeat(10);
    expect(expectSameAsTree(deep, { maxDepth: 9 })).toMatch(/elements nested deeper than 9 at 1:28/);
    expect(expectSameAsTree(deep, { maxDepth: 10 })).toBe("ok");
    // A self-closing element counts as a level too.
    expect(expectSameAsTree("<a><b/></a>", { maxDepth: 1 })).toMatch(/elements nested deeper than 1/);
    const attrs = (n: number) => `<r ${Array.from({ length: n }, (_, i) => `a${i}="${i}"`).join(" ")}/>`;
    expect(expectSameAsTree(attrs(4), { maxAttributes: 3 })).toMatch(/more than 3 attributes/);
    expect(expectSameAsTree(attrs(3), { maxAttributes: 3 })).toBe("ok");
    // Namespace declarations count as attributes.
    expect(expectSameAsTree(`<r xmlns:a="urn:a" xmlns:b="urn:b" c="1"/>`, { maxAttributes: 2 })).toMatch(/more than 2 attributes/);
    expect(expectSameAsTree(`<${"n".repeat(9)}/>`, { maxNameLength: 8 })).toMatch(/name longer than 8 characters/);
    // A name met before under larger limits (the reader remembers names) is still measured against these.
    expectSameAsTree(`<${"m".repeat(9)}><x/></${"m".repeat(9)}>`);
    expect(expectSameAsTree(`<${"m".repeat(9)}><x/></${"m".repeat(9)}>`, { maxNameLength: 8 })).toMatch(/name longer than 8/);
  });

  it("survives hostile input: deep nesting, huge attribute counts, unclosed and mismatched tags", () => {
    // Far deeper than the limit, and deeper than a recursive reader's stack would allow.
    expect(expectSameAsTree("<a>".repeat(200_000))).toMatch(/elements nested deeper than 128/);
    expect(expectSameAsTree("<a>".repeat(100_000), { maxDepth: 1_000_000 })).toMatch(/element <a> is not closed/);
    const many = `<r ${Array.from({ length: 10_000 }, (_, i) => `a${i}="${i}"`).join(" ")}/>`;
    expect(expectSameAsTree(many)).toMatch(/more than 4096 attributes/);
    // Past the scan threshold duplicates are found by a set: the same error, at the same place, as the tree parser.
    const names = (n: number) => Array.from({ length: n }, (_, i) => `a${i}="${i}"`).join(" ");
    expect(expectSameAsTree(`<r ${names(3000)}/>`)).toBe("ok");
    expect(expectSameAsTree(`<r ${names(40)} a7="x"/>`)).toMatch(/duplicate attribute a7 at 1:/);
    expect(expectSameAsTree(`<r ${names(40)} a39="x" a1="y"/>`)).toMatch(/duplicate attribute a39 at 1:/);
    // Two prefixes bound to one namespace: a duplicate expanded name, found past the threshold too.
    expect(expectSameAsTree(`<r xmlns:p="urn:x" xmlns:q="urn:x" ${names(40)} p:z="1" q:z="2"/>`)).toMatch(/duplicate attribute \{urn:x\}z at 1:/);
    expect(expectSameAsTree("<r>" + "<a></b>".repeat(3) + "</r>")).toMatch(/end tag <\/b> does not match <a>/);
    expect(expectSameAsTree("<r><a><b></a></b></r>")).toMatch(/end tag <\/a> does not match <b>/);
    expect(expectSameAsTree(`<r a="${"&amp;".repeat(10_000)}"/>`)).toBe("ok");
    expect(expectSameAsTree(`<r>${"&#x41;".repeat(10_000)}&#xD800;</r>`)).toMatch(/&#xD800; is not an XML character/);
  });

  it("agrees with parseXml on random documents (well-formed or not)", () => {
    // A small deterministic generator: pieces that make and break documents, glued at random.
    const good = ["<b/>", " ", "t", "&amp;", "<![CDATA[z]]>", "<!--c-->", "<?p?>", "<a x='1'>t</a>", "<p:c xmlns:p='urn:p'><p:d p:k='v'/></p:c>", "&#65;", "<a xmlns='urn:d'><b/></a>", "\n"];
    const bad = ["<a>", "</a>", "<q:a>", "&x;", "]]>", "<", ">", "'", "=", "<a x='1' x='2'>", "<!DOCTYPE", "\u0002"];
    let seed = 42;
    const next = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff);
    let ok = 0;
    for (let n = 0; n < 3000; n++) {
      let text = "<r>";
      const count = next() % 8;
      for (let k = 0; k < count; k++) text += next() % 10 < 9 ? good[next() % good.length] : bad[next() % bad.length];
      if (next() % 10 !== 0) text += "</r>";
      if (expectSameAsTree(text) === "ok") ok++;
    }
    // Both outcomes were exercised.
    expect(ok).toBeGreaterThan(1000);
    expect(ok).toBeLessThan(2900);
  });
});
