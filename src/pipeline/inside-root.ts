import { lstatSync, realpathSync } from "node:fs";
import path from "node:path";

/**
 * Whether `target` (absolute; it need not exist yet) stays inside `root` once symlinks are followed: the deepest
 * part of it that exists is resolved with realpath and must lie in the root's real path. A spec folder (or a folder
 * inside it) that is a symlink to somewhere else would otherwise let generate write, and remove, outside the root.
 */
export function staysInside(root: string, target: string): boolean {
  const realRoot = realpathOrSelf(root);
  let existing = target;
  const rest: string[] = [];
  while (!entryExists(existing)) {
    const parent = path.dirname(existing);
    if (parent === existing) break;
    rest.unshift(path.basename(existing));
    existing = parent;
  }
  let resolved: string;
  try {
    resolved = realpathSync(existing);
  } catch {
    // A symlink that leads nowhere: where it would lead once created cannot be vouched for.
    return false;
  }
  const real = path.join(resolved, ...rest);
  const rel = path.relative(realRoot, real);
  return rel !== "" && !rel.startsWith("..") && !path.isAbsolute(rel);
}

function realpathOrSelf(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return path.resolve(p);
  }
}

/** Whether something (a dangling symlink included) is at `p`. */
function entryExists(p: string): boolean {
  try {
    lstatSync(p);
    return true;
  } catch {
    return false;
  }
}
