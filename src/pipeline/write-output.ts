import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, renameSync, rmdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { UsageError } from "../errors.js";
import type { OutputFile, SpecOutput } from "./generate-files.js";
import { staysInside } from "./inside-root.js";
import { MANIFEST_NAME, manifestFile, ownedFiles } from "./output-manifest.js";

/** Every file under `dir`, as paths relative to it with forward slashes, sorted. Symlinks count as files. */
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
  /**
   * stale: a generated file whose content differs; missing: not on disk; extra: a file specforge wrote that it
   * would now remove; unowned: a file (or folder) specforge did not write, where it would write one.
   */
  readonly state: "stale" | "missing" | "extra" | "unowned";
}

export interface WriteOptions {
  /** Replace user files (and folders) that are in the way of generated files. Other user files are kept anyway. */
  readonly force?: boolean;
  /** How an absolute path is named in errors; default: relative to the working folder. */
  readonly display?: (file: string) => string;
}

/** What writing one spec's folder would do, worked out before anything is touched. */
interface FolderPlan {
  readonly output: SpecOutput;
  readonly folder: string;
  readonly differences: FileDifference[];
  /** Generated files to put in place (missing, stale, or where something unowned is). */
  readonly writes: OutputFile[];
  /** Owned files no longer generated, absolute. */
  readonly removals: string[];
  /** Unowned entries that block a folder a generated file needs (a file named like the folder), absolute. */
  readonly blockers: string[];
  /** Every file specforge owns in the folder while the write is under way: what it owned plus what it writes. */
  readonly claim: readonly string[];
}

const byPath = (a: { path: string }, b: { path: string }) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0);

/**
 * One spec folder against disk. Throws when the folder, or any file in it, would lead outside the output root
 * through a symlink (a config's `out` is checked earlier; symlinks can only be seen here).
 */
function planFolder(outRoot: string, o: SpecOutput, display: (file: string) => string): FolderPlan {
  const folder = path.join(outRoot, o.dir);
  const escape = (target: string) => new UsageError(`${display(target)}: leads outside the output root ${display(outRoot)} (through a symlink); specforge only writes inside it`);
  if (!staysInside(outRoot, folder)) throw escape(folder);
  const plan: FolderPlan = { output: o, folder, differences: [], writes: [], removals: [], blockers: [], claim: [] };
  const kind = entryKind(folder);
  if (kind === "other") {
    plan.differences.push({ path: o.dir, state: "unowned" });
    plan.blockers.push(folder);
  }
  // A caller that did not ask generateSpec for the manifest still gets one: ownership must survive the next run.
  const files = o.files.some((f) => f.path === `${o.dir}/${MANIFEST_NAME}`) ? o.files : [...o.files, manifestFile(o.dir, o.files)];
  const onDisk = kind === "folder" ? listFiles(folder) : [];
  const owned = kind === "folder" ? ownedFiles(folder, onDisk) : new Set<string>();
  const wanted = new Set<string>();
  for (const f of files) {
    const rel = path.posix.relative(o.dir, f.path);
    wanted.add(rel);
    const target = path.join(folder, rel);
    // The file's folder, not the file: a rename replaces a symlink at the target itself rather than following it.
    if (!staysInside(outRoot, path.dirname(target))) throw escape(target);
    if (kind === "other") {
      plan.writes.push(f);
      continue;
    }
    // A file (not ours) where this file needs a folder, e.g. a user's `nested` when we write `nested/x.ts`.
    const parts = rel.split("/");
    let blocked = false;
    let blockedByUser = false;
    for (let i = 1; i < parts.length && !blocked; i++) {
      const prefix = parts.slice(0, i).join("/");
      const at = path.join(folder, prefix);
      if (entryKind(at) !== "other") continue;
      blocked = true;
      if (owned.has(prefix)) continue; // ours and no longer wanted as a file: removed below
      blockedByUser = true;
      if (!plan.blockers.includes(at)) {
        plan.blockers.push(at);
        plan.differences.push({ path: `${o.dir}/${prefix}`, state: "unowned" });
      }
    }
    const here = entryKind(target);
    if (blocked || here === "none") {
      if (!blockedByUser) plan.differences.push({ path: f.path, state: "missing" });
      plan.writes.push(f);
    } else if (here === "folder" || !owned.has(rel)) {
      plan.differences.push({ path: f.path, state: "unowned" });
      plan.writes.push(f);
    } else if (readFileSync(target, "utf8") !== f.content) {
      plan.differences.push({ path: f.path, state: "stale" });
      plan.writes.push(f);
    }
  }
  for (const rel of owned) {
    if (wanted.has(rel) || !onDisk.includes(rel)) continue;
    plan.differences.push({ path: `${o.dir}/${rel}`, state: "extra" });
    plan.removals.push(path.join(folder, rel));
  }
  plan.differences.sort(byPath);
  (plan.claim as string[]).push(...[...new Set([...owned, ...wanted])].sort());
  return plan;
}

