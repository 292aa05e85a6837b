/**
 * Output size and the cost of compiling it, on Stripe's OpenAPI document (shared/corpus/openapi/stripe/spec3.json,
 * 402 operations): specforge with every artifact against openapi-typescript (types only) on the same document.
 * The same rows for WSDL (see measureWsdlSize): sf-partner-v40.wsdl against wsdl-tsclient, and its schemas x10
 * against ten times our own x1 figures (whether output grows in proportion to the schema).
 *
 * Rows: lines of each generated file, lines of what each `--artifacts` choice writes (with what it brings along)
 * and bytes of all, then `tsc --noEmit` (strict, as a user's project would compile it) on ours (all files, and
 * types.ts alone) and on openapi-typescript's file: the CPU time (user + system) and the peak resident memory
 * (maxRSS) of the tsc process, each run a child process of its own, median of a few runs. CPU time rather than wall
 * time: this machine is shared, and wall time there measures the neighbours as much as tsc.
 * Sizes are "higher is better" like every other row: ratio = peer / ours, so a ratio below 1 means ours is larger.
 * The comparison is lopsided on purpose: openapi-typescript writes types only, so the per-file rows say what each
 * artifact costs on top of the types (`--artifacts` picks the ones you need).
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { nodeSpecHost } from "../src/parsers/host.js";
import type { ArtifactGroup } from "../src/config/options.js";
import { generateSpec } from "../src/pipeline/generate-files.js";
import { compareRuns, repeatedPartnerWsdl, specforge, timed } from "./generate.bench.js";
import { median, type BenchResult, type BenchSuite } from "./harness.js";

const REPO = path.resolve(import.meta.dirname, "..");
const CORPUS = path.resolve(REPO, "..", "shared", "corpus");
const STRIPE = path.join(CORPUS, "openapi", "stripe", "spec3.json");
const CACHE = path.join(import.meta.dirname, ".cache", "size");
const TSC = path.join(REPO, "node_modules", "typescript", "lib", "tsc.js");
const OPENAPI_TS = path.join(REPO, "node_modules", "openapi-typescript", "bin", "cli.js");
const PARTNER_WSDL = path.join(CORPUS, "wsdl", "sf-partner-v40.wsdl");
const WSDL_TSCLIENT = path.join(REPO, "node_modules", ".bin", "wsdl-tsclient");
const PEER = "openapi-typescript";
/** tsc runs per measured file set; each takes seconds, so a few suffice for a stable median. */
const TSC_RUNS = 3;

interface FileSize {
  readonly lines: number;
  readonly bytes: number;
}

function sizeOf(text: string): FileSize {
  // Lines as an editor counts them: a final newline does not start another line.
  const lines = text.length === 0 ? 0 : text.split("\n").length - (text.endsWith("\n") ? 1 : 0);
  return { lines, bytes: Buffer.byteLength(text) };
}

/** Generate Stripe (every artifact, or the chosen groups) into `dir` when given; the sizes of each file. */
export function generateStripe(dir?: string, artifacts?: readonly ArtifactGroup[]): Map<string, FileSize> {
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  const spec = { file: STRIPE, display: "openapi/stripe/spec3.json", outDir: ".", ...(artifacts ? { artifacts } : {}) };
  const out = generateSpec(spec, nodeSpecHost({ cwd: CORPUS }));
  const sizes = new Map<string, FileSize>();
  for (const f of out.files) {
    if (dir !== undefined) {
      const file = path.join(dir, f.path);
      mkdirSync(path.dirname(file), { recursive: true });
      writeFileSync(file, f.content);
    }
    sizes.set(path.basename(f.path), sizeOf(f.content));
  }
  return sizes;
}

/** The `--artifacts` choices a user would make for an OpenAPI document, each with what it brings along. */
const ARTIFACT_SETS: readonly ArtifactGroup[][] = [["types"], ["validators"], ["serializers"], ["client"], ["server"], ["client", "serializers"]];

function totalLines(sizes: ReadonlyMap<string, FileSize>): number {
  return [...sizes.values()].reduce((n, s) => n + s.lines, 0);
}

/** openapi-typescript's output for the same document (its CLI, default options). */
function generatePeer(file: string): FileSize {
  mkdirSync(path.dirname(file), { recursive: true });
  const run = spawnSync(process.execPath, [OPENAPI_TS, STRIPE, "--output", file], { encoding: "utf8", maxBuffer: 1 << 24 });
  if (run.status !== 0) throw new Error(`openapi-typescript failed (exit ${run.status}): ${run.stderr}`);
  return sizeOf(readFileSync(file, "utf8"));
}

