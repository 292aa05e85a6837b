/**
 * What a browser page pays for the code it imports: esbuild-minified (and gzipped) bytes of five typical uses,
 * ours against the peers doing the same thing, each bundled the same way (esbuild, ESM, browser, minified; peers'
 * packages as their users install them). "Smaller is better" rows: ratio = smallest peer / ours, > 1 when ours is
 * smaller.
 *
 *  - one validator: `isWebhook` (generated/webhooks/validate.ts) against ajv's standalone code for the same schema
 *    (ajv-formats for `uri`, as the rest-validators suite compiles it) and typia's generated `createIs<Webhook>`;
 *  - protobuf encode + decode of one message (content.proto's Link): against protobuf-es (protoc-gen-es code,
 *    `toBinary`/`fromBinary`);
 *  - a Connect client making a server-streaming call (content-stream.proto's ContentFeed): against connect-es
 *    (`createClient` over connect-web's `createConnectTransport`, protoc-gen-es code);
 *  - a REST client making one call (webhooks' listWebhooks): against openapi-fetch (openapi-typescript's types are
 *    erased, so only its runtime counts);
 *  - a SOAP client making one call (partner's login): no browser SOAP client to compare with, so the row shows ours
 *    beside itself (ratio 1) to track its size.
 * Generated peer code goes to bench/.cache/bundle/ (gitignored), rebuilt on every run.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { Ajv2020 } from "ajv/dist/2020.js";
import standaloneCode from "ajv/dist/standalone/index.js";
import addFormatsModule from "ajv-formats";
import { build, type Plugin } from "esbuild";
import { parse as parseYaml } from "yaml";
import type { BenchResult, BenchSuite } from "./harness.js";
import { generatedImport, generateTypia } from "./typia-generate.js";

const REPO = path.resolve(import.meta.dirname, "..");
const CACHE = path.join(import.meta.dirname, ".cache", "bundle");
const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;
const standalone = standaloneCode as unknown as (ajv: Ajv2020, validate: unknown) => string;

/** `specforge/runtime` and its areas (`specforge/runtime/json`, ...) as generated code imports them, mapped to the
 * runtime's source (as a user's bundler maps the package to its dist/: the same modules). */
const runtimeAlias: Plugin = {
  name: "specforge-runtime",
  setup(b) {
    b.onResolve({ filter: /^specforge\/runtime$/ }, () => ({ path: path.join(REPO, "src/runtime/index.ts") }));
    b.onResolve({ filter: /^specforge\/runtime\/[a-z]+$/ }, (args) => ({ path: path.join(REPO, "src/runtime/areas", `${args.path.slice("specforge/runtime/".length)}.ts`) }));
  },
};

interface Bundled {
  readonly min: number;
  readonly gzip: number;
}

/** Bundle `entry` (TypeScript, resolved from `dir`) the way a page's build would, minified. */
async function bundle(entry: string, dir: string): Promise<Bundled> {
  const r = await build({
    stdin: { contents: entry, resolveDir: dir, loader: "ts", sourcefile: "entry.ts" },
    bundle: true,
    write: false,
    minify: true,
    format: "esm",
    platform: "browser",
    logLevel: "silent",
    plugins: [runtimeAlias],
  });
  const text = r.outputFiles[0]!.contents;
  return { min: text.length, gzip: gzipSync(text).length };
}

/** A folder of the cache with the repo's node_modules linked in, so peers' generated code finds its packages. */
function cacheDir(name: string): string {
  const dir = path.join(CACHE, name);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  symlinkSync(path.join(REPO, "node_modules"), path.join(dir, "node_modules"), "dir");
  return dir;
}

/** protoc-gen-es (target ts) over seed protos (the first names the folder; list what it imports too). */
function protobufEs(...protos: string[]): string {
  const dir = cacheDir(`es-${path.basename(protos[0]!, ".proto")}`);
  execFileSync("protoc", [`--plugin=protoc-gen-es=${path.join(REPO, "node_modules/.bin/protoc-gen-es")}`, `--es_out=${dir}`, "--es_opt=target=ts", "-Ispecs", ...protos], {
    cwd: REPO,
    timeout: 60_000,
  });
  return dir;
}

/** ajv's standalone validator module for the Webhook schema. */
function ajvWebhook(): string {
  const dir = cacheDir("ajv");
  const doc = parseYaml(readFileSync(path.join(REPO, "specs/webhooks.openapi.yaml"), "utf8")) as { components: object };
  const ajv = addFormats(new Ajv2020({ strict: false, code: { source: true, esm: true } }));
  ajv.addSchema({ $id: "spec", components: doc.components });
  writeFileSync(path.join(dir, "webhook.js"), standalone(ajv, ajv.compile({ $ref: "spec#/components/schemas/Webhook" })));
  return dir;
}