function entryKind(p: string): "none" | "folder" | "other" {
  try {
    const stat = lstatSync(p);
    if (stat.isDirectory()) return "folder";
    // A symlink to a folder counts as the folder (staysInside has vouched for where it leads).
    if (stat.isSymbolicLink() && existsSync(p) && statSync(p).isDirectory()) return "folder";
    return "other";
  } catch {
    return "none";
  }
}

/**
 * How the files on disk under `outRoot` differ from what generate would write for these outputs. Files in a spec
 * folder that specforge did not write (see output-manifest.ts) are not differences, unless a generated file would
 * land on one ("unowned").
 */
export function compareWithDisk(outRoot: string, outputs: readonly SpecOutput[], options: WriteOptions = {}): FileDifference[] {
  const display = options.display ?? relativeToCwd;
  return outputs.flatMap((o) => planFolder(outRoot, o, display).differences).sort(byPath);
}

/**
 * Write every spec's folder so that a failure leaves the output as it was. First every folder is planned: files
 * specforge did not write that are in the way stop the run here, naming each (unless `force`), before anything is
 * touched. Then all new contents are written to a staging folder inside the output root, and moved into place
 * with renames; every file replaced or removed is first moved aside, so an error half-way moves everything back.
 * Files specforge did not write are never removed. A folder already up to date is left untouched (no needless
 * mtime changes for watchers and build tools). Returns the folders that changed.
 */
export function writeOutputs(outRoot: string, outputs: readonly SpecOutput[], options: WriteOptions = {}): string[] {
  const display = options.display ?? relativeToCwd;
  const changed = outputs.map((o) => planFolder(outRoot, o, display)).filter((p) => p.differences.length > 0);
  if (changed.length === 0) return [];
  const conflicts = changed.flatMap((p) => p.differences.filter((d) => d.state === "unowned"));
  if (conflicts.length > 0 && !options.force) throw conflictError(outRoot, conflicts, display);

  mkdirSync(outRoot, { recursive: true });
  const staging = path.join(outRoot, `.specforge-staging-${process.pid}-${Date.now()}`);
  const journal = new Journal(path.join(staging, "aside"));
  try {
    mkdirSync(staging);
    // Every new content on disk first: a full disk or a permission error stops the run before any file is replaced.
    const staged = new Map<string, string>();
    let n = 0;
    for (const plan of changed) {
      for (const f of plan.writes) {
        const file = path.join(staging, `new-${n++}`);
        writeFileSync(file, f.content);
        staged.set(f.path, file);
      }
    }
    for (const plan of changed) commitFolder(plan, outRoot, staging, staged, journal);
  } catch (e) {
    const failed = journal.rollBack();
    // What could not be moved back stays in the staging folder, named in the message, rather than being lost.
    if (failed.length === 0) rmSync(staging, { recursive: true, force: true });
    const kept = failed.length > 0 ? ` (could not restore: ${failed.map(display).join(", ")}; the moved-aside copies are in ${display(staging)})` : "";
    if (e instanceof UsageError) throw e;
    throw new UsageError(`cannot write the output under ${display(outRoot)}: ${(e as Error).message}; the output was left as it was${kept}`);
  }
  rmSync(staging, { recursive: true, force: true });
  for (const plan of changed) pruneEmptyFolders(plan);
  return changed.map((p) => p.output.dir);
}

/** Put one folder's files in place: claim (manifest), clear what is in the way, write, remove, final manifest. */
function commitFolder(plan: FolderPlan, outRoot: string, staging: string, staged: ReadonlyMap<string, string>, journal: Journal): void {
  for (const blocker of plan.blockers) journal.moveAside(blocker);
  journal.makeFolder(plan.folder);
  // A manifest naming old and new files first: if the process dies half-way, the next run still knows every file
  // it finds here from this run as its own (and not as a user's file that stops the run).
  const claimFile = path.join(staging, `claim-${path.relative(outRoot, plan.folder).replace(/[\\/]/g, "_")}`);
  writeFileSync(claimFile, JSON.stringify({ generatedBy: "specforge", files: plan.claim }) + "\n");
  const manifest = path.join(plan.folder, MANIFEST_NAME);
  journal.put(claimFile, manifest);
  for (const removal of plan.removals) journal.moveAside(removal);
  const writes = [...plan.writes].sort((a, b) => Number(a.path.endsWith(`/${MANIFEST_NAME}`)) - Number(b.path.endsWith(`/${MANIFEST_NAME}`)));
  for (const f of writes) {
    const target = path.join(outRoot, f.path);
    journal.makeFolder(path.dirname(target));
    journal.put(staged.get(f.path)!, target);
  }
  // The manifest is one of the generated files; when it did not change, the claim is replaced by the old one.
  if (!plan.writes.some((f) => f.path.endsWith(`/${MANIFEST_NAME}`))) journal.restore(manifest);
}