/**
 * The strict options the tests type-check generated code with (test/helpers/typecheck.ts), as a tsconfig.
 * `specforge/runtime` resolves to the built declarations (dist/, which `npm run bench` builds first), as in a
 * user's project where the runtime is an installed package: its own source is not part of what is measured.
 */
function writeTsconfig(dir: string, name: string, files: readonly string[], overrides: Readonly<Record<string, unknown>> = {}): string {
  const config = {
    compilerOptions: {
      strict: true,
      noEmit: true,
      target: "ES2022",
      module: "NodeNext",
      moduleResolution: "NodeNext",
      noUncheckedIndexedAccess: true,
      exactOptionalPropertyTypes: true,
      skipLibCheck: true,
      types: [],
      lib: ["ES2022", "DOM"],
      paths: { "specforge/runtime": [path.join(REPO, "dist", "runtime", "index.d.ts")], "specforge/runtime/*": [path.join(REPO, "dist", "runtime", "areas", "*.d.ts")] },
      ...overrides,
    },
    files,
  };
  const file = path.join(dir, name);
  writeFileSync(file, JSON.stringify(config, null, 2) + "\n");
  return file;
}

interface TscRun {
  /** CPU time of the tsc process (user + system). */
  readonly ms: number;
  /** Peak resident set of the tsc process, in MB. */
  readonly maxRssMb: number;
  readonly errors: number;
}

/**
 * One `tsc -p` in a child process. The child reports its own CPU time and peak resident memory as it exits
 * (process.resourceUsage(): microseconds, KiB), so the figures are tsc's and not this process's.
 */
function tscOnce(project: string): TscRun {
  const script = [
    "process.on('exit', () => { const u = process.resourceUsage();",
    "  process.stderr.write('\\nSPECFORGE_USAGE ' + (u.userCPUTime + u.systemCPUTime) + ' ' + u.maxRSS + '\\n'); });",
    `process.argv = [process.argv[0], 'tsc', '-p', ${JSON.stringify(project)}, '--pretty', 'false'];`,
    `require(${JSON.stringify(TSC)});`,
  ].join("\n");
  const run = spawnSync(process.execPath, ["-e", script], { encoding: "utf8", maxBuffer: 1 << 26 });
  const usage = /SPECFORGE_USAGE (\d+) (\d+)/.exec(run.stderr);
  if (!usage) throw new Error(`tsc -p ${project} did not report its usage (exit ${run.status}): ${run.stderr.slice(0, 500)}`);
  const errors = (run.stdout.match(/error TS\d+/g) ?? []).length;
  return { ms: Number(usage[1]) / 1000, maxRssMb: Number(usage[2]) / 1024, errors };
}

function tsc(project: string): TscRun {
  const runs = Array.from({ length: TSC_RUNS }, () => tscOnce(project));
  return { ms: median(runs.map((r) => r.ms)), maxRssMb: median(runs.map((r) => r.maxRssMb)), errors: runs[0]!.errors };
}

const round = (n: number, digits: number) => Number(n.toFixed(digits));

/** A "smaller is better" figure as a row whose ratio, like every other row's, is > 1 when ours is better. */
function smaller(name: string, ours: number, peer: number, unit: string, digits = 0, peerName = PEER): BenchResult {
  return { name, ours: round(ours, digits), peer: round(peer, digits), peerName, unit, ratio: round(peer / ours, 2) };
}

