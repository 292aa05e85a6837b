import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { SpecOutput } from "./generate-files.js";

/** Every file under `dir`, as paths relative to it with forward slashes, sorted. */
export function listFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  const walk = (rel: string) => {
    for (const entry of readdirSync(path.join(dir, rel), { withFileTypes: true })) {
      const child = rel === "" ? entry.name : `${rel}/${entry.name}`;
      if (entry.isDirectory()) walk(child);
      else out.push(child);
    }
  };
  walk("");
  return out.sort();
}

export interface FileDifference {
  readonly path: string;
  readonly state: "stale" | "missing" | "extra";
}

/** How the files on disk under `outRoot` differ from what generate would write for these outputs. */
export function compareWithDisk(outRoot: string, outputs: readonly SpecOutput[]): FileDifference[] {
  const diffs: FileDifference[] = [];
  for (const o of outputs) {
    const want = new Map(o.files.map((f) => [f.path, f.content]));
    const have = new Set(listFiles(path.join(outRoot, o.dir)).map((p) => `${o.dir}/${p}`));
    for (const [p, content] of want) {
      if (!have.has(p)) diffs.push({ path: p, state: "missing" });
      else if (readFileSync(path.join(outRoot, p), "utf8") !== content) diffs.push({ path: p, state: "stale" });
    }
    for (const p of have) if (!want.has(p)) diffs.push({ path: p, state: "extra" });
  }
  return diffs.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/**
 * Write every spec's folder so that a failure leaves the output as it was: all files are first written to a
 * staging folder beside the output, then each spec folder is swapped in with renames. A spec folder whose files
 * are already up to date is left untouched (no needless mtime changes for watchers and build tools).
 * Returns the folders that changed.
 */
export function writeOutputs(outRoot: string, outputs: readonly SpecOutput[]): string[] {
  const changed = outputs.filter((o) => compareWithDisk(outRoot, [o]).length > 0);
  if (changed.length === 0) return [];
  mkdirSync(outRoot, { recursive: true });
  const staging = path.join(outRoot, `.specforge-staging-${process.pid}-${Date.now()}`);
  try {
    for (const o of changed) {
      for (const f of o.files) {
        const target = path.join(staging, f.path);
        mkdirSync(path.dirname(target), { recursive: true });
        writeFileSync(target, f.content);
      }
    }
    for (const o of changed) {
      const target = path.join(outRoot, o.dir);
      const old = path.join(staging, `.old-${o.dir}`);
      if (existsSync(target) && statSync(target).isDirectory()) renameSync(target, old);
      else if (existsSync(target)) throw new Error(`${target} exists and is not a folder`);
      renameSync(path.join(staging, o.dir), target);
    }
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
  return changed.map((o) => o.dir);
}
