import { execFileSync, spawnSync, type SpawnSyncReturns } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPO } from "../helpers/seeds.js";

/**
 * The published package, as a user meets it: `npm pack` (which runs the `prepare` build), `npm install <tarball>`
 * into an empty project, `npx specforge init`/`generate` there, then the output compiled with tsc and run against
 * the packed runtime. Packing happens in a copy of the repo (node_modules linked), so the `prepare` build never
 * rewrites this repo's dist/ while other test files run the CLI from it. Takes ~25 s; see CONTRIBUTING.md.
 */
const work = mkdtempSync(path.join(tmpdir(), "specforge-pack-"));
const project = path.join(work, "consumer");
const TSC = path.join(REPO, "node_modules", "typescript", "bin", "tsc");
const env = { ...process.env, SPECFORGE_CACHE_DIR: path.join(work, "cache"), npm_config_update_notifier: "false" };
afterAll(() => rmSync(work, { recursive: true, force: true }));

function run(cmd: string, args: readonly string[], cwd: string, input?: string | Buffer): SpawnSyncReturns<Buffer> {
  const r = spawnSync(cmd, args, { cwd, env, input, timeout: 120_000, maxBuffer: 32 << 20 });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(" ")} exited ${r.status}:\n${r.stdout}\n${r.stderr}`);
  return r;
}

const PROTO = `syntax = "proto3";
package demo;
enum Kind { KIND_UNSPECIFIED = 0; KIND_B = 1; }
message Hello { string name = 1; repeated int64 ids = 2; Kind kind = 3; }
`;
const OPENAPI = `openapi: 3.0.3
info: { title: Pets, version: "1" }
paths: {}
components:
  schemas:
    Pet:
      type: object
      required: [id, name]
      properties:
        id: { type: integer, format: int64 }
        name: { type: string, minLength: 1 }
`;
const PROGRAM = `import { check } from "specforge";
import { ProtobufDecodeError } from "specforge/runtime";
import { decodeHello, encodeHello, type Hello } from "./generated/demo/index.js";
import { isPet, validatePet } from "./generated/pets/index.js";

