import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  parseXsdInt,
  XmlCodecs,
  XmlDecodeError,
  XmlParseError,
  XmlPullReader,
  XmlSimpleCodec,
  xmlTextCodec,
  type XmlFieldSpec,
  type XmlLimits,
} from "../../../src/runtime/index.js";
import { resetTextMemoryForTests } from "../../../src/runtime/xml/text-memory.js";
import { account, accountCodecs, accountList, USUAL_ACCOUNT } from "../../helpers/xml-accounts.js";

/**
 * The known-tag fast paths of the decoders (XmlPullReader.enterKnown / plainChild, used by the record codec for a
 * child it met before in the same bindings) must give exactly what the general path gives: the same values, the
 * same errors with the same line:column. Every document here is decoded twice, once as is and once with the fast
 * paths turned off (they then always decline), and the outcomes compared; the first record of each list primes the
 * fast paths, the second is the case under test.
 */
const NS = "urn:t";
const OTHER = "urn:other";
const XSI = "http://www.w3.org/2001/XMLSchema-instance";
const text = xmlTextCodec((t: string) => t);
const int = new XmlSimpleCodec((t: string, path: string) => parseXsdInt(t, -2147483648, 2147483647, path), (v: number) => String(v));

/** A fresh set of codecs (nothing met yet): <list><item>*</list>, item = id, n?, tag*, sub?, ##any*. */
function codecs() {
  const c = new XmlCodecs([[NS, "t"]]);
  const sub = c.record(NS, "sub", "Sub", 0, () => [[0, NS, "v", "v", text]] as XmlFieldSpec[]);
  const item = c.record(NS, "item", "Item", 0, () =>
    [
      [0 + 4, NS, "id", "id", text],
      [0 + 16, NS, "n", "n", int],
      [0 + 8, NS, "tag", "tag", text],
      [0, NS, "sub", "sub", sub],
      [3 + 8, NS, "##any", "$any"],
    ] as XmlFieldSpec[],
  );
  const list = c.record(NS, "list", "List", 0, () => [[8, NS, "item", "item", item]] as XmlFieldSpec[]);
  c.types([[NS, "item", item], [NS, "sub", sub]]);
  return c.element(NS, "list", list, false);
}

const HEAD = `<t:list xmlns:t="${NS}" xmlns:o="${OTHER}" xmlns:xsi="${XSI}">`;
const PLAIN = `<t:item><t:id>1</t:id><t:n>2</t:n><t:tag>a &amp; b</t:tag><t:tag>c</t:tag><t:sub><t:v>v</t:v></t:sub><o:x>x</o:x><t:id>late</t:id></t:item>`;
/** The list of a priming record, `variant` and the priming record again. */
const doc = (variant: string, head = HEAD) => `${head}${PLAIN}${variant}${PLAIN}</t:list>`;

/** A decode's outcome: its value, or its error's class and message (the message carries line:column). */
function outcome(run: () => unknown): unknown {
  try {
    return { value: run() };
  } catch (e) {
    if (e instanceof XmlParseError || e instanceof XmlDecodeError) return { error: `${e.constructor.name}: ${e.message}` };
    throw e;
  }
}

let hits = 0;
const plain = XmlPullReader.prototype.plainChild;
const enter = XmlPullReader.prototype.enterKnown;

/** Decode with the fast paths on (counting the children they read), and with them off. */
function both(xml: string, limits?: Partial<XmlLimits>): { fast: unknown; general: unknown } {
  const counting = vi.spyOn(XmlPullReader.prototype, "plainChild").mockImplementation(function (this: XmlPullReader, ...args) {
    const value = plain.apply(this, args);
    if (value !== undefined) hits++;
    return value;
  });
  const entering = vi.spyOn(XmlPullReader.prototype, "enterKnown").mockImplementation(function (this: XmlPullReader, ...args) {
    const entered = enter.apply(this, args);
    if (entered) hits++;
    return entered;
  });
  const fast = outcome(() => codecs().fromXml(xml, { limits }));
  counting.mockReturnValue(undefined);
  entering.mockReturnValue(false);
  const general = outcome(() => codecs().fromXml(xml, { limits }));
  vi.restoreAllMocks();
  return { fast, general };
}

/** The fast and general outcomes agree; returns the outcome. */
function same(xml: string, limits?: Partial<XmlLimits>): unknown {
  const { fast, general } = both(xml, limits);
  expect(fast).toEqual(general);
  return fast;
}

/** The second item of a decoded list. */
function second(result: unknown): unknown {
  return (result as { value: { item: unknown[] } }).value.item[1];
}

afterEach(() => {
  vi.restoreAllMocks();
  hits = 0;
});

const plainItem = {
  id: "1",
  n: 2,
  tag: ["a & b", "c"],
  sub: { v: "v" },
  $any: [
    { ns: OTHER, name: "x", value: "x" },
    { ns: NS, name: "id", value: "late" },
  ],
};

