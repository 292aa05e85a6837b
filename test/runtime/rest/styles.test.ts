/**
 * The "Style Examples" table of the OpenAPI Specification 3.1.1 (section 4.8.12.4), row by row: the client's
 * serializer writes exactly the table's text, and the server's reader turns that text back into the same value.
 * `undefined` cells are the table's n/a (undefined behaviour; the generator refuses those combinations).
 */
import { describe, expect, it } from "vitest";
import type { ValidationIssue } from "../../../src/runtime/index.js";
import { restQuery } from "../../../src/runtime/rest/query.js";
import {
  restCoerce, restCookies, restQueryArray, restQueryDeep, restQueryObject, restReadTemplate, type RestPlan,
} from "../../../src/runtime/rest/style-read.js";
import {
  restAppendCookie, restAppendQuery, restCookieHeader, restHeaderValue, restPathValue, type RestStyle,
} from "../../../src/runtime/rest/style-write.js";

const COLOR = "blue";
const COLORS = ["blue", "black", "brown"];
const RGB = { R: 100, G: 200, B: 150 };
const RGB_PLAN: RestPlan = { fields: [["R", "integer"], ["G", "integer"], ["B", "integer"]] };

interface Row {
  readonly style: RestStyle;
  readonly explode: boolean;
  readonly empty: string | undefined;
  readonly string: string | undefined;
  readonly array: string | undefined;
  readonly object: string | undefined;
}

// prettier-ignore
const TABLE: readonly Row[] = [
  { style: "matrix", explode: false, empty: ";color", string: ";color=blue", array: ";color=blue,black,brown", object: ";color=R,100,G,200,B,150" },
  { style: "matrix", explode: true, empty: ";color", string: ";color=blue", array: ";color=blue;color=black;color=brown", object: ";R=100;G=200;B=150" },
  { style: "label", explode: false, empty: ".", string: ".blue", array: ".blue,black,brown", object: ".R,100,G,200,B,150" },
  { style: "label", explode: true, empty: ".", string: ".blue", array: ".blue.black.brown", object: ".R=100.G=200.B=150" },
  { style: "simple", explode: false, empty: "", string: "blue", array: "blue,black,brown", object: "R,100,G,200,B,150" },
  { style: "simple", explode: true, empty: "", string: "blue", array: "blue,black,brown", object: "R=100,G=200,B=150" },
  { style: "form", explode: false, empty: "?color=", string: "?color=blue", array: "?color=blue,black,brown", object: "?color=R,100,G,200,B,150" },
  { style: "form", explode: true, empty: "?color=", string: "?color=blue", array: "?color=blue&color=black&color=brown", object: "?R=100&G=200&B=150" },
  { style: "spaceDelimited", explode: false, empty: undefined, string: undefined, array: "?color=blue%20black%20brown", object: "?color=R%20100%20G%20200%20B%20150" },
  { style: "spaceDelimited", explode: true, empty: undefined, string: undefined, array: undefined, object: undefined },
  { style: "pipeDelimited", explode: false, empty: undefined, string: undefined, array: "?color=blue%7Cblack%7Cbrown", object: "?color=R%7C100%7CG%7C200%7CB%7C150" },
  { style: "pipeDelimited", explode: true, empty: undefined, string: undefined, array: undefined, object: undefined },
  { style: "deepObject", explode: false, empty: undefined, string: undefined, array: undefined, object: undefined },
  { style: "deepObject", explode: true, empty: undefined, string: undefined, array: undefined, object: "?color%5BR%5D=100&color%5BG%5D=200&color%5BB%5D=150" },
];

const isQueryStyle = (style: RestStyle) => !["matrix", "label", "simple"].includes(style);

/** What the client writes for `value`: the query string with the table's leading "?", or the path value. */
function write(row: Row, value: unknown): string {
  if (!isQueryStyle(row.style)) return restPathValue("color", value, row.style, row.explode);
  const pieces: string[] = [];
  restAppendQuery(pieces, "color", value, row.style, row.explode);
  return `?${pieces.join("&")}`;
}