const hello: Hello = { name: "packed", ids: [1n, 2n ** 40n], kind: "KIND_B" };
const bytes = encodeHello(hello);
const back = decodeHello(bytes);
let truncated = "";
try {
  decodeHello(bytes.subarray(0, bytes.length - 1));
} catch (e) {
  truncated = e instanceof ProtobufDecodeError ? e.fieldPath : "not a ProtobufDecodeError";
}
console.log(JSON.stringify({
  name: back.name,
  ids: (back.ids ?? []).map(String),
  kind: back.kind,
  truncated,
  pet: isPet({ id: 1, name: "Rex" }),
  issues: validatePet({ id: 1, name: "" }).map((i) => i.path + " " + i.rule),
  stale: check().differences.length,
}));
`;
const TSCONFIG = {
  compilerOptions: {
    target: "ES2022",
    module: "NodeNext",
    moduleResolution: "NodeNext",
    strict: true,
    // No @types/node in a fresh project: generated code and the runtime must need nothing beyond ES + fetch types.
    lib: ["ES2022", "DOM"],
    types: [],
    skipLibCheck: true,
    outDir: "out",
  },
  include: ["main.ts", "generated"],
};

/** Each runtime area's subpath and one value it exports. */
const AREAS = [
  ["protobuf", "pbReader"],
  ["json", "jsonIsUri"],
  ["xml", "XmlCodecs"],
  ["soap", "createSoapConnection"],
  ["rest", "restSend"],
  ["rpc", "rpcClient"],
] as const;

let tarball = "";
beforeAll(() => {
  const copy = path.join(work, "repo");
  mkdirSync(copy);
  for (const entry of ["package.json", "tsconfig.json", "tsconfig.build.json", "README.md", "specforge.schema.json", "bin", "src", "templates"]) {
    if (existsSync(path.join(REPO, entry))) cpSync(path.join(REPO, entry), path.join(copy, entry), { recursive: true });
  }
  symlinkSync(path.join(REPO, "node_modules"), path.join(copy, "node_modules"), "dir");
  run("npm", ["pack", "--pack-destination", work, "--loglevel=error"], copy);
  tarball = path.join(work, readdirSync(work).find((f) => f.endsWith(".tgz"))!);

  mkdirSync(path.join(project, "specs"), { recursive: true });
  writeFileSync(path.join(project, "package.json"), JSON.stringify({ name: "consumer", private: true, type: "module" }));
  writeFileSync(path.join(project, "specs", "demo.proto"), PROTO);
  writeFileSync(path.join(project, "specs", "pets.openapi.yaml"), OPENAPI);
  // The npm cache answers almost everything; the registry is asked only for what it lacks.
  run("npm", ["install", tarball, "--prefer-offline", "--no-audit", "--no-fund", "--ignore-scripts", "--loglevel=error"], project);
}, 240_000);

describe("the packed package", () => {
  it("ships the CLI, the library API, the runtime (.js and .d.ts, specforge/runtime/node too) and the templates", () => {
    const listing = execFileSync("tar", ["-tzf", tarball], { encoding: "utf8" }).split("\n");
    const areas = AREAS.flatMap(([a]) => [`dist/runtime/areas/${a}.js`, `dist/runtime/areas/${a}.d.ts`]);
    for (const f of ["bin/specforge.js", "dist/index.js", "dist/index.d.ts", "dist/runtime/index.js", "dist/runtime/index.d.ts", "dist/runtime/http/node.js", ...areas, "dist/cli/main.js", "README.md"]) {
      expect(listing).toContain(`package/${f}`);
    }
    if (existsSync(path.join(REPO, "templates"))) expect(listing.some((f) => f.startsWith("package/templates/"))).toBe(true);
    // `init` points the config's $schema at node_modules/specforge/specforge.schema.json.
    if (existsSync(path.join(REPO, "specforge.schema.json"))) expect(listing).toContain("package/specforge.schema.json");
    // Source maps point at src/, which is not shipped.
    expect(listing.filter((f) => f.endsWith(".map"))).toEqual([]);
    expect(listing.filter((f) => f.startsWith("package/test/") || f.startsWith("package/src/"))).toEqual([]);
  });

  it("npx specforge init/generate, then tsc, then the program runs against the packed runtime", () => {
    const help = run("npx", ["--no", "specforge", "--help"], project).stdout.toString();
    // `init` writes the config when the CLI has it; otherwise the config is written by hand, as the README shows.
    if (/^\s+init\b/m.test(help)) run("npx", ["--no", "specforge", "init"], project);
    else writeFileSync(path.join(project, "specforge.config.json"), JSON.stringify({ out: "generated", specs: ["specs"] }));
    run("npx", ["--no", "specforge", "generate"], project);
    expect(existsSync(path.join(project, "generated", "demo", "protobuf.ts"))).toBe(true);
    expect(existsSync(path.join(project, "generated", "pets", "validate.ts"))).toBe(true);
    // Generated code imports the runtime area it needs (specforge/runtime/protobuf, /json), not the everything-entry.
    expect(readFileSync(path.join(project, "generated", "demo", "protobuf.ts"), "utf8")).toContain('from "specforge/runtime/protobuf";');
    expect(readFileSync(path.join(project, "generated", "pets", "validate.ts"), "utf8")).toContain('from "specforge/runtime/json";');

    writeFileSync(path.join(project, "main.ts"), PROGRAM);
    writeFileSync(path.join(project, "tsconfig.json"), JSON.stringify(TSCONFIG, null, 2));
    run(process.execPath, [TSC, "-p", "tsconfig.json"], project);
    const out = JSON.parse(run(process.execPath, ["out/main.js"], project).stdout.toString()) as Record<string, unknown>;
    expect(out).toEqual({
      name: "packed",
      ids: ["1", String(2n ** 40n)],
      kind: "KIND_B",
      truncated: expect.stringMatching(/^Hello/),
      pet: true,
      issues: ["/name minLength"],
      stale: 0,
    });
  });

  it("specforge/runtime/node type-checks in a strict project with @types/node (its optional peer), whatever `types` says", () => {
    // A Node server project: @types/node installed beside specforge, and a tsconfig that lists no global types.
    // node.d.ts carries `/// <reference types="node" />`, so `node:http` resolves without the user naming it.
    const server = path.join(work, "server");
    mkdirSync(server, { recursive: true });
    writeFileSync(path.join(server, "package.json"), JSON.stringify({ name: "server", private: true, type: "module" }));
    const typesNode = JSON.parse(readFileSync(path.join(REPO, "node_modules", "@types", "node", "package.json"), "utf8")) as { version: string };
    run("npm", ["install", tarball, `@types/node@${typesNode.version}`, "--prefer-offline", "--no-audit", "--no-fund", "--ignore-scripts", "--loglevel=error"], server);
    const peer = JSON.parse(readFileSync(path.join(server, "node_modules", "specforge", "package.json"), "utf8")) as Record<string, Record<string, unknown>>;
    expect(peer["peerDependenciesMeta"]?.["@types/node"]).toEqual({ optional: true });
    writeFileSync(
      path.join(server, "main.ts"),
      `import { serveNode, type NodeServerHandle } from "specforge/runtime/node";
const handle: NodeServerHandle = await serveNode(async (req: Request) => new Response(new URL(req.url).pathname), { port: 0 });
const text = await (await fetch(\`http://127.0.0.1:\${handle.port}/hello\`)).text();
await handle.close();
console.log(text);
`,
    );
    writeFileSync(path.join(server, "tsconfig.json"), JSON.stringify({ ...TSCONFIG, include: ["main.ts"] }, null, 2));
    run(process.execPath, [TSC, "-p", "tsconfig.json"], server);
    expect(run(process.execPath, ["out/main.js"], server).stdout.toString().trim()).toBe("/hello");
  });

  it("every runtime subpath (specforge/runtime/<area>, /node) resolves under Node, and under tsc with node16 and bundler resolution", () => {
    const dir = path.join(project, "subpaths");
    mkdirSync(dir, { recursive: true });
    // Node: each subpath through the package's exports map, the everything-entry's classes the same as the areas'.
    const subpaths = [...AREAS, ["node", "serveNode"] as const];
    writeFileSync(
      path.join(dir, "probe.mjs"),
      [
        'import * as all from "specforge/runtime";',
        ...subpaths.map(([a]) => `import * as ${a} from "specforge/runtime/${a}";`),
        `console.log(JSON.stringify({ ${subpaths.map(([a, name]) => `${a}: [typeof ${a}.${name}, ${a}.${name} === (all.${name} ?? ${a}.${name}), ${a}.RUNTIME_API_VERSION ?? null]`).join(", ")} }));`,
      ].join("\n"),
    );
    const seen = JSON.parse(run(process.execPath, ["probe.mjs"], dir).stdout.toString()) as Record<string, unknown>;
    expect(seen).toEqual({ ...Object.fromEntries(AREAS.map(([a]) => [a, ["function", true, 1]])), node: ["function", true, null] });
    // A subpath the package does not export is refused, by name.
    writeFileSync(path.join(dir, "missing.mjs"), 'import "specforge/runtime/areas/json";\n');
    const missing = spawnSync(process.execPath, ["missing.mjs"], { cwd: dir, env });
    expect(missing.status).not.toBe(0);
    expect(String(missing.stderr)).toContain("ERR_PACKAGE_PATH_NOT_EXPORTED");

    // tsc: the areas' declarations, including the runtime API check generated code re-exports.
    writeFileSync(
      path.join(dir, "probe.ts"),
      [
        ...AREAS.map(([a, name]) => `import { ${name} as ${a}Value, RUNTIME_API_VERSION as ${a}Version, type RuntimeApi1 as ${a}Api } from "specforge/runtime/${a}";`),
        `export const values = [${AREAS.map(([a]) => `${a}Value`).join(", ")}];`,
        `export const versions: 1[] = [${AREAS.map(([a]) => `${a}Version`).join(", ")}];`,
        `export type Apis = [${AREAS.map(([a]) => `${a}Api`).join(", ")}];`,
        'export type { RuntimeApi1 } from "specforge/runtime/json";',
        "",
      ].join("\n"),
    );
    for (const [name, options] of [
      ["node16", { module: "Node16", moduleResolution: "Node16" }],
      ["bundler", { module: "ESNext", moduleResolution: "Bundler" }],
    ] as const) {
      const config = { compilerOptions: { ...TSCONFIG.compilerOptions, ...options, noEmit: true, outDir: undefined }, include: ["probe.ts"] };
      writeFileSync(path.join(dir, `tsconfig.${name}.json`), JSON.stringify(config, null, 2));
      run(process.execPath, [TSC, "-p", `tsconfig.${name}.json`], dir);
    }
    // The generated project compiles under bundler resolution too (it was compiled with NodeNext above).
    writeFileSync(path.join(project, "tsconfig.bundler.json"), JSON.stringify({ compilerOptions: { ...TSCONFIG.compilerOptions, module: "ESNext", moduleResolution: "Bundler", noEmit: true, outDir: undefined }, include: ["generated"] }, null, 2));
    run(process.execPath, [TSC, "-p", "tsconfig.bundler.json"], project);
  });

  it("convert works from the installed package (typescript comes with it)", () => {
    const bin = path.join(project, "node_modules", ".bin", "specforge");
    const args = ["convert", "specs/demo.proto", "--type", "demo.Hello"];
    const binary = run(bin, [...args, "--from", "json", "--to", "binary"], project, '{"name":"x","ids":["5"],"kind":"KIND_B"}').stdout;
    const json = run(bin, [...args, "--from", "binary", "--to", "json"], project, binary).stdout.toString();
    expect(JSON.parse(json)).toEqual({ name: "x", ids: ["5"], kind: "KIND_B" });
  });

  it("protoc runs the installed protoc-gen-specforge, which writes what generate wrote", () => {
    const plugin = path.join(project, "node_modules", ".bin", "protoc-gen-specforge");
    const out = path.join(project, "from-plugin");
    mkdirSync(out);
    run("protoc", ["-Ispecs", `--plugin=protoc-gen-specforge=${plugin}`, `--specforge_out=${out}`, "demo.proto"], project);
    for (const f of ["types.ts", "protobuf.ts", "protojson.ts"]) {
      const viaPlugin = readFileSync(path.join(out, "demo", f), "utf8");
      // Only the header names the spec differently: "demo.proto" (the compiler's name) against "specs/demo.proto".
      expect(viaPlugin.replaceAll("demo.proto", "specs/demo.proto")).toBe(readFileSync(path.join(project, "generated", "demo", f), "utf8"));
    }
  });
});