// Both ways of comparing tags: in the text memory (a resident document) and by substrings (no memory).
describe.each([
  ["with", true],
  ["without", false],
])("known-tag fast paths (%s the text memory)", (_, available) => {
  beforeEach(() => resetTextMemoryForTests({ available }));
  afterEach(() => resetTextMemoryForTests());

  it("read repeated records through the fast paths, with the general path's values", () => {
    const result = same(doc(PLAIN));
    expect(result).toEqual({ value: { item: [plainItem, plainItem, plainItem] } });
    // Every child of the second and third records by a fast path (8 each: the two <t:tag> of a list too), and the
    // third record itself (the second is the first <t:item> met after an <t:item>).
    expect(hits).toBe(2 * 8 + 1);
  });

  it("fall back for attributes, namespace declarations and spaces in a tag, with the same values", () => {
    const variants = [
      `<t:item><t:id a="1">1</t:id></t:item>`,
      `<t:item><t:id xsi:type="o:y">1</t:id></t:item>`,
      `<t:item><t:id xmlns:t="${NS}">1</t:id></t:item>`,
      `<t:item><t:id >1</t:id><t:n >2</t:n ></t:item>`,
      `<t:item><t:id\t>1</t:id\n></t:item>`,
      `<t:item a="1"><t:id>1</t:id></t:item>`,
      `<t:item ><t:id>1</t:id></t:item>`,
    ];
    for (const v of variants) {
      const result = same(doc(v));
      expect(second(result)).toEqual({ id: "1", ...(v.includes("t:n") ? { n: 2 } : {}) });
    }
  });

  it("fall back for text that is not plain: comments, CDATA, references, CR, child elements", () => {
    const cases: [string, string][] = [
      [`<t:id>a<!-- c -->b</t:id>`, "ab"],
      [`<t:id><![CDATA[<x>&amp;]]></t:id>`, "<x>&amp;"],
      [`<t:id>&lt;&#65;&#x42;&gt;&quot;&apos;</t:id>`, `<AB>"'`],
      // Predefined entities alone (resolved in place), at the start, the end, side by side and between text.
      [`<t:id>&amp;</t:id>`, "&"],
      [`<t:id>&lt;a</t:id>`, "<a"],
      [`<t:id>a&gt;</t:id>`, "a>"],
      [`<t:id>&amp;&amp;x&lt;&gt;y &quot;z&apos;</t:id>`, `&&x<>y "z'`],
      [`<t:id>a &amp; b &amp; c &#x43;</t:id>`, "a & b & c C"],
      [`<t:id>a\r\nb\rc</t:id>`, "a\nb\nc"],
      [`<t:id>a<t:b>no</t:b>c</t:id>`, "ac"],
      [`<t:id>a<?pi x?>b</t:id>`, "ab"],
      [`<t:id></t:id>`, ""],
      [`<t:id/>`, ""],
      [`<t:id>]</t:id>`, "]"],
    ];
    for (const [field, value] of cases) {
      const result = same(doc(`<t:item>${field}</t:item>`));
      expect(second(result)).toEqual({ id: value });
    }
  });

  it("report what is wrong in a field's text, start or end tag exactly as the general path (message, line:column)", () => {
    const cases: [string, string][] = [
      [`<t:id>a &bad; b</t:id>`, "undefined entity &bad; (only the five predefined entities exist)"],
      [`<t:id>a &amp b</t:id>`, "unterminated entity reference"],
      [`<t:id>a &amp; b &bad; c</t:id>`, "undefined entity &bad; (only the five predefined entities exist)"],
      [`<t:id>&lt;&gt;&</t:id>`, "unterminated entity reference"],
      [`<t:id>a ]]> b</t:id>`, "']]>' is not allowed in text"],
      [`<t:id>a</t:idX>`, "end tag </t:idX> does not match <t:id>"],
      [`<t:id>a</t:i>`, "end tag </t:i> does not match <t:id>"],
      [`<t:id>a\u0001</t:id>`, "character U+0001 is not allowed in XML"],
      [`<t:id a="\u0002">a</t:id>`, "character U+0002 is not allowed in XML"],
      [`<t:id>a<!-- \u0003 --></t:id>`, "character U+0003 is not allowed in XML"],
      [`<t:id>a`, "end tag </t:item> does not match <t:id>"],
    ];
    for (const [field, message] of cases) {
      const result = same(doc(`<t:item>${field}</t:item>`).replace("\n", ""));
      expect((result as { error: string }).error).toContain(message);
      expect((result as { error: string }).error).toMatch(/XmlParseError: .*\d+:\d+|XmlParseError/);
    }
    // Over several lines: the position is the general path's.
    const multiline = same(doc(`\n<t:item>\n  <t:id>a &bad;</t:id>\n</t:item>`));
    expect(multiline).toEqual({ error: expect.stringContaining("3:") });
  });

  it("keep a simple type's error and its path", () => {
    const result = same(doc(`<t:item><t:id>1</t:id><t:n>abc</t:n></t:item>`));
    expect(result).toEqual({ error: expect.stringMatching(/^XmlDecodeError: \/item\/1\/n: /) });
  });

  it("tell names that share a prefix apart", () => {
    const result = same(doc(`<t:item><t:id>3</t:id><t:nn>1</t:nn><t:tagX>2</t:tagX><t:ta>4</t:ta></t:item>`));
    expect(second(result)).toEqual({
      id: "3",
      $any: [
        { ns: NS, name: "nn", value: "1" },
        { ns: NS, name: "tagX", value: "2" },
        { ns: NS, name: "ta", value: "4" },
      ],
    });
    // <t:idX> where <t:id> is expected first: not the id (which is then missing: the position rule sends a later
    // <t:id> to the wildcard).
    expect(same(doc(`<t:item><t:idX>1</t:idX><t:id>3</t:id></t:item>`))).toEqual({ error: "XmlDecodeError: /item/1: required element id is missing" });
  });

  it("follow a prefix bound to another namespace in a nested scope, and the same binding declared again", () => {
    // The record's own element rebinds t: its t:id is in urn:other, not the field (the record lacks its id).
    const rebound = same(doc(`<u:item xmlns:u="${NS}" xmlns:t="${OTHER}"><t:id>1</t:id></u:item>`));
    expect(rebound).toEqual({ error: "XmlDecodeError: /item/1: required element id is missing" });
    // Inside <sub>, t:v is in urn:other: not sub's v (which is optional), so sub is empty.
    const nested = same(doc(`<t:item><t:id>1</t:id><u:sub xmlns:u="${NS}" xmlns:t="${OTHER}"><t:v>v</t:v></u:sub></t:item>`));
    expect(second(nested)).toEqual({ id: "1", sub: {} });
    const again = same(doc(`<t:item xmlns:t="${NS}"><t:id>1</t:id><t:tag>a</t:tag></t:item>`));
    expect(second(again)).toEqual({ id: "1", tag: ["a"] });
    // A whole document whose prefixes mean other namespaces than the last one's: nothing is taken from before.
    const swapped = `<t:list xmlns:t="${NS}" xmlns:o="${OTHER}">${PLAIN}</t:list>`.replace(`xmlns:t="${NS}" xmlns:o="${OTHER}"`, `xmlns:t="${NS}" xmlns:o="${NS}"`);
    expect(same(swapped)).toEqual({ value: { item: [{ ...plainItem, $any: [{ ns: NS, name: "x", value: "x" }, { ns: NS, name: "id", value: "late" }] }] } });
  });

  it("read children in another order, missing or repeated, nil, and whitespace between elements", () => {
    const cases: [string, unknown][] = [
      [`<t:item><t:id>1</t:id><o:x>x</o:x><t:tag>a</t:tag></t:item>`, { id: "1", $any: [{ ns: OTHER, name: "x", value: "x" }, { ns: NS, name: "tag", value: "a" }] }],
      [`<t:item><t:id>1</t:id><t:sub><t:v>v</t:v></t:sub></t:item>`, { id: "1", sub: { v: "v" } }],
      [`<t:item><t:id>1</t:id><t:tag>a</t:tag><t:tag>b</t:tag><t:tag>c</t:tag></t:item>`, { id: "1", tag: ["a", "b", "c"] }],
      [`<t:item><t:id>1</t:id><t:n xsi:nil="true"/></t:item>`, { id: "1", n: null }],
      [`<t:item>\n  <t:id>1</t:id>\n  <t:n>2</t:n>\n</t:item>`, { id: "1", n: 2 }],
      [`<t:item><t:id>1</t:id><o:x><o:y>deep</o:y></o:x></t:item>`, { id: "1", $any: [{ ns: OTHER, name: "x", value: [{ ns: OTHER, name: "y", value: "deep" }] }] }],
    ];
    for (const [v, expected] of cases) expect(second(same(doc(v)))).toEqual(expected);
    // Pretty-printed throughout: the fast paths still read the children (whitespace before a tag is passed over).
    hits = 0;
    const pretty = doc(PLAIN).replace(/></g, ">\n  <");
    expect(same(pretty)).toEqual({ value: { item: [plainItem, plainItem, plainItem] } });
  });

  it("compare long end-and-next-start tags piece by piece, declining a difference in any piece", () => {
    // The pair </t:billingCountryName><t:subrecordOfTheAccount> is 49 characters: five pieces (see shortPieces).
    const list = accountList;
    const decode = (xml: string) => {
      const { fast, general } = (() => {
        const entering = vi.spyOn(XmlPullReader.prototype, "enterKnown");
        const fast = outcome(() => accountCodecs().fromXml(xml));
        hits = entering.mock.results.filter((r) => r.value === true).length;
        entering.mockReturnValue(false);
        vi.spyOn(XmlPullReader.prototype, "plainChild").mockReturnValue(undefined);
        const general = outcome(() => accountCodecs().fromXml(xml));
        vi.restoreAllMocks();
        return { fast, general };
      })();
      expect(fast).toEqual(general);
      return fast as { value?: { account: unknown[] }; error?: string };
    };
    const usual = USUAL_ACCOUNT;
    const full = { billingCountryName: "x", subrecordOfTheAccount: { v: "v" } };
    expect(decode(list(usual, usual, usual))).toEqual({ value: { account: [full, full, full] } });
    // The third record's <t:subrecordOfTheAccount> entered on the strength of the pair compared before it.
    expect(hits).toBeGreaterThanOrEqual(1);
    // An unknown element (skipped) where the pair expects the record, differing in the first, a middle or the last
    // piece: entering it as the record would fail on its end tag, or read what is not the record.
    for (const next of ["t:subrecordOfTheAccounX", "t:subrecordXfTheAccount", "t:Xubrecord"]) {
      expect(decode(list(usual, usual, account(next), usual)).value!.account[2]).toEqual({ billingCountryName: "x" });
    }
    // A wrong end tag, its difference in the first or the second piece: the general path's error.
    for (const close of ["t:XillingCountryName", "t:billingCountryNamX"]) {
      expect(decode(list(usual, usual, account("t:subrecordOfTheAccount", close))).error).toContain(`end tag </${close}> does not match <t:billingCountryName>`);
    }
  });

  it("enforce the depth and name-length limits as the general path does", () => {
    // list > item > sub > v is 4 deep: with maxDepth 3 the first record already fails, the same way.
    expect(same(doc(PLAIN), { maxDepth: 3 })).toEqual({ error: expect.stringContaining("elements nested deeper than 3") });
    expect(same(doc(PLAIN), { maxNameLength: 5 })).toEqual({ error: expect.stringContaining("name longer than 5 characters") });
  });
});

