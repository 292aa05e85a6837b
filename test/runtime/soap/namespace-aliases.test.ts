import { describe, expect, it } from "vitest";
import { NamespaceCanonicalizer, namespaceAliasTable } from "../../../src/runtime/soap/namespace-aliases.js";
import { attrValue, parseXml, xsiType, XmlWriter, XSI_NS } from "../../../src/runtime/index.js";

const SPEC = { partner: "urn:partner.api.example", sobject: "urn:sobject.api.example" };
const REAL = { partner: "urn:partner.soap.sforce.com", sobject: "urn:sobject.partner.soap.sforce.com" };
const family = { [SPEC.partner]: REAL.partner, [SPEC.sobject]: REAL.sobject };

describe("namespaceAliasTable", () => {
  it("is undefined without families (the server then never looks at aliases)", () => {
    expect(namespaceAliasTable(undefined)).toBeUndefined();
    expect(namespaceAliasTable([])).toBeUndefined();
    expect(namespaceAliasTable([{ [SPEC.partner]: SPEC.partner }])).toBeUndefined();
  });

  it("indexes alias -> spec and alias -> its family", () => {
    const table = namespaceAliasTable([family, { [SPEC.partner]: "urn:other" }])!;
    expect(table.toSpec.get(REAL.sobject)).toBe(SPEC.sobject);
    expect(table.toSpec.get("urn:other")).toBe(SPEC.partner);
    expect([...table.familyOf.get(REAL.partner)!]).toEqual([[SPEC.partner, REAL.partner], [SPEC.sobject, REAL.sobject]]);
    expect([...table.familyOf.get("urn:other")!]).toEqual([[SPEC.partner, "urn:other"]]);
  });

  it.each([
    [[{ [SPEC.partner]: "urn:x" }, { [SPEC.sobject]: "urn:x" }], "namespace alias urn:x stands for both urn:partner.api.example and urn:sobject.api.example"],
    [[{ [SPEC.partner]: SPEC.sobject, [SPEC.sobject]: "urn:y" }], "namespace alias urn:sobject.api.example is also a spec namespace"],
    [[{ [SPEC.partner]: "" }], "namespace alias of urn:partner.api.example must be a non-empty URI"],
  ])("refuses an ambiguous table %#", (families, message) => {
    expect(() => namespaceAliasTable(families)).toThrow(new TypeError(message));
  });
});

describe("NamespaceCanonicalizer", () => {
  const canonical = () => new NamespaceCanonicalizer(namespaceAliasTable([family])!.toSpec);

  it("renames element and attribute namespaces and the scopes xsi:type resolves through, never text", () => {
    const doc = parseXml(
      `<create xmlns="${REAL.partner}" xmlns:ens="${REAL.sobject}" xmlns:xsi="${XSI_NS}">` +
        `<sObjects xsi:type="ens:sObject" ens:mark="1"><ens:type>Account</ens:type><ens:Name>${REAL.partner}</ens:Name></sObjects>` +
        `</create>`,
    );
    const out = canonical().element(doc);
    expect(out.ns).toBe(SPEC.partner);
    const so = out.children[0]!;
    expect(so.ns).toBe(SPEC.partner);
    expect(xsiType(so)).toEqual({ ns: SPEC.sobject, local: "sObject" });
    expect(attrValue(so, SPEC.sobject, "mark")).toBe("1");
    expect(so.children.map((c) => [c.ns, c.local, c.text])).toEqual([
      [SPEC.sobject, "type", "Account"],
      // A field whose value happens to be an alias URI keeps its value.
      [SPEC.sobject, "Name", REAL.partner],
    ]);
    // The input tree is left as it was.
    expect(doc.ns).toBe(REAL.partner);
    expect(xsiType(doc.children[0]!)).toEqual({ ns: REAL.sobject, local: "sObject" });
  });

  it("returns a tree with nothing to rename as it is (no copies)", () => {
    const doc = parseXml(`<p:login xmlns:p="${SPEC.partner}"><p:username>a</p:username><x>b</x></p:login>`);
    expect(canonical().element(doc)).toBe(doc);
  });

  it("keeps unchanged subtrees of a renamed tree", () => {
    const doc = parseXml(`<r xmlns:a="${REAL.partner}"><a:x/><y xmlns:o="urn:unrelated"><o:z/></y></r>`);
    // <r> and <y> are in no namespace but their scope binds the alias, so they are copied; the binding is renamed.
    const out = canonical().element(doc);
    expect(out.children[0]!.ns).toBe(SPEC.partner);
    expect(out.children[1]!.children[0]!.ns).toBe("urn:unrelated");
    expect(out.children[1]!.children[0]!.scope!.parent!.uri).toBe(SPEC.partner);
  });

  it("follows a long scope chain without recursion", () => {
    const depth = 120;
    let xml = "";
    for (let i = 0; i < depth; i++) xml += `<e xmlns:p${i}="${i % 2 ? REAL.partner : "urn:other"}">`;
    xml += `<p1:leaf/>`;
    for (let i = 0; i < depth; i++) xml += `</e>`;
    let node = canonical().element(parseXml(xml));
    for (let i = 0; i < depth; i++) node = node.children[0]!;
    expect(node.ns).toBe(SPEC.partner);
    let count = 0;
    for (let s = node.scope; s !== null; s = s.parent) count += s.uri === SPEC.partner ? 1 : 0;
    expect(count).toBe(depth / 2);
  });
});

describe("XmlWriter namespaceAliases", () => {
  it("writes the alias URI in declarations only: element names, xsi:type and text are as encoded", () => {
    const w = new XmlWriter({ namespaces: [[SPEC.partner, "ns1"], [SPEC.sobject, "ns3"], [XSI_NS, "xsi"]], namespaceAliases: new Map(Object.entries(family)) });
    w.startElement(SPEC.partner, "records");
    w.xsiType(SPEC.sobject, "sObject");
    w.simpleElement(SPEC.sobject, "Name", SPEC.partner);
    w.simpleElement("urn:late", "x", "late binding");
    w.endElement();
    const xml = w.toString();
    expect(xml).toBe(
      `<ns1:records xmlns:ns1="${REAL.partner}" xmlns:ns3="${REAL.sobject}" xmlns:xsi="${XSI_NS}" xsi:type="ns3:sObject">` +
        `<ns3:Name>${SPEC.partner}</ns3:Name><ns2:x xmlns:ns2="urn:late">late binding</ns2:x></ns1:records>`,
    );
    const back = parseXml(xml);
    expect(back.ns).toBe(REAL.partner);
    expect(xsiType(back)).toEqual({ ns: REAL.sobject, local: "sObject" });
  });
});
