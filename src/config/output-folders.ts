import { UsageError } from "../errors.js";
import type { ConfigPlace } from "./config-positions.js";

/** Where a spec's output folder was decided, for errors: the config value's place, and how to name the spec. */
export interface FolderOrigin {
  readonly place: ConfigPlace;
  /** e.g. `specs[2] (specs/b/x.proto)`, or `x.proto` for a spec given on the command line. */
  readonly name: string;
}

/**
 * A spec entry's `out` as a folder below the output root, with forward slashes and no `.` segments. Refused:
 * empty, `.` (the root itself: its other specs' folders would be inside it), absolute, and anything with `..`
 * (it would leave the root). The config is untrusted input too: a shared config must not make generate write,
 * or remove, files elsewhere.
 */
export function outputFolderOf(out: string, place: ConfigPlace, key: string): string {
  const refuse = (why: string) => new UsageError(`${place.where}: "${key}" must be a folder inside the output root: ${JSON.stringify(out)} ${why}`);
  if (/^([A-Za-z]:)?[\\/]/.test(out)) throw refuse("is an absolute path");
  const segments = out.split(/[\\/]/).filter((s) => s !== "" && s !== ".");
  if (segments.includes("..")) throw refuse("leads outside it");
  if (segments.length === 0) throw refuse("is the output root itself");
  if (segments.some((s) => s.includes("\0"))) throw refuse("contains a NUL character");
  return segments.join("/");
}

/**
 * Two specs may not write the same folder, nor one inside the other's: each folder is replaced as a whole set of
 * files its spec owns, so the second spec would remove the first one's files (or count them as a user's).
 */
export function checkDistinctFolders(folders: readonly { readonly dir: string; readonly origin: FolderOrigin }[]): void {
  const byDir = new Map<string, FolderOrigin>();
  for (const f of folders) {
    const same = byDir.get(f.dir);
    if (same) throw clash(f.origin, `writes to the output folder "${f.dir}", as ${same.name} does${alsoAt(f.origin, same)}`);
    byDir.set(f.dir, f.origin);
  }
  for (const f of folders) {
    const parts = f.dir.split("/");
    for (let i = 1; i < parts.length; i++) {
      const outerDir = parts.slice(0, i).join("/");
      const outer = byDir.get(outerDir);
      if (outer) throw clash(f.origin, `writes to "${f.dir}", inside the output folder "${outerDir}" of ${outer.name}${alsoAt(f.origin, outer)}`);
    }
  }
}

/** ` (line 3:5)`: where the other spec is, when the config has positions and it is a different place. */
function alsoAt(here: FolderOrigin, other: FolderOrigin): string {
  return other.place.short !== "" && other.place.where !== here.place.where ? ` (${other.place.short})` : "";
}

function clash(here: FolderOrigin, what: string): UsageError {
  const subject = here.name === here.place.where ? "" : `${here.name} `;
  return new UsageError(`${here.place.where}: ${subject}${what}; give each spec its own "out" folder, none inside another's`);
}
