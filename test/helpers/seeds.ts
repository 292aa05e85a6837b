import { readFileSync } from "node:fs";
import path from "node:path";

/** The repo root and the shared folder beside it (seeds and corpus live there, never copied into the repo). */
export const REPO = path.resolve(import.meta.dirname, "../..");
export const SHARED = path.resolve(REPO, "../shared");

export function readSeed(name: string): string {
  return readFileSync(path.join(SHARED, "seeds", name), "utf8");
}

export function readGenerated(file: string): string {
  return readFileSync(path.join(REPO, "generated", file), "utf8");
}

/** The body of `export interface Name { ... }` in a generated file, or undefined. */
export function interfaceBody(text: string, name: string): string | undefined {
  const start = text.indexOf(`export interface ${name} {\n`);
  if (start < 0) return undefined;
  const end = text.indexOf("\n}\n", start);
  return text.slice(start, end + 2);
}

/** The properties of an interface body as "key?: type" strings (doc comments dropped). */
export function properties(body: string): string[] {
  return body
    .split("\n")
    .filter((l) => /^ {2}[^ /*]/.test(l))
    .map((l) => l.trim().replace(/;$/, ""));
}