export async function measureSize(): Promise<BenchResult[]> {
  const ours = generateStripe(path.join(CACHE, "stripe"));
  const peerFile = path.join(CACHE, "openapi-typescript", "stripe.d.ts");
  const peer = generatePeer(peerFile);
  const results: BenchResult[] = [];
  for (const [file, size] of ours) {
    if (file !== "index.ts") results.push(smaller(`Stripe ${file}: lines`, size.lines, peer.lines, "lines"));
  }
  for (const set of ARTIFACT_SETS) {
    results.push(smaller(`Stripe --artifacts ${set.join(",")}: lines`, totalLines(generateStripe(undefined, set)), peer.lines, "lines"));
  }
  results.push(smaller("Stripe all artifacts: lines", totalLines(ours), peer.lines, "lines"));
  const bytes = [...ours.values()].reduce((n, s) => n + s.bytes, 0);
  results.push(smaller("Stripe all artifacts: bytes", bytes / 1e6, peer.bytes / 1e6, "MB", 2));

  const dir = path.join(CACHE, "stripe");
  const all = tsc(writeTsconfig(dir, "tsconfig.all.json", [...ours.keys()]));
  const typesOnly = tsc(writeTsconfig(dir, "tsconfig.types.json", ["types.ts"]));
  const peerTsc = tsc(writeTsconfig(path.dirname(peerFile), "tsconfig.json", [path.basename(peerFile)]));
  // Type errors do not stop the measurement (the time is still the time tsc takes), but they are reported.
  for (const [label, r] of [["all artifacts", all], ["types.ts", typesOnly], [PEER, peerTsc]] as const) {
    if (r.errors > 0) process.stderr.write(`size: tsc on ${label} reported ${r.errors} errors\n`);
  }
  results.push(smaller("Stripe tsc --noEmit CPU time, all artifacts", all.ms, peerTsc.ms, "cpu-ms"));
  results.push(smaller("Stripe tsc --noEmit CPU time, types.ts only", typesOnly.ms, peerTsc.ms, "cpu-ms"));
  results.push(smaller("Stripe tsc peak memory, all artifacts", all.maxRssMb, peerTsc.maxRssMb, "MB RSS"));
  results.push(smaller("Stripe tsc peak memory, types.ts only", typesOnly.maxRssMb, peerTsc.maxRssMb, "MB RSS"));
  return results;
}

// ---------------------------------------------------------------------------------------------------------------
// WSDL
// ---------------------------------------------------------------------------------------------------------------

/** A WSDL generated with every artifact into `dir`: the sizes of each file. */
function generateWsdl(file: string, dir: string): Map<string, FileSize> {
  rmSync(dir, { recursive: true, force: true });
  const out = generateSpec({ file, display: path.basename(file), outDir: "." }, nodeSpecHost({ cwd: path.dirname(file) }));
  const sizes = new Map<string, FileSize>();
  for (const f of out.files) {
    const target = path.join(dir, f.path);
    mkdirSync(path.dirname(target), { recursive: true });
    writeFileSync(target, f.content);
    sizes.set(path.basename(f.path), sizeOf(f.content));
  }
  return sizes;
}

/** The .ts files under `dir`, relative to it (wsdl-tsclient writes one file per type, in folders). */
function tsFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((f) => f.endsWith(".ts"))
    .map((f) => f.split(path.sep).join("/"))
    .sort();
}

/** wsdl-tsclient's output (types, one file each, and a node-soap client): its files and their total size. */
function generateWsdlTsclient(wsdl: string, dir: string): { files: string[]; size: FileSize } {
  rmSync(dir, { recursive: true, force: true });
  const run = spawnSync(WSDL_TSCLIENT, [wsdl, "-o", dir], { encoding: "utf8", timeout: 600_000, maxBuffer: 1 << 24 });
  if (run.status !== 0) throw new Error(`wsdl-tsclient failed (exit ${run.status}): ${run.stderr.slice(0, 500)}`);
  const files = tsFiles(dir);
  const texts = files.map((f) => readFileSync(path.join(dir, f), "utf8"));
  return { files, size: { lines: texts.reduce((n, t) => n + sizeOf(t).lines, 0), bytes: texts.reduce((n, t) => n + Buffer.byteLength(t), 0) } };
}

/**
 * sf-partner-v40.wsdl (every artifact) against wsdl-tsclient (types and a client on node-soap, which does the XML at
 * run time): lines per file and in all, bytes, tsc CPU time and peak memory. wsdl-tsclient's files are CommonJS
 * with extensionless imports, so its tsconfig says so; strictness is the same.
 * Its schemas x10 (bench/generate.bench.ts builds that input; wsdl-tsclient writes next to nothing for it, as it has
 * no operations): the same figures against ten times ours on x1, so a ratio near 1 means output and compile cost
 * grow in proportion to the schema. Last, the time to generate the x10 input, ours against wsdl-tsclient (CLIs).
 */