/**
 * Renames, undoable. Whatever is replaced or removed is moved into `asideDir` first (same file system: the
 * staging folder is inside the output root), so rolling back is renaming it back.
 */
class Journal {
  private readonly steps: { readonly target: string; readonly aside?: string; placed: boolean; readonly folder?: boolean }[] = [];
  private count = 0;

  constructor(private readonly asideDir: string) {}

  /** Move what is at `target` aside (if anything), then rename `source` onto it. */
  put(source: string, target: string): void {
    const step = { target, aside: this.aside(target), placed: false };
    // Journaled before the rename: if it fails, what was moved aside must still come back.
    this.steps.push(step);
    renameSync(source, target);
    step.placed = true;
  }

  moveAside(target: string): void {
    const aside = this.aside(target);
    if (aside !== undefined) this.steps.push({ target, aside, placed: false });
  }

  /** Undo the last `put` onto `target`: bring back what was there before. */
  restore(target: string): void {
    let index = this.steps.length - 1;
    while (index >= 0 && !(this.steps[index]!.target === target && this.steps[index]!.placed)) index--;
    if (index < 0) return;
    const step = this.steps[index]!;
    rmSync(target, { force: true });
    if (step.aside !== undefined) renameSync(step.aside, target);
    this.steps.splice(index, 1);
  }

  makeFolder(folder: string): void {
    const first = mkdirSync(folder, { recursive: true });
    if (first !== undefined) this.steps.push({ target: first, placed: true, folder: true });
  }

  /** Undo every step, newest first; returns what could not be restored. */
  rollBack(): string[] {
    const failed: string[] = [];
    for (const step of this.steps.splice(0).reverse()) {
      try {
        if (step.folder) rmSync(step.target, { recursive: true, force: true });
        else if (step.placed) rmSync(step.target, { recursive: true, force: true });
        if (step.aside !== undefined) renameSync(step.aside, step.target);
      } catch {
        failed.push(step.target);
      }
    }
    return failed;
  }

  private aside(target: string): string | undefined {
    if (entryKindNoFollow(target) === "none") return undefined;
    mkdirSync(this.asideDir, { recursive: true });
    const aside = path.join(this.asideDir, String(this.count++));
    renameSync(target, aside);
    return aside;
  }
}

function entryKindNoFollow(p: string): "none" | "some" {
  try {
    lstatSync(p);
    return "some";
  } catch {
    return "none";
  }
}

/** Folders inside a spec folder that removing stale files left empty (never the spec folder, never a user's). */
function pruneEmptyFolders(plan: FolderPlan): void {
  const candidates = new Set<string>();
  for (const removed of plan.removals) {
    for (let d = path.dirname(removed); d.startsWith(plan.folder + path.sep); d = path.dirname(d)) candidates.add(d);
  }
  for (const d of [...candidates].sort((a, b) => b.length - a.length)) {
    try {
      rmdirSync(d); // fails (and is left) unless empty
    } catch {
      // not empty: it holds other files
    }
  }
}

function conflictError(outRoot: string, conflicts: readonly FileDifference[], display: (file: string) => string): UsageError {
  const shown = conflicts.slice(0, 10).map((c) => `  ${display(path.join(outRoot, c.path))}`);
  if (conflicts.length > shown.length) shown.push(`  ... and ${conflicts.length - shown.length} more`);
  return new UsageError(
    `generate would overwrite ${conflicts.length === 1 ? "a file" : `${conflicts.length} files`} specforge did not write:\n${shown.join("\n")}\n` +
      `nothing was written. Move ${conflicts.length === 1 ? "it" : "them"} out of the output folder, or pass --force to replace ${conflicts.length === 1 ? "it" : "them"}.`,
  );
}

function relativeToCwd(file: string): string {
  const rel = path.relative(process.cwd(), file).split(path.sep).join("/");
  return rel === "" ? "." : rel;
}
