import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { InputsReport } from "../../src/pipeline/spec-inputs.js";
import { listFiles } from "../../src/pipeline/write-output.js";
import { CORPUS } from "../helpers/corpus-run.js";
import { runCli } from "../helpers/run-cli.js";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
function tempDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), "specforge-inputs-"));
  dirs.push(dir);
  return dir;
}

async function inputs(cwd: string, ...args: string[]): Promise<InputsReport> {
  const res = await runCli(cwd, "inspect", "--inputs", ...args);
  expect(res.err).toBe("");
  expect(res.code).toBe(0);
  return JSON.parse(res.out) as InputsReport;
}

describe("inspect --inputs", () => {
  it("lists each spec's other files: OpenAPI $refs, xsd:import, proto imports through -I", async () => {
    const out = tempDir();
    const specs = [
      "openapi/oai/v2.0/petstore-separate/spec/swagger.yaml",
      "wsdl/cybersource/CyberSourceTransaction_1.26.wsdl",
      "proto/opentelemetry/proto/collector/trace/v1/trace_service.proto",
    ];
    const report = await inputs(CORPUS, ...specs, "-I", "proto", "--out", out);
    expect(report.config).toBeNull();
    expect(report.specs.map((s) => [s.spec, s.inputs])).toEqual([
      [
        specs[0],
        [
          "openapi/oai/v2.0/petstore-separate/common/Error.yaml",
          "openapi/oai/v2.0/petstore-separate/spec/NewPet.yaml",
          "openapi/oai/v2.0/petstore-separate/spec/Pet.yaml",
          "openapi/oai/v2.0/petstore-separate/spec/parameters.yaml",
          "openapi/oai/v2.0/petstore-separate/spec/swagger.yaml",
        ],
      ],
      [specs[1], ["wsdl/cybersource/CyberSourceTransaction_1.26.wsdl", "wsdl/cybersource/CyberSourceTransaction_1.26.xsd"]],
      [
        specs[2],
        [
          "proto/opentelemetry/proto/collector/trace/v1/trace_service.proto",
          "proto/opentelemetry/proto/common/v1/common.proto",
          "proto/opentelemetry/proto/resource/v1/resource.proto",
          "proto/opentelemetry/proto/trace/v1/trace.proto",
        ],
      ],
      // One module per input file: each imported .proto is generated once, in its own folder, as a spec of the run.
      [
        "proto/opentelemetry/proto/trace/v1/trace.proto",
        [
          "proto/opentelemetry/proto/common/v1/common.proto",
          "proto/opentelemetry/proto/resource/v1/resource.proto",
          "proto/opentelemetry/proto/trace/v1/trace.proto",
        ],
      ],
      ["proto/opentelemetry/proto/common/v1/common.proto", ["proto/opentelemetry/proto/common/v1/common.proto"]],
      [
        "proto/opentelemetry/proto/resource/v1/resource.proto",
        ["proto/opentelemetry/proto/common/v1/common.proto", "proto/opentelemetry/proto/resource/v1/resource.proto"],
      ],
    ]);

    // The outputs are exactly the files generate then writes.
    const gen = await runCli(CORPUS, "generate", ...specs, "-I", "proto", "--out", out, "--quiet");
    expect(gen.code).toBe(0);
    // Relative to the folder the CLI ran in as it sees it: process.cwd() is the real path, and ../shared may be a link.
    const shown = (rel: string) => path.relative(realpathSync(CORPUS), path.join(out, rel)).split(path.sep).join("/");
    expect(report.specs.flatMap((s) => s.outputs).sort()).toEqual(listFiles(out).map(shown).sort());
    expect(report.specs.map((s) => s.out)).toEqual(["swagger", "CyberSourceTransaction_1.26", "trace_service", "trace", "common", "resource"].map(shown));
  });

  it("from the config: the config file, template overrides in use, and only imports found (not those looked for)", async () => {
    const dir = tempDir();
    for (const d of ["specs", "protos", "empty", "tpl"]) mkdirSync(path.join(dir, d));
    writeFileSync(path.join(dir, "specforge.config.json"), JSON.stringify({ specs: ["specs"], out: "gen", protoPaths: ["empty", "protos"], templates: "tpl" }));
    writeFileSync(path.join(dir, "protos/common.proto"), 'syntax = "proto3";\npackage common;\nmessage Id { string value = 1; }\n');
    writeFileSync(path.join(dir, "specs/a.proto"), 'syntax = "proto3";\npackage a;\nimport "common.proto";\nmessage A { common.Id id = 1; }\n');
    writeFileSync(path.join(dir, "specs/b.proto"), 'syntax = "proto3";\npackage b;\nmessage B { string name = 1; }\n');
    writeFileSync(path.join(dir, "tpl/package-readme.hbs"), "# {{spec}}\n");

    const report = await inputs(dir, "--artifacts", "types");
    expect(report.config).toBe("specforge.config.json");
    expect(report.templates).toEqual(["tpl/package-readme.hbs"]);
    expect(report.specs).toEqual([
      { spec: "specs/a.proto", out: "gen/a", inputs: ["protos/common.proto", "specs/a.proto"], outputs: ["gen/a/.specforge-manifest.json", "gen/a/README.md", "gen/a/index.ts", "gen/a/types.ts"] },
      { spec: "specs/b.proto", out: "gen/b", inputs: ["specs/b.proto"], outputs: ["gen/b/.specforge-manifest.json", "gen/b/README.md", "gen/b/index.ts", "gen/b/types.ts"] },
      // The imported file's own module (one module per input file).
      {
        spec: "protos/common.proto",
        out: "gen/common",
        inputs: ["protos/common.proto"],
        outputs: ["gen/common/.specforge-manifest.json", "gen/common/README.md", "gen/common/index.ts", "gen/common/types.ts"],
      },
    ]);
    // Nothing was written.
    expect(listFiles(path.join(dir, "gen"))).toEqual([]);
  });

  it("a spec error is reported with its position, like generate, and nothing is printed on stdout", async () => {
    const dir = tempDir();
    writeFileSync(path.join(dir, "bad.proto"), 'syntax = "proto3";\nmessage Bad {\n  string a = ;\n}\n');
    const res = await runCli(dir, "inspect", "--inputs", "bad.proto");
    expect(res.code).toBe(1);
    expect(res.out).toBe("");
    expect(res.err).toMatch(/^bad\.proto:3:\d+: /);
  });

  it("--ir takes exactly one spec; --ir and --inputs together are refused", async () => {
    const dir = tempDir();
    writeFileSync(path.join(dir, "a.proto"), 'syntax = "proto3";\nmessage A { string a = 1; }\n');
    const none = await runCli(dir, "inspect");
    expect(none).toMatchObject({ code: 1, err: "inspect --ir: give exactly one spec file (got 0)\n" });
    const both = await runCli(dir, "inspect", "a.proto", "--ir", "--inputs");
    expect(both).toMatchObject({ code: 1, err: "inspect: give either --ir or --inputs\n" });
  });
});