/** What the server reads back from `text`, coerced with the RGB plan for objects. */
function read(row: Row, text: string, shape: "primitive" | "array" | "object"): unknown {
  const issues: ValidationIssue[] = [];
  let raw: unknown;
  if (!isQueryStyle(row.style)) {
    // The router hands path parameters over percent-decoded.
    raw = restReadTemplate(decodeURIComponent(text), "color", row.style, row.explode, shape, "/path/color", issues);
  } else {
    const query = restQuery(text.slice(1));
    if (shape === "primitive") raw = query.get("color");
    else if (shape === "array") raw = restQueryArray(query, "color", row.style, row.explode);
    else raw = restQueryObject(query, "color", row.style, row.explode, { keys: ["R", "G", "B"] });
  }
  expect(issues).toEqual([]);
  if (shape !== "object" || raw === undefined) return raw;
  const value = restCoerce(raw as never, RGB_PLAN, "/query/color", issues);
  expect(issues).toEqual([]);
  return { ...(value as object) };
}

describe("OpenAPI 3.1.1 style examples", () => {
  for (const row of TABLE) {
    const label = `${row.style} explode=${row.explode}`;
    const cells = [
      ["empty", "", row.empty, "primitive"],
      ["string", COLOR, row.string, "primitive"],
      ["array", COLORS, row.array, "array"],
      ["object", RGB, row.object, "object"],
    ] as const;
    for (const [column, value, text, shape] of cells) {
      if (text === undefined) continue;
      it(`${label} ${column}: writes ${JSON.stringify(text)} and reads it back`, () => {
        expect(write(row, value)).toBe(text);
        expect(read(row, text, shape)).toEqual(value);
      });
    }
  }

  it("has one row per style and explode of OpenAPI's seven styles, 37 defined cells", () => {
    expect(new Set(TABLE.map((r) => `${r.style}/${r.explode}`)).size).toBe(14);
    expect(TABLE.flatMap((r) => [r.empty, r.string, r.array, r.object]).filter((c) => c !== undefined)).toHaveLength(37);
  });
});

describe("headers and cookies", () => {
  it("writes headers in style simple without percent-encoding", () => {
    expect(restHeaderValue(COLORS, false)).toBe("blue,black,brown");
    expect(restHeaderValue(RGB, true)).toBe("R=100,G=200,B=150");
    expect(restHeaderValue("a b/c", false)).toBe("a b/c");
    expect(restHeaderValue(undefined, false)).toBeUndefined();
  });

  it("writes cookies in style form and reads them back", () => {
    const pairs: string[] = [];
    restAppendCookie(pairs, "session", "a b;c", true);
    restAppendCookie(pairs, "color", COLORS, true);
    restAppendCookie(pairs, "fields", COLORS, false);
    restAppendCookie(pairs, "missing", undefined, true);
    const header = restCookieHeader(pairs)!;
    expect(header).toBe("session=a%20b%3Bc; color=blue; color=black; color=brown; fields=blue,black,brown");
    const cookies = restCookies(header);
    expect(cookies.get("session")).toBe("a b;c");
    expect(cookies.getAll("color")).toEqual(COLORS);
    expect(cookies.get("fields")).toBe("blue,black,brown");
    expect(restCookieHeader([])).toBeUndefined();
    expect(restCookies(null).get("x")).toBeNull();
  });
});

