/**
 * Recursive schemas in every shape a document writes them: self and mutual recursion through properties, arrays and
 * maps, recursive array aliases, and recursion through a file of definitions (DigitalOcean's `definitions.yml#/x`).
 * Types, validators and JSON codecs must compile strict and follow the recursion.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { memorySpecHost } from "../../../src/parsers/host.js";
import { generateSpec } from "../../../src/pipeline/generate-files.js";
import { REPO } from "../../helpers/seeds.js";
import { typecheckFiles } from "../../helpers/typecheck.js";
import { fn, type Module } from "./helpers.js";
import { pointRuntimeAt } from "../../helpers/source-runtime.js";

const SPEC = `openapi: 3.1.0
info: {title: T, version: "1"}
paths: {}
components:
  schemas:
    Node:
      type: object
      required: [value]
      properties:
        value: {type: integer}
        next: {$ref: "#/components/schemas/Node"}
        children: {type: array, items: {$ref: "#/components/schemas/Node"}}
        byName: {type: object, additionalProperties: {$ref: "#/components/schemas/Node"}}
        forest: {$ref: "#/components/schemas/Forest"}
    Forest:
      type: array
      items: {$ref: "#/components/schemas/Tree"}
    Tree:
      type: object
      properties:
        forest: {$ref: "#/components/schemas/Forest"}
        agent: {$ref: "definitions.yml#/apiAgent"}
    Nested:
      type: array
      items: {$ref: "#/components/schemas/Nested"}
`;

const DEFINITIONS = `apiAgent:
  type: object
  properties:
    name: {type: string}
    child_agents:
      type: array
      items: {$ref: '#/apiAgent'}
`;

describe("recursive schemas through types, validators and codecs", () => {
  let files: Map<string, string>;
  let validate: Module;
  let json: Module;

  beforeAll(async () => {
    const host = memorySpecHost({ "/spec/api.yaml": SPEC, "/spec/definitions.yml": DEFINITIONS });
    const out = generateSpec({ file: "/spec/api.yaml", display: "api.yaml" }, host).files.filter((f) => /\/(types|validate|json)\.ts$/.test(f.path));
    files = new Map(out.map((f) => [f.path, f.content]));
    const dir = mkdtempSync(path.join(os.tmpdir(), "specforge-recursive-"));
    for (const f of out) {
      mkdirSync(path.dirname(path.join(dir, f.path)), { recursive: true });
      writeFileSync(path.join(dir, f.path), pointRuntimeAt(f.content));
    }
    validate = (await import(pathToFileURL(path.join(dir, "api/validate.ts")).href)) as Module;
    json = (await import(pathToFileURL(path.join(dir, "api/json.ts")).href)) as Module;
  });

  it("type-checks strict", () => {
    expect(typecheckFiles(files)).toEqual([]);
    const types = files.get("api/types.ts")!;
    expect(types).toContain("export type Forest = Tree[];");
    expect(types).toContain("export type Nested = Nested[];");
    expect(types).toMatch(/child_agents\?: ApiAgent\[\];/);
  });

  const rows: [type: string, value: unknown, valid: boolean][] = [
    ["Node", { value: 1, next: { value: 2, children: [{ value: 3, byName: { a: { value: 4 } } }] } }, true],
    ["Node", { value: 1, next: { value: 2, children: [{ value: 3, byName: { a: { value: "4" } } }] } }, false],
    ["Node", { value: 1, forest: [{ forest: [{ agent: { child_agents: [{ name: "x" }] } }] }] }, true],
    ["Node", { value: 1, forest: [{ forest: [{ agent: { child_agents: [{ name: 5 }] } }] }] }, false],
    ["Nested", [[], [[[]]]], true],
    ["Nested", [[], [[[1]]]], false],
  ];
  it.each(rows)("is%s(%j) is %s, and validate agrees", (name, value, valid) => {
    expect(fn<(v: unknown) => boolean>(validate, `is${name}`)(value)).toBe(valid);
    expect(fn<(v: unknown) => unknown[]>(validate, `validate${name}`)(value).length === 0).toBe(valid);
  });

  it("reports where deep in the recursion a value fails", () => {
    const issues = fn<(v: unknown) => { path: string }[]>(validate, "validateNode")({ value: 1, next: { value: 2, children: [{ value: 3, byName: { a: { value: "4" } } }] } });
    expect(issues.map((i) => i.path)).toEqual(["/next/children/0/byName/a/value"]);
  });

  it("round-trips recursive values through json.ts", () => {
    const value = { value: 1, next: { value: 2, children: [{ value: 3 }] }, forest: [{ forest: [] }] };
    const text = fn<(v: unknown) => string>(json, "encodeNodeJson")(value);
    expect(JSON.parse(text)).toEqual(value);
    expect(fn<(t: string) => unknown>(json, "decodeNodeJson")(text)).toEqual(value);
    expect(fn<(t: string) => unknown>(json, "decodeNestedJson")("[[],[[]]]")).toEqual([[], [[]]]);
  });

  it("a value nested beyond the stack is invalid, not a crash", () => {
    let deep: unknown = [];
    for (let i = 0; i < 200_000; i++) deep = [deep];
    expect(fn<(v: unknown) => boolean>(validate, "isNested")(deep)).toBe(false);
  });
});
