/**
 * DigitalOcean's public API description (shared/corpus/openapi/digitalocean, 2,034 files): operations given as
 * `get: {$ref: resources/x/y.yml}`, parameters and responses in per-resource files, `properties: {$ref: ...}`,
 * files of definitions with recursive schemas, non-unicode patterns. It must lower completely and generate.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { HttpService, IrDocument } from "../../../src/ir/model.js";
import { nodeSpecHost } from "../../../src/parsers/host.js";
import { parseOpenApi } from "../../../src/parsers/openapi/index.js";
import { generateSpec, type OutputFile } from "../../../src/pipeline/generate-files.js";
import { SHARED } from "../../helpers/seeds.js";

const DIR = path.join(SHARED, "corpus/openapi/digitalocean");
const ENTRY = path.join(DIR, "DigitalOcean-public.v2.yaml");

describe("DigitalOcean API", () => {
  let doc: IrDocument;
  let service: HttpService;
  let files: readonly OutputFile[];

  beforeAll(() => {
    const host = nodeSpecHost({ cwd: DIR, includeDirs: [] });
    doc = parseOpenApi(ENTRY, host);
    service = doc.services[0] as HttpService;
    files = generateSpec({ file: ENTRY, display: "DigitalOcean-public.v2.yaml" }, host).files;
  });

  it("lowers every operation the entry file lists, each from its own file", () => {
    // Count the operations as the entry file writes them (one `    <method>:` line each under `paths`).
    const text = readFileSync(ENTRY, "utf8");
    const listed = text.match(/^ {4}(get|put|post|delete|patch|head|options|trace):/gm) ?? [];
    expect(listed.length).toBeGreaterThan(400);
    expect(service.operations).toHaveLength(listed.length);
    expect(new Set(service.operations.map((o) => o.name)).size).toBe(listed.length);
    const keys = service.operations.find((o) => o.method === "get" && o.path === "/v2/account/keys/{ssh_key_identifier}")!;
    expect(keys).toMatchObject({ name: "sshKeys_get", origin: { file: "resources/ssh_keys/sshKeys_get.yml" } });
    expect(keys.parameters.map((p) => [p.in, p.name])).toEqual([["path", "ssh_key_identifier"]]);
    expect(doc.files.length).toBeGreaterThan(900); // 970 of the 2,034 files are reached from the entry
    expect(doc.info.doc).toMatch(/^# Introduction/);
  });

  it("names the schemas of files of definitions by their key, recursion included", () => {
    const agent = doc.types.find((t) => t.id === "openapi:resources/gen-ai/definitions.yml#/apiAgent");
    expect(agent).toMatchObject({ kind: "record", name: "apiAgent" });
  });

  it("generates every REST artifact (test/large type-checks and imports them)", () => {
    expect(files.map((f) => path.basename(f.path)).sort()).toEqual(["client.ts", "index.ts", "json.ts", "server.ts", "types.ts", "validate.ts"]);
  });
});
