/**
 * Serves a test page and the TypeScript it imports as ES modules, on 127.0.0.1: each `/<root>/x.js` request is the
 * file `x.ts` of that root with its types erased by esbuild's transform (nothing bundled), so the browser runs the
 * generated client code and the runtime module by module. esbuild rather than typescript's transpileModule: the
 * page loads about 120 modules, which transpileModule took 19 s to compile on a busy 2-core machine, esbuild 0.6 s. `specforge/runtime` (what generated code imports) is mapped to src/runtime by the page's import map.
 */
import { readFileSync, realpathSync } from "node:fs";
import path from "node:path";
import { transform } from "esbuild";
import type { HttpHandler } from "../../src/runtime/http/handler.js";
import { serveNode, type NodeServerHandle } from "../../src/runtime/http/node.js";

export interface PageServerOptions {
  /** URL prefix (e.g. "/generated/") -> folder of .ts files served under it. */
  readonly roots: Readonly<Record<string, string>>;
  /** The module the page runs (a URL path ending in .js). */
  readonly entry: string;
  /** Bare specifiers of the page's import map, e.g. { "specforge/runtime": "/src/runtime/index.js" }. */
  readonly imports: Readonly<Record<string, string>>;
}

export interface PageServer extends NodeServerHandle {
  /** How many webhook pings (POST /hook) the server received: the webhooks emulator pings on create. */
  readonly hooks: () => number;
}

export function pageHtml(entry: string, imports: Readonly<Record<string, string>>): string {
  return [
    "<!doctype html>",
    '<html><head><meta charset="utf-8"><title>specforge clients</title>',
    `<script type="importmap">${JSON.stringify({ imports })}</script>`,
    `<script type="module" src="${entry}"></script>`,
    '</head><body><pre id="results"></pre></body></html>',
    "",
  ].join("\n");
}

/** The .ts file a module URL path names, or undefined when it is outside every root. */
function sourceFile(roots: ReadonlyMap<string, string>, urlPath: string): string | undefined {
  if (!urlPath.endsWith(".js")) return undefined;
  for (const [prefix, dir] of roots) {
    if (!urlPath.startsWith(prefix)) continue;
    let name: string;
    try {
      name = decodeURIComponent(urlPath.slice(prefix.length, -3));
    } catch {
      return undefined; // not valid percent-encoding
    }
    const file = path.resolve(dir, `${name}.ts`);
    if (!file.startsWith(dir + path.sep)) return undefined; // ../ out of the root
    return file;
  }
  return undefined;
}

export function pageHandler(options: PageServerOptions, onHook: () => void): HttpHandler {
  const roots = new Map(Object.entries(options.roots).map(([prefix, dir]) => [prefix, realpathSync(dir)]));
  const compiled = new Map<string, string>();
  const html = pageHtml(options.entry, options.imports);
  return async (request) => {
    const url = new URL(request.url);
    if (url.pathname === "/" && request.method === "GET") {
      return new Response(html, { headers: { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" } });
    }
    if (url.pathname === "/hook" && request.method === "POST") {
      onHook();
      await request.arrayBuffer();
      return new Response(null, { status: 204 });
    }
    const file = sourceFile(roots, url.pathname);
    if (file === undefined || request.method !== "GET") return new Response("not found\n", { status: 404 });
    let code = compiled.get(file);
    if (code === undefined) {
      let text: string;
      try {
        text = readFileSync(file, "utf8");
      } catch {
        return new Response("not found\n", { status: 404 });
      }
      code = (await transform(text, { loader: "ts", format: "esm", target: "es2022", sourcefile: file })).code;
      compiled.set(file, code);
    }
    return new Response(code, { headers: { "content-type": "text/javascript; charset=utf-8", "cache-control": "no-store" } });
  };
}

/** Serve the page on 127.0.0.1 (a free port). */
export async function servePage(options: PageServerOptions): Promise<PageServer> {
  let hooks = 0;
  const server = await serveNode(pageHandler(options, () => void hooks++));
  return { ...server, hooks: () => hooks };
}
