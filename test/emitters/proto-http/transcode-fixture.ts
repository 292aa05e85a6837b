/** Generating the transcoding fixtures (fixtures/transcode, with the google/api declarations beside them). */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { ArtifactGroup } from "../../../src/config/options.js";
import type { IrDocument } from "../../../src/ir/model.js";
import { nodeSpecHost } from "../../../src/parsers/host.js";
import { generateSpec } from "../../../src/pipeline/generate-files.js";
import { RpcError } from "../../../src/runtime/connect/error.js";
import { REPO, SHARED } from "../../helpers/seeds.js";

export const FIXTURES = path.join(path.dirname(fileURLToPath(import.meta.url)), "fixtures/transcode");

/** Generate a fixture (with the google/api declarations beside it) and import its index. */
export async function generateFixture(
  entry: string,
  artifacts?: readonly ArtifactGroup[],
): Promise<{ gen: Record<string, any>; doc: IrDocument; files: Map<string, string>; warnings: string[]; remove: () => void }> {
  const out = generateSpec(
    { file: path.join(FIXTURES, entry), display: entry, runtimeModule: path.join(REPO, "src/runtime/index.ts"), ...(artifacts ? { artifacts } : {}) },
    nodeSpecHost({ includeDirs: [FIXTURES, path.join(SHARED, "corpus/proto")] }),
  );
  const root = mkdtempSync(path.join(tmpdir(), "specforge-transcode-"));
  for (const f of out.files) {
    const file = path.join(root, f.path);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, f.content);
  }
  const gen = (await import(path.join(root, out.dir, "index.ts"))) as Record<string, any>;
  return {
    gen,
    doc: out.doc,
    files: new Map(out.files.map((f) => [f.path, f.content])),
    warnings: out.warnings.map((w) => `${w.file}:${w.line}:${w.column}: ${w.detail}`),
    remove: () => rmSync(root, { recursive: true, force: true }),
  };
}

interface Book {
  name: string;
  author: string;
  title: string;
  read: boolean;
  pageCount: bigint;
  genre: string | number;
  tags?: string[];
}

/** The one implementation every protocol reaches: an in-memory library (fixtures/transcode/library.proto). */
export function library(seen: { method: string; request: unknown }[]) {
  const shelves = new Map<string, { name: string; theme: string }>();
  const books = new Map<string, Book>();
  let next = 1;
  const note = (method: string, request: unknown) => seen.push({ method, request });
  const shelf = (name: string) => {
    const s = shelves.get(name);
    if (s === undefined) throw new RpcError("not_found", `${name} does not exist`);
    return s;
  };
  const book = (name: string) => {
    const b = books.get(name);
    if (b === undefined) throw new RpcError("not_found", `${name} does not exist`);
    return b;
  };
  return {
    reset() {
      shelves.clear();
      books.clear();
      next = 1;
      seen.length = 0;
    },
    impl: {
      async createShelf(r: { shelf?: { theme: string } }) {
        note("createShelf", r);
        if (!r.shelf?.theme) throw new RpcError("invalid_argument", "a shelf needs a theme");
        const s = { name: `shelves/${next++}`, theme: r.shelf.theme };
        shelves.set(s.name, s);
        return s;
      },
      async getShelf(r: { name: string; library: string }) {
        note("getShelf", r);
        return { ...shelf(r.name), theme: r.library ? `${shelf(r.name).theme} @${r.library}` : shelf(r.name).theme };
      },
      async listShelves(r: { pageSize: number; pageToken: string }) {
        note("listShelves", r);
        const all = [...shelves.values()];
        const start = r.pageToken ? Number(r.pageToken) : 0;
        const size = r.pageSize || all.length;
        const page = all.slice(start, start + size);
        return { shelves: page, nextPageToken: start + size < all.length ? String(start + size) : "" };
      },
      async deleteShelf(r: { name: string }) {
        note("deleteShelf", r);
        shelf(r.name);
        if ([...books.keys()].some((b) => b.startsWith(`${r.name}/`))) throw new RpcError("failed_precondition", `${r.name} is not empty`);
        shelves.delete(r.name);
        return {};
      },
      async mergeShelves(r: { name: string; otherShelf: string }) {
        note("mergeShelves", r);
        if (r.name === r.otherShelf) throw new RpcError("already_exists", "a shelf cannot be merged with itself");
        const into = shelf(r.name);
        shelf(r.otherShelf);
        for (const [name, b] of [...books]) {
          if (!name.startsWith(`${r.otherShelf}/`)) continue;
          books.delete(name);
          const moved = { ...b, name: `${r.name}/books/${name.split("/").pop()}` };
          books.set(moved.name, moved);
        }
        shelves.delete(r.otherShelf);
        return into;
      },
      async createBook(r: { parent: string; book?: Book }) {
        note("createBook", r);
        shelf(r.parent);
        const b = { ...r.book!, name: `${r.parent}/books/${next++}` };
        books.set(b.name, b);
        return b;
      },
      async getBook(r: { name: string }) {
        note("getBook", r);
        return book(r.name);
      },
      async listBooks(r: { parent: string; pageSize: number }) {
        note("listBooks", r);
        shelf(r.parent);
        return { books: [...books.values()].filter((b) => b.name.startsWith(`${r.parent}/`)), nextPageToken: "" };
      },
      async updateBook(r: { book?: Book; updateMask?: { paths?: string[] } }) {
        note("updateBook", r);
        const old = book(r.book!.name);
        const mask = r.updateMask?.paths ?? [];
        if (mask.length === 0) throw new RpcError("invalid_argument", "update_mask is required");
        const updated: Record<string, unknown> = { ...old };
        for (const p of mask) {
          const key = p.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());
          if (!(key in old)) throw new RpcError("invalid_argument", `unknown field ${p}`);
          updated[key] = (r.book as unknown as Record<string, unknown>)[key];
        }
        books.set(old.name, updated as unknown as Book);
        return updated;
      },
      async searchBooks(r: { parent: string; authors?: string[]; filter?: { minPages: bigint; genre: string | number; read: boolean }; genres?: (string | number)[] }) {
        note("searchBooks", r);
        shelf(r.parent);
        const found = [...books.values()].filter((b) =>
          b.name.startsWith(`${r.parent}/`) &&
          (r.authors === undefined || r.authors.length === 0 || r.authors.includes(b.author)) &&
          (r.filter === undefined || (b.pageCount >= r.filter.minPages && (r.filter.genre === "GENRE_UNSPECIFIED" || b.genre === r.filter.genre) && (!r.filter.read || b.read))) &&
          (r.genres === undefined || r.genres.length === 0 || r.genres.includes(b.genre)));
        return { books: found, total: found.length };
      },
      async getOperation(r: { name: string }) {
        note("getOperation", r);
        return { name: r.name, done: true, reason: "" };
      },
      async cancelOperation(r: { name: string; reason: string }) {
        note("cancelOperation", r);
        return { name: r.name, done: false, reason: r.reason };
      },
      async purgeShelf(r: { name: string }) {
        note("purgeShelf", r);
        shelf(r.name);
        return {};
      },
      async countBooks(r: { parent: string }) {
        note("countBooks", r);
        return { count: [...books.keys()].filter((b) => b.startsWith(`${r.parent}/`)).length };
      },
      async *watchShelf(r: { name: string }) {
        yield shelf(r.name);
      },
    },
  };
}