describe("XmlPullReader known tags", () => {
  it("knownTag describes only plain start tags", () => {
    const tagOf = (xml: string) => {
      const r = XmlPullReader.document(`<r xmlns:p="urn:p">${xml}</r>`);
      r.nextChild();
      return r.knownTag(undefined);
    };
    expect(tagOf(`<p:a>x</p:a>`)).toMatchObject({ qname: "p:a", open: "<p:a>", close: "</p:a>", ns: "urn:p", local: "a", prefix: "p" });
    expect(tagOf(`<p:a b="1">x</p:a>`)).toBeUndefined();
    expect(tagOf(`<p:a xmlns:q="urn:q">x</p:a>`)).toBeUndefined();
    expect(tagOf(`<p:a >x</p:a>`)).toBeUndefined();
    expect(tagOf(`<p:a/>`)).toBeUndefined();
  });

  it("plainChild and enterKnown read what nextChild would, and decline anything else without moving", () => {
    const r = XmlPullReader.document(`<r><a>1</a><a>2</a><a><b/></a><b>3</b><a>4</a></r>`);
    r.nextChild();
    const a = r.knownTag(undefined)!;
    expect(r.readText()).toBe("1");
    expect(r.plainChild(a)).toBe("2");
    expect([r.local, r.level]).toEqual(["a", 1]);
    expect(r.plainChild(a)).toBeUndefined(); // <a><b/></a>: not only text
    expect(r.enterKnown(a)).toBe(true);
    expect(r.nextChild()).toBe(true);
    expect(r.local).toBe("b");
    expect(r.nextChild()).toBe(false);
    expect(r.nextChild()).toBe(false);
    expect(r.enterKnown(a)).toBe(false); // <b>: another name
    expect(r.plainChild(a)).toBeUndefined();
    expect(r.nextChild()).toBe(true);
    expect(r.readText()).toBe("3");
    expect(r.plainChild(a)).toBe("4");
    expect(r.nextChild()).toBe(false);
    r.end();
  });

  it("a tag met in one document's bindings is not taken for the same text in another's", () => {
    const first = XmlPullReader.document(`<r xmlns:p="urn:1"><p:a>1</p:a></r>`);
    first.nextChild();
    const tag = first.knownTag(undefined)!;
    const second = XmlPullReader.document(`<r xmlns:p="urn:2"><p:a>1</p:a></r>`);
    expect(second.plainChild(tag)).toBeUndefined();
    expect(second.enterKnown(tag)).toBe(false);
    expect(second.nextChild()).toBe(true);
    expect(second.ns).toBe("urn:2");
  });
});
