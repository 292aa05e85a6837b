/**
 * The xml: prefix is bound by definition and must never be declared (Namespaces in XML 1.0 §3): xml:lang and other
 * attributes of the XML namespace are written with it, with no xmlns declaration, by the writer's own prefixes and
 * by a generated codec's prefix scope alike (the W3C suite's introspection set: common/xsts.xsd's xml:lang).
 */
import { describe, expect, it } from "vitest";
import { parseXml, XmlWriter } from "../../../src/runtime/index.js";

const XML_NS = "http://www.w3.org/XML/1998/namespace";

describe("the xml: prefix", () => {
  for (const [what, options] of [
    ["the writer's own prefixes", {}],
    ["a prefix scope that lists the XML namespace", { namespaces: [["urn:a", "a"], [XML_NS, "ns"]] as [string, string][] }],
  ] as const) {
    it(`is used, never declared: ${what}`, () => {
      const w = new XmlWriter(options);
      w.startElement("urn:a", "r");
      w.attribute(XML_NS, "lang", "en");
      w.startElement("urn:a", "c");
      w.attribute(XML_NS, "space", "preserve");
      w.endElement();
      w.endElement();
      const out = w.toString();
      expect(out).not.toContain(XML_NS);
      expect(out).toMatch(/ xml:lang="en"/);
      expect(out).toMatch(/ xml:space="preserve"/);
      const root = parseXml(out);
      expect(root.attrs.find((a) => a.local === "lang")).toMatchObject({ ns: XML_NS, value: "en" });
    });
  }
});
