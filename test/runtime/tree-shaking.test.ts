/**
 * The runtime is one package, but a page should carry only what it uses (issue: 35 KB for one validator, 27 KB of it
 * XML/SOAP). Two things make that so, each tested here with esbuild, the bundler most users' tools run:
 *  - no module of src/runtime does anything when it is loaded: every module-level value is a literal, a function, a
 *    class or a construction marked pure, and prototype patches happen on first use. Bundled with every module
 *    *assumed* to have side effects, importing the whole runtime for nothing leaves almost nothing;
 *  - package.json says `"sideEffects": false`, so modules whose exports go unused are dropped whole.
 * Bytes are esbuild-minified (what `npm run bench size` reports beside the peers).
 */
import path from "node:path";
import { gzipSync } from "node:zlib";
import { build, type Plugin } from "esbuild";
import { describe, expect, it } from "vitest";
import { REPO } from "../helpers/seeds.js";

const RUNTIME_INDEX = path.join(REPO, "src/runtime/index.ts");

const AREAS = ["protobuf", "json", "xml", "soap", "rest", "rpc"] as const;
const areaEntry = (area: string): string => path.join(REPO, "src/runtime/areas", `${area}.ts`);

/** `specforge/runtime` and its areas (`specforge/runtime/json`, ...) as generated code imports them, mapped to the source. */
const runtimeAlias: Plugin = {
  name: "specforge-runtime",
  setup(b) {
    b.onResolve({ filter: /^specforge\/runtime$/ }, () => ({ path: RUNTIME_INDEX }));
    b.onResolve({ filter: /^specforge\/runtime\/[a-z]+$/ }, (args) => ({ path: areaEntry(args.path.slice("specforge/runtime/".length)) }));
  },
};

/** Every module treated as if package.json said nothing about side effects: only the code itself decides. */
const assumeSideEffects: Plugin = {
  name: "assume-side-effects",
  setup(b) {
    b.onResolve({ filter: /^\./ }, (args) => ({ path: path.resolve(args.resolveDir, args.path.replace(/\.js$/, ".ts")), sideEffects: true }));
  },
};

async function bundle(contents: string, plugins: Plugin[]): Promise<string> {
  const r = await build({
    stdin: { contents, resolveDir: REPO, loader: "ts", sourcefile: "entry.ts" },
    bundle: true,
    write: false,
    minify: true,
    format: "esm",
    platform: "browser",
    logLevel: "silent",
    plugins,
  });
  return r.outputFiles[0]!.text;
}

describe("a runtime a bundler can cut", () => {
  it("loading every runtime module does nothing: with side effects assumed everywhere, almost nothing is left", async () => {
    const text = await bundle(`import ${JSON.stringify(RUNTIME_INDEX)};`, [assumeSideEffects]);
    // What is left are a few numeric and string constants esbuild keeps on principle (`4*1024*1024`, templates).
    expect(text.length).toBeLessThan(2_000);
    for (const effect of ["setPrototypeOf", "defineProperty", "TextEncoder", "TextDecoder", "new Map", "new Set", ".fill(", "WebAssembly"]) {
      expect(text, `module-level ${effect}`).not.toContain(effect);
    }
  });

  it.each(AREAS)("loading the area entry specforge/runtime/%s does nothing either", async (area) => {
    const text = await bundle(`import ${JSON.stringify(areaEntry(area))};`, [assumeSideEffects]);
    expect(text.length).toBeLessThan(2_000);
  });

  it("package.json declares it", async () => {
    const pkg = (await import(path.join(REPO, "package.json"), { with: { type: "json" } })) as { default: { sideEffects?: unknown } };
    expect(pkg.default.sideEffects).toBe(false);
  });

  // Before: 35,054 / 39,540 / 38,032 bytes; measured after: 2,304 / 7,091 / 5,038, and one validator 1,589 once
  // jsonIsUri lost its short-string table loop (typia's bundle of the same check: 1,905). None carries XML/SOAP.
  it.each([
    ["one validator", `import { isWebhook } from "./generated/webhooks/validate.ts"; console.log(isWebhook(globalThis.x));`, 1_900],
    ["protobuf encode + decode of one message", `import { encodeLink, decodeLink } from "./generated/content/protobuf.ts"; console.log(decodeLink(encodeLink(globalThis.x)));`, 8_000],
    ["a REST client", `import { createWebhooksAPIClient } from "./generated/webhooks/client.ts"; console.log(createWebhooksAPIClient({ baseUrl: "http://x" }));`, 6_000],
  ])("%s bundles small, without the XML runtime", async (_name, entry, limit) => {
    const text = await bundle(entry, [runtimeAlias]);
    expect(text.length).toBeLessThan(limit);
    // The XML reader's messages and the text-memory WebAssembly module ("\0asm" = 0,97,115,109) are absent.
    expect(text).not.toContain("DOCTYPE");
    expect(text).not.toContain("0,97,115,109");
  });

  // Gzipped, the bytes a page downloads: typia's createIs<Webhook> bundles to 568 (bench bundle); ours was 754 before
  // is<T> read every property into one local and jsonIsUri lost its replace step, 563 after.
  it("one validator gzips to no more than typia's", async () => {
    const text = await bundle(`import { isWebhook } from "./generated/webhooks/validate.ts"; console.log(isWebhook(globalThis.x));`, [runtimeAlias]);
    expect(gzipSync(text).length).toBeLessThanOrEqual(568);
    // What only validate<T> uses stays out: issue messages, the collect functions' helpers.
    expect(text).not.toContain("must be");
    expect(text).not.toMatch(/=Object\.prototype[;,]/);
  });
});
