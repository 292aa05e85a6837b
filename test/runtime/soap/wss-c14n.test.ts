import { createHash } from "node:crypto";
import { SignedXml } from "xml-crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { excC14n } from "../../../src/runtime/soap/wss/c14n.js";
import { allElements, parseDom, type DomElement } from "../../../src/runtime/soap/wss/dom.js";
import { XmlParseError } from "../../../src/runtime/xml/errors.js";
import { makeTestKeys, xmlsecSign, type TestKeys } from "./wss-helpers.js";

/**
 * Exclusive c14n checked against xmlsec1 (libxml2's canonicalizer, the reference implementation most SOAP stacks
 * agree with): xmlsec1 signs a reference to an element with exc-c14n and SHA-256, and the DigestValue it writes must
 * be the SHA-256 of our canonical form of that element. xml-crypto, signing the same element, is a second opinion where
 * it is right (it differs on processing instructions, which xmldom reads wrongly, and writes InclusiveNamespaces prefixes
 * only where they are used, where xmlsec1 and the spec write every listed prefix in scope).
 */
let keys: TestKeys;
beforeAll(() => {
  keys = makeTestKeys();
});
afterAll(() => keys.cleanup());

const DSIG = "http://www.w3.org/2000/09/xmldsig#";
const EXC_C14N = "http://www.w3.org/2001/10/xml-exc-c14n#";

/** `content` inside <t:Target Id="target">, in a root with namespaces the target may or may not use. */
function documentWith(targetAttrs: string, content: string, prefixList: string | undefined): string {
  const transform =
    prefixList === undefined
      ? `<ds:Transform Algorithm="http://www.w3.org/2001/10/xml-exc-c14n#"/>`
      : `<ds:Transform Algorithm="http://www.w3.org/2001/10/xml-exc-c14n#"><ec:InclusiveNamespaces xmlns:ec="http://www.w3.org/2001/10/xml-exc-c14n#" PrefixList="${prefixList}"/></ds:Transform>`;
  return (
    `<r:Root xmlns:r="urn:r" xmlns="urn:default" xmlns:unused="urn:unused" xmlns:t="urn:t" xml:lang="en">` +
    `<t:Target Id="target"${targetAttrs}>${content}</t:Target>` +
    `<ds:Signature xmlns:ds="${DSIG}"><ds:SignedInfo><ds:CanonicalizationMethod Algorithm="http://www.w3.org/2001/10/xml-exc-c14n#"/>` +
    `<ds:SignatureMethod Algorithm="http://www.w3.org/2001/04/xmldsig-more#rsa-sha256"/><ds:Reference URI="#target"><ds:Transforms>${transform}</ds:Transforms>` +
    `<ds:DigestMethod Algorithm="http://www.w3.org/2001/04/xmlenc#sha256"/><ds:DigestValue/></ds:Reference></ds:SignedInfo><ds:SignatureValue/></ds:Signature></r:Root>`
  );
}

const CASES: readonly { name: string; attrs: string; content: string; prefixList?: string; xmlCryptoAgrees?: boolean }[] = [
  { name: "text escapes and character references", attrs: "", content: "a &amp; b &lt; c &gt; d &quot;e&quot; &apos;f&apos; &#13; &#x9;\r\nline" },
  { name: "attributes sorted by namespace then name, values escaped", attrs: ` z="1" a="&lt;&amp;&quot;&#9;&#10;&#13;" t:b="2" unused:c="3" r:a="4"`, content: "" },
  { name: "only visibly used namespaces, declared where first used", attrs: "", content: `<r:x><r:y unused:a="1"/><t:z/></r:x>` },
  { name: "the default namespace, redeclared and undeclared", attrs: "", content: `<d><e xmlns=""><f xmlns="urn:other"><g/></f></e></d>` },
  { name: "comments dropped, CDATA as text, empty elements expanded", attrs: "", content: `<!-- gone --><a><![CDATA[<raw> & ]]></a><b/>` },
  { name: "processing instructions kept", attrs: "", content: `<?app  some data ?><a/><?bare?>`, xmlCryptoAgrees: false },
  { name: "a prefix redeclared to another URI inside", attrs: "", content: `<t:a xmlns:t="urn:t2"><t:b/></t:a>` },
  { name: "InclusiveNamespaces: a listed prefix is written though unused", attrs: "", content: `<a/>`, prefixList: "unused r", xmlCryptoAgrees: false },
  { name: "InclusiveNamespaces #default", attrs: "", content: `<t:a><b/></t:a>`, prefixList: "#default", xmlCryptoAgrees: false },
  { name: "whitespace between elements and non-ASCII text", attrs: "", content: `\n  <a>héllo 𝄞 \u00a0</a>\n  <b>\t</b>\n` },
];