export function measureWsdlSize(): BenchResult[] {
  const results: BenchResult[] = [];
  const peerName = "wsdl-tsclient";
  const oursDir = path.join(CACHE, "sf-partner-v40");
  const ours = generateWsdl(PARTNER_WSDL, oursDir);
  const peerDir = path.join(CACHE, "wsdl-tsclient", "sf-partner-v40");
  const peer = generateWsdlTsclient(PARTNER_WSDL, peerDir);
  for (const [file, size] of ours) {
    if (file.endsWith(".ts") && file !== "index.ts") results.push(smaller(`sf-partner-v40 ${file}: lines`, size.lines, peer.size.lines, "lines", 0, peerName));
  }
  results.push(smaller("sf-partner-v40 all artifacts: lines", totalLines(ours), peer.size.lines, "lines", 0, peerName));
  const bytes = (sizes: ReadonlyMap<string, FileSize>) => [...sizes.values()].reduce((n, s) => n + s.bytes, 0);
  results.push(smaller("sf-partner-v40 all artifacts: bytes", bytes(ours) / 1e6, peer.size.bytes / 1e6, "MB", 2, peerName));
  const tsOf = (sizes: ReadonlyMap<string, FileSize>) => [...sizes.keys()].filter((f) => f.endsWith(".ts"));
  const oursTsc = tsc(writeTsconfig(oursDir, "tsconfig.all.json", tsOf(ours)));
  const peerTsc = tsc(writeTsconfig(peerDir, "tsconfig.json", peer.files, { module: "CommonJS", moduleResolution: "Node10", paths: {} }));
  for (const [label, r] of [["sf-partner-v40", oursTsc], [peerName, peerTsc]] as const) {
    if (r.errors > 0) process.stderr.write(`size: tsc on ${label} reported ${r.errors} errors\n`);
  }
  results.push(smaller("sf-partner-v40 tsc --noEmit CPU time, all artifacts", oursTsc.ms, peerTsc.ms, "cpu-ms", 0, peerName));
  results.push(smaller("sf-partner-v40 tsc peak memory, all artifacts", oursTsc.maxRssMb, peerTsc.maxRssMb, "MB RSS", 0, peerName));

  const x10Dir = path.join(CACHE, "sf-partner-v40-x10");
  mkdirSync(x10Dir, { recursive: true });
  const x10Wsdl = path.join(x10Dir, "x10.wsdl");
  writeFileSync(x10Wsdl, repeatedPartnerWsdl(10));
  const x1Wsdl = path.join(x10Dir, "x1.wsdl");
  writeFileSync(x1Wsdl, repeatedPartnerWsdl(1));
  const x10 = generateWsdl(x10Wsdl, path.join(x10Dir, "out-x10"));
  const x1 = generateWsdl(x1Wsdl, path.join(x10Dir, "out-x1"));
  const tenTimes = "ours x1 times 10";
  for (const [file, size] of x10) {
    if (file.endsWith(".ts") && file !== "index.ts") results.push(smaller(`sf-partner-v40 schemas x10 ${file}: lines`, size.lines, 10 * (x1.get(file)?.lines ?? 0), "lines", 0, tenTimes));
  }
  results.push(smaller("sf-partner-v40 schemas x10: lines", totalLines(x10), 10 * totalLines(x1), "lines", 0, tenTimes));
  results.push(smaller("sf-partner-v40 schemas x10: bytes", bytes(x10) / 1e6, (10 * bytes(x1)) / 1e6, "MB", 2, tenTimes));
  const x10Tsc = tsc(writeTsconfig(path.join(x10Dir, "out-x10"), "tsconfig.json", tsOf(x10)));
  const x1Tsc = tsc(writeTsconfig(path.join(x10Dir, "out-x1"), "tsconfig.json", tsOf(x1)));
  results.push(smaller("sf-partner-v40 schemas x10 tsc --noEmit CPU time", x10Tsc.ms, 10 * x1Tsc.ms, "cpu-ms", 0, tenTimes));
  results.push(smaller("sf-partner-v40 schemas x10 tsc peak memory", x10Tsc.maxRssMb, 10 * x1Tsc.maxRssMb, "MB RSS", 0, tenTimes));
  // Generation time of the same x10 input, both CLIs into fresh folders (wsdl-tsclient writes little for it: no operations).
  results.push(
    compareRuns("generate sf-partner-v40 schemas x10 (CLI, all artifacts)", specforge([x10Wsdl]), {
      [peerName]: (out) => timed(WSDL_TSCLIENT, [x10Wsdl, "-o", out], REPO),
    }, 3),
  );
  return results;
}

export const suite: BenchSuite = {
  name: "size",
  run: async () => [...(await measureSize()), ...measureWsdlSize()],
};