describe("the bracket convention of deepObject (Stripe)", () => {
  const write = (name: string, value: unknown) => {
    const pieces: string[] = [];
    restAppendQuery(pieces, name, value, "deepObject", true);
    return decodeURIComponent(pieces.join("&"));
  };

  it("writes primitives plainly, arrays by index and nested objects with nested brackets", () => {
    expect(write("created", 1700000000)).toBe("created=1700000000");
    expect(write("created", { gt: 1, lte: 2 })).toBe("created[gt]=1&created[lte]=2");
    expect(write("expand", ["customer", "invoice"])).toBe("expand[0]=customer&expand[1]=invoice");
    expect(write("items", [{ price: "p1", quantity: 2 }])).toBe("items[0][price]=p1&items[0][quantity]=2");
    expect(write("details", { address: { city: "Paris" } })).toBe("details[address][city]=Paris");
    expect(write("cancel_at", "")).toBe("cancel_at=");
  });

  it("reads what it writes, and the `name[]` form Stripe's docs show", () => {
    const read = (text: string, name: string) => restQueryDeep(restQuery(text), name);
    expect(read("created=17", "created")).toBe("17");
    expect({ ...(read("created%5Bgt%5D=1&created%5Blte%5D=2", "created") as object) }).toEqual({ gt: "1", lte: "2" });
    expect(read("expand[]=customer&expand[]=invoice", "expand")).toEqual(["customer", "invoice"]);
    expect(read("expand[1]=invoice&expand[0]=customer", "expand")).toEqual(["customer", "invoice"]);
    const items = read("items[0][price]=p1&items[0][quantity]=2&items[1][price]=p2", "items") as { price: string }[];
    expect(items.map((i) => ({ ...i }))).toEqual([{ price: "p1", quantity: "2" }, { price: "p2" }]);
    expect(read("other=1", "created")).toBeUndefined();
  });

  it("keeps prototype keys as plain entries and bounds the depth", () => {
    const polluted = restQueryDeep(restQuery("x[__proto__][polluted]=1&x[constructor]=c"), "x") as Record<string, unknown>;
    expect(Object.getPrototypeOf(polluted)).toBeNull();
    expect(Object.keys(polluted).sort()).toEqual(["__proto__", "constructor"]);
    expect(({} as Record<string, unknown>)["polluted"]).toBeUndefined();
    const deep = restQueryDeep(restQuery(`x${"[a]".repeat(20)}=1`), "x");
    let depth = 0;
    for (let node = deep; typeof node === "object" && node !== null; depth++) node = Object.values(node)[0];
    expect(depth).toBe(8);
  });

  it("coerces unions by the shape of the text: Stripe's created is integer | range", () => {
    const plan: RestPlan = { anyOf: ["integer", { fields: [["gt", "integer"], ["lte", "integer"]] }] };
    const issues: ValidationIssue[] = [];
    expect(restCoerce("17", plan, "/query/created", issues)).toBe(17);
    expect({ ...(restCoerce(restQueryDeep(restQuery("created[gt]=1"), "created")!, plan, "/query/created", issues) as object) }).toEqual({ gt: 1 });
    expect(issues).toEqual([]);
    expect(restCoerce("soon", plan, "/query/created", issues)).toBeUndefined();
    expect(restCoerce(restQueryDeep(restQuery("created[gt]=x"), "created")!, plan, "/query/created", issues)).toBeUndefined();
    expect(issues.map((i) => [i.path, i.rule])).toEqual([["/query/created", "type"], ["/query/created", "type"]]);
  });
});

describe("reading malformed style text", () => {
  it("reports a label or matrix value without its prefix", () => {
    const issues: ValidationIssue[] = [];
    expect(restReadTemplate("blue", "color", "label", false, "primitive", "/path/color", issues)).toBeUndefined();
    expect(restReadTemplate(";size=1", "color", "matrix", false, "primitive", "/path/color", issues)).toBeUndefined();
    expect(issues.map((i) => i.rule)).toEqual(["style", "style"]);
  });

  it("keeps a delimiter inside a primitive matrix or label value", () => {
    const issues: ValidationIssue[] = [];
    const text = decodeURIComponent(restPathValue("color", "a;b.c=d", "matrix", false));
    expect(restReadTemplate(text, "color", "matrix", false, "primitive", "/path/color", issues)).toBe("a;b.c=d");
    expect(restReadTemplate(decodeURIComponent(restPathValue("color", "a.b", "label", false)), "color", "label", false, "primitive", "/path/color", issues)).toBe("a.b");
    expect(issues).toEqual([]);
  });

  it("reads free-form exploded objects as every parameter the operation does not declare", () => {
    const query = restQuery("limit=5&a=1&b=2");
    expect({ ...(restQueryObject(query, "filter", "form", true, { exclude: ["limit"] }) as object) }).toEqual({ a: "1", b: "2" });
    expect(restQueryObject(restQuery("limit=5"), "filter", "form", true, { exclude: ["limit"] })).toBeUndefined();
  });
});