function target(doc: DomElement): DomElement {
  for (const el of allElements(doc)) if (el.local === "Target") return el;
  throw new Error("no target");
}

describe("exclusive c14n", () => {
  it.each(CASES)("matches xmlsec1's digest: $name", ({ attrs, content, prefixList, xmlCryptoAgrees }) => {
    const doc = documentWith(attrs, content, prefixList);
    const signed = xmlsecSign(keys, doc, ["urn:t:Target"]);
    const expected = /<ds:DigestValue>([^<]+)<\/ds:DigestValue>/.exec(signed)![1];
    const ours = excC14n(target(parseDom(doc)), prefixList === undefined ? {} : { inclusivePrefixes: prefixList.split(" ") });
    expect(createHash("sha256").update(ours, "utf8").digest("base64")).toBe(expected);
    if (xmlCryptoAgrees !== false) {
      // xml-crypto signs the same element (the document without our template): its DigestValue is its c14n's hash.
      const signer = new SignedXml({ privateKey: keys.key, canonicalizationAlgorithm: EXC_C14N, signatureAlgorithm: "http://www.w3.org/2001/04/xmldsig-more#rsa-sha256" });
      signer.addReference({
        xpath: "//*[local-name(.)='Target']",
        transforms: [EXC_C14N],
        digestAlgorithm: "http://www.w3.org/2001/04/xmlenc#sha256",
        ...(prefixList !== undefined ? { inclusiveNamespacesPrefixList: prefixList.split(" ") } : {}),
      });
      signer.computeSignature(doc.replace(/<ds:Signature[\s\S]*<\/ds:Signature>/, ""));
      expect(/<DigestValue>([^<]+)<\/DigestValue>/.exec(signer.getSignatureXml())![1]).toBe(expected);
    }
  });

  it("renders a known case exactly", () => {
    const doc = parseDom(`<a:e xmlns:a="urn:a" xmlns:b="urn:b" xmlns="urn:d"><a:f b:y="2" x="1"><g>t&amp;<![CDATA[<]]></g></a:f></a:e>`);
    expect(excC14n(doc.children[0] as DomElement)).toBe(`<a:f xmlns:a="urn:a" xmlns:b="urn:b" x="1" b:y="2"><g xmlns="urn:d">t&amp;&lt;</g></a:f>`);
  });

  it("reads untrusted text with the XML readers' refusals and limits", () => {
    expect(() => parseDom(`<!DOCTYPE a [<!ENTITY x "y">]><a>&x;</a>`)).toThrow(/DOCTYPE declarations are not allowed/);
    expect(() => parseDom(`<a><b></a>`)).toThrow(XmlParseError);
    expect(() => parseDom(`<a>&unknown;</a>`)).toThrow(/undefined entity/);
    expect(() => parseDom(`<p:a/>`)).toThrow(/unbound namespace prefix/);
    expect(() => parseDom(`<a x="1" x="2"/>`)).toThrow(/duplicate attribute/);
    expect(() => parseDom(`<a xmlns:p="urn:1" xmlns:q="urn:1" p:x="1" q:x="2"/>`)).toThrow(/duplicate attribute/);
    expect(() => parseDom("<a>".repeat(200) + "</a>".repeat(200))).toThrow(/nest deeper than 128/);
    expect(() => parseDom(`<a/><b/>`)).toThrow(/content after the root element/);
  });
});
