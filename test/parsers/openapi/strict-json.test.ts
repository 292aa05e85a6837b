/** A `.json` spec must be strict JSON: what YAML would let through is refused with its position, all at once. */
import { describe, expect, it } from "vitest";
import { SpecError, SpecErrors } from "../../../src/errors.js";
import { strictJsonErrors } from "../../../src/parsers/openapi/strict-json.js";
import { parse, parseError } from "./helpers.js";

const valid = (body: string) => `{\n  "openapi": "3.0.3",\n  "info": {"title": "T", "version": "1"},\n${body}\n}\n`;
const PET = `  "components": {"schemas": {"Pet": {"type": "object", "properties": {"name": {"type": "string"}}}}}`;

describe("strict JSON specs", () => {
  it("accepts a JSON document and keeps the positions of later errors", () => {
    expect(parse(valid(PET), {}, "/spec/api.json").types.map((t) => t.name)).toEqual(["Pet"]);
    const bad = valid(`  "components": {"schemas": {"Pet": {"type": "strin"}}}`);
    expect(parseError(bad, {}, "/spec/api.json")).toBe('/spec/api.json:4:38: unknown schema type "strin"');
  });

  it.each([
    ["a trailing comma in an object", `{"openapi": "3.0.3",\n "info": {"title": "T", "version": "1",}}`, "/spec/api.json:2:39: trailing comma before '}' (not allowed in JSON)"],
    ["a trailing comma in an array", `{"openapi": "3.0.3", "info": {"title": "T", "version": "1"},\n "servers": [{"url": "/"},\n ]}`, "/spec/api.json:2:26: trailing comma before ']' (not allowed in JSON)"],
    ["a line comment", `{"openapi": "3.0.3", // version\n "info": {"title": "T", "version": "1"}}`, "/spec/api.json:1:22: comments are not allowed in JSON"],
    ["a block comment", `/* api */ {"openapi": "3.0.3", "info": {"title": "T", "version": "1"}}`, "/spec/api.json:1:1: comments are not allowed in JSON"],
    ["a duplicate key", `{"openapi": "3.0.3",\n "info": {"title": "T", "version": "1"},\n "openapi": "3.1.0"}`, '/spec/api.json:3:2: duplicate key "openapi" (first at line 1, column 2; not allowed in a JSON spec)'],
    ["a duplicate key spelled with an escape", `{"openapi": "3.0.3", "info": {"title": "T", "\\u0074itle": "U", "version": "1"}}`, '/spec/api.json:1:45: duplicate key "title" (first at line 1, column 31; not allowed in a JSON spec)'],
    ["a single-quoted string", `{"openapi": '3.0.3'}`, `/spec/api.json:1:13: invalid JSON: expected a JSON value, found "'"`],
    ["an unquoted key", `{openapi: "3.0.3"}`, `/spec/api.json:1:2: invalid JSON: expected a property name in double quotes, found "o"`],
    ["text after the document", `{"openapi": "3.0.3"} {}`, `/spec/api.json:1:22: invalid JSON: unexpected "{" after the JSON value`],
  ])("refuses %s with its position", (_what, text, message) => {
    expect(parseError(text, {}, "/spec/api.json")).toBe(message);
  });

  it("reports every trailing comma, comment and duplicate key of a file in one run, in order", () => {
    const text = `{\n  "openapi": "3.0.3", // 3.0\n  "info": {"title": "T", "version": "1",},\n  "paths": {},\n  "paths": {}\n}`;
    let error: unknown;
    try {
      parse(text, {}, "/spec/api.json");
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(SpecErrors);
    expect((error as SpecErrors).errors.map((e) => `${e.line}:${e.column}: ${e.detail}`)).toEqual([
      "2:23: comments are not allowed in JSON",
      "3:40: trailing comma before '}' (not allowed in JSON)",
      '5:3: duplicate key "paths" (first at line 4, column 3; not allowed in a JSON spec)',
    ]);
  });

  it("checks files reached by $ref too, and leaves .yaml files to YAML", () => {
    const main = valid(`  "paths": {}, "components": {"schemas": {"Pet": {"$ref": "pet.json"}}}`);
    expect(parseError(main, { "pet.json": `{"type": "object",}` }, "/spec/api.json")).toBe("/spec/pet.json:1:18: trailing comma before '}' (not allowed in JSON)");
    expect(parseError(`openapi: 3.0.3\ninfo: {title: T, version: "1",}\n`)).toBe("");
  });

  it("survives deep nesting and unterminated input without a crash", () => {
    const deep = "[".repeat(200_000);
    const errors = strictJsonErrors(deep, "deep.json");
    expect(errors.map((e) => e.message)).toEqual(["deep.json:1:200001: invalid JSON: unexpected end of the document, expected a value"]);
    expect(strictJsonErrors(`{"a": "x`, "u.json")[0]).toBeInstanceOf(SpecError);
    expect(strictJsonErrors(`{"a": "x`, "u.json").map((e) => e.message)).toEqual(["u.json:1:7: invalid JSON: unterminated string"]);
    expect(strictJsonErrors(`{"a": 1 /* open`, "c.json").map((e) => e.message)).toEqual(["c.json:1:9: invalid JSON: unterminated comment"]);
    expect(strictJsonErrors("\uFEFF[1, 2.5e3, -0, true, null, \"\\u00e9\\n\"]", "ok.json")).toEqual([]);
  });
});
