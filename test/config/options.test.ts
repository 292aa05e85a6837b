import { readFileSync } from "node:fs";
import path from "node:path";
import { Ajv } from "ajv";
import { Command } from "commander";
import { describe, expect, expectTypeOf, it } from "vitest";
import { addTableOptions } from "../../src/cli/flags.js";
import { configJsonSchema, configJsonSchemaText } from "../../src/config/config-schema.js";
import { OPTIONS, type ConfigFile, type SpecEntry } from "../../src/config/options.js";
import { configProblem } from "../../src/config/validate-config.js";
import { ARTIFACTS } from "../../src/emitters/index.js";
import { ARTIFACT_GROUP_OF, selectArtifacts } from "../../src/pipeline/artifact-groups.js";
import { REPO } from "../helpers/seeds.js";

// Configs both validators must accept, and ones both must reject: the schema and the table-driven validation agree.
const GOOD: unknown[] = [
  {},
  { $schema: "./specforge.schema.json", out: "gen", specs: "specs" },
  { specs: ["a.proto", { input: "b.wsdl", out: "bee", int64: "string", dates: "Date", artifacts: ["client"] }] },
  { protoPaths: ["../protos"], templates: "tpl", int64: "number", artifacts: ["types", "validators"] },
];
const BAD: unknown[] = [
  [],
  "x",
  { outt: "x" },
  { out: 3 },
  { specs: 3 },
  { specs: [3] },
  { specs: [{ out: "no-input" }] },
  { specs: [{ input: "a.proto", int64: "huge" }] },
  { specs: [{ input: "a.proto", extra: 1 }] },
  { protoPaths: [1] },
  { artifacts: ["types", "docs"] },
  { dates: "date" },
  { quiet: true },
  { watch: true },
];

describe("the option table", () => {
  it("specforge.schema.json is what `npm run schema` writes (run it after changing src/config/options.ts)", () => {
    expect(readFileSync(path.join(REPO, "specforge.schema.json"), "utf8")).toBe(configJsonSchemaText());
  });

  it("the repo's own config names the schema and is valid", () => {
    const config = JSON.parse(readFileSync(path.join(REPO, "specforge.config.json"), "utf8"));
    expect(config.$schema).toBe("./specforge.schema.json");
    expect(configProblem(config)).toBeUndefined();
  });

  const validate = new Ajv({ strict: false }).compile(configJsonSchema());
  it.each(GOOD.map((c) => [JSON.stringify(c), c]))("schema and validation accept %s", (_, config) => {
    expect(configProblem(config)).toBeUndefined();
    expect(validate(config)).toBe(true);
  });
  it.each(BAD.map((c) => [JSON.stringify(c), c]))("schema and validation reject %s", (_, config) => {
    expect(configProblem(config)).toMatch(/must be|unknown option/);
    expect(validate(config)).toBe(false);
  });

  it("yields each command's flags", () => {
    const flags = (name: "generate" | "check" | "init" | "inspect") =>
      addTableOptions(new Command(name), name).options.map((o) => o.long);
    expect(flags("generate")).toEqual(["--out", "--proto-path", "--catalog", "--root", "--max-spec-bytes", "--templates", "--artifacts", "--int64", "--dates", "--formats", "--json-schema", "--config", "--strict", "--watch", "--jobs", "--force", "--quiet", "--json"]);
    expect(flags("check")).not.toContain("--watch");
    expect(flags("check")).not.toContain("--force");
    expect(flags("init")).toEqual(["--out", "--force", "--quiet", "--json"]);
    expect(flags("inspect")).toEqual(["--out", "--proto-path", "--catalog", "--artifacts", "--config"]);
  });

  it("describes every option, and names each flag once per command", () => {
    for (const o of OPTIONS) expect(o.description.length, o.name).toBeGreaterThan(10);
    for (const c of ["generate", "check", "init", "inspect"] as const) {
      const longs = addTableOptions(new Command(c), c).options.map((o) => o.long);
      expect(new Set(longs).size).toBe(longs.length);
    }
  });

  it("yields the library types", () => {
    expectTypeOf<{ int64: "string"; specs: ["a.proto", { input: "b.proto"; artifacts: ["client"] }] }>().toMatchTypeOf<ConfigFile>();
    expectTypeOf<{ int64: "huge" }>().not.toMatchTypeOf<ConfigFile>();
    expectTypeOf<{ out: "x" }>().not.toMatchTypeOf<SpecEntry>();
  });
});

describe("artifact groups", () => {
  it("every registered emitter belongs to a group, and what it requires exists", () => {
    const names = ARTIFACTS.map((a) => a.name);
    for (const n of names) expect(ARTIFACT_GROUP_OF[n], n).toBeDefined();
    for (const entry of Object.values(ARTIFACT_GROUP_OF)) for (const r of entry.requires) expect(names).toContain(r);
  });

  it("brings in what a group needs", () => {
    const names = (groups: Parameters<typeof selectArtifacts>[1]) => selectArtifacts(ARTIFACTS, groups).map((a) => a.name);
    expect(names(["types"])).toEqual(["types"]);
    // Without a selection: every artifact but the OpenAPI document of a proto's REST routes (asked for by name).
    expect(names(undefined)).toEqual(ARTIFACTS.map((a) => a.name).filter((n) => n !== "proto-openapi"));
    expect(names(["openapi"])).toEqual(["proto-openapi"]);
    expect(names(["client"])).toEqual(["types", "json-validators", "json-serializers", "rest-client", "protojson", "protobuf", "proto-checks", "proto-feed", "proto-connect", "xml", "soap-client"]);
    expect(names(["serializers"])).toContain("json-validators");
  });
});