/** typia's generated `createIs<Webhook>` (its CLI, as a project runs it). */
function typiaWebhook(): string {
  const dir = cacheDir("typia");
  generateTypia(REPO, dir, `import typia from "typia";\nimport type { Webhook } from "${generatedImport(REPO, dir, "webhooks/types.js")}";\nexport const isWebhook = typia.createIs<Webhook>();\n`);
  return dir;
}

/** Two rows per use: minified bytes and minified + gzipped bytes, ours against the smallest peer. */
function rows(use: string, ours: Bundled, peers: Readonly<Record<string, Bundled>>): BenchResult[] {
  return (["min", "gzip"] as const).map((kind) => {
    const all = Object.entries(peers).map(([name, b]) => ({ name, bytes: b[kind] }));
    const smallest = all.length > 0 ? all.reduce((a, b) => (b.bytes < a.bytes ? b : a)) : { name: "(no browser peer)", bytes: ours[kind] };
    return {
      name: `bundle: ${use}, ${kind === "min" ? "minified" : "minified+gzip"}`,
      ours: ours[kind],
      peer: smallest.bytes,
      peerName: smallest.name,
      unit: "bytes",
      ratio: Math.round((smallest.bytes / ours[kind]) * 100) / 100,
      peers: Object.fromEntries(all.map((p) => [p.name, p.bytes])),
    };
  });
}

export async function measureBundles(): Promise<BenchResult[]> {
  const esContent = protobufEs("content.proto");
  const esStream = protobufEs("content-stream.proto", "content.proto");
  const ajv = ajvWebhook();
  const typia = typiaWebhook();
  const use = (code: string) => `${code}\nconsole.log(result);`;
  const x = "(globalThis as any).x";

  return [
    ...rows(
      "one validator (isWebhook)",
      await bundle(use(`import { isWebhook } from "./generated/webhooks/validate.ts";\nconst result = isWebhook(${x});`), REPO),
      {
        "ajv standalone": await bundle(use(`import validate from "./webhook.js";\nconst result = validate(${x});`), ajv),
        typia: await bundle(use(`import { isWebhook } from "./out/validators.ts";\nconst result = isWebhook(${x});`), typia),
      },
    ),
    ...rows(
      "protobuf encode+decode of one message (Link)",
      await bundle(use(`import { decodeLink, encodeLink } from "./generated/content/protobuf.ts";\nconst result = decodeLink(encodeLink(${x}));`), REPO),
      {
        "@bufbuild/protobuf": await bundle(
          use(`import { create, fromBinary, toBinary } from "@bufbuild/protobuf";\nimport { LinkSchema } from "./content_pb.ts";\nconst result = fromBinary(LinkSchema, toBinary(LinkSchema, create(LinkSchema, ${x})));`),
          esContent,
        ),
      },
    ),
    ...rows(
      "Connect client, one server-streaming call",
      await bundle(
        use(`import { createContentFeedClient } from "./generated/content-stream/connect.ts";\nconst client = createContentFeedClient({ baseUrl: "https://api.example" });\nconst result = client.streamEntries(${x});`),
        REPO,
      ),
      {
        "@connectrpc/connect-web": await bundle(
          use(`import { createClient } from "@connectrpc/connect";\nimport { createConnectTransport } from "@connectrpc/connect-web";\nimport { ContentFeed } from "./content-stream_pb.ts";\nconst client = createClient(ContentFeed, createConnectTransport({ baseUrl: "https://api.example" }));\nconst result = client.streamEntries(${x});`),
          esStream,
        ),
      },
    ),
    ...rows(
      "REST client, one call (listWebhooks)",
      await bundle(use(`import { createWebhooksAPIClient } from "./generated/webhooks/client.ts";\nconst result = await createWebhooksAPIClient({ baseUrl: "https://api.example" }).listWebhooks();`), REPO),
      {
        "openapi-fetch": await bundle(use(`import createClient from "openapi-fetch";\nconst result = await createClient<any>({ baseUrl: "https://api.example" }).GET("/webhooks");`), REPO),
      },
    ),
    ...rows(
      "SOAP client, one call (login)",
      await bundle(
        use(`import { createPartnerServiceClient } from "./generated/partner/client.ts";\nconst result = await createPartnerServiceClient({ endpoint: "https://api.example/soap" }).login(${x});`),
        REPO,
      ),
      {},
    ),
  ];
}

export const suite: BenchSuite = {
  name: "bundle",
  run: measureBundles,
};
