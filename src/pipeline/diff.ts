/**
 * Line diffs for `specforge check`: Myers' O(ND) algorithm on the lines between the common prefix and suffix,
 * printed as a unified diff. The edit trace costs O(D²) memory, so past MAX_EDITS differences the middle is shown
 * as one replacement instead (still a correct patch, just not a minimal one): a generated file that changed that
 * much is best read whole anyway.
 */

import { appendAll } from "../append-all.js";

export interface Edit {
  /** " " kept, "-" only in the old text, "+" only in the new one. */
  readonly op: " " | "-" | "+";
  /** Index of the line in the old text ("-" and " ") or the new text ("+"). */
  readonly index: number;
}

const MAX_EDITS = 4000;

/** The edit script turning `a` into `b`, in order. */
export function diffLines(a: readonly string[], b: readonly string[]): Edit[] {
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  const edits: Edit[] = [];
  for (let i = 0; i < start; i++) edits.push({ op: " ", index: i });
  const middle = myers(a, b, start, endA, start, endB) ?? replaceAll(start, endA, start, endB);
  appendAll(edits, middle);
  for (let i = endA; i < a.length; i++) edits.push({ op: " ", index: i });
  return edits;
}

function replaceAll(a0: number, a1: number, b0: number, b1: number): Edit[] {
  const out: Edit[] = [];
  for (let i = a0; i < a1; i++) out.push({ op: "-", index: i });
  for (let j = b0; j < b1; j++) out.push({ op: "+", index: j });
  return out;
}

/** Myers on a[a0..a1) and b[b0..b1); undefined when more than MAX_EDITS edits are needed. */
function myers(a: readonly string[], b: readonly string[], a0: number, a1: number, b0: number, b1: number): Edit[] | undefined {
  // Lines as small integers: comparing numbers in the inner loop instead of strings.
  const ids = new Map<string, number>();
  const idOf = (s: string) => ids.get(s) ?? (ids.set(s, ids.size), ids.size - 1);
  const x0 = Int32Array.from(a.slice(a0, a1), idOf);
  const y0 = Int32Array.from(b.slice(b0, b1), idOf);
  const n = x0.length;
  const m = y0.length;
  const max = Math.min(n + m, MAX_EDITS);
  const offset = max + 1;
  const v = new Int32Array(2 * max + 3);
  const trace: Int32Array[] = [];
  let found = -1;
  for (let d = 0; d <= max && found < 0; d++) {
    // The state before step d, for k in [-d-1, d+1]: all that backtracking step d needs.
    trace.push(v.slice(offset - d - 1, offset + d + 2));
    for (let k = -d; k <= d; k += 2) {
      let x = k === -d || (k !== d && v[offset + k - 1]! < v[offset + k + 1]!) ? v[offset + k + 1]! : v[offset + k - 1]! + 1;
      let y = x - k;
      while (x < n && y < m && x0[x] === y0[y]) {
        x++;
        y++;
      }
      v[offset + k] = x;
      if (x >= n && y >= m) {
        found = d;
        break;
      }
    }
  }
  if (found < 0) return undefined;
  const reversed: Edit[] = [];
  let x = n;
  let y = m;
  for (let d = found; d > 0; d--) {
    const snap = trace[d]!;
    const at = (k: number) => snap[k + d + 1]!;
    const k = x - y;
    const down = k === -d || (k !== d && at(k - 1) < at(k + 1));
    const prevK = down ? k + 1 : k - 1;
    const prevX = at(prevK);
    const prevY = prevX - prevK;
    for (; x > prevX && y > prevY; x--, y--) reversed.push({ op: " ", index: a0 + x - 1 });
    if (down) reversed.push({ op: "+", index: b0 + prevY });
    else reversed.push({ op: "-", index: a0 + prevX });
    x = prevX;
    y = prevY;
  }
  for (; x > 0 && y > 0; x--, y--) reversed.push({ op: " ", index: a0 + x - 1 });
  return reversed.reverse();
}

/** Lines of a text; a last line without a newline is marked so it differs from the same line with one. */
function splitLines(text: string): { lines: string[]; noEol: boolean } {
  if (text === "") return { lines: [], noEol: false };
  const lines = text.split("\n");
  if (lines[lines.length - 1] === "") {
    lines.pop();
    return { lines, noEol: false };
  }
  return { lines, noEol: true };
}

const NO_EOL = "\u0000no-eol";

/**
 * A unified diff (3 lines of context) from `oldText` to `newText`, headed `--- oldName` / `+++ newName`; "" when
 * the texts are equal. `patch -p1` applies it.
 */
export function unifiedDiff(oldText: string, newText: string, oldName: string, newName: string, context = 3): string {
  if (oldText === newText) return "";
  const a = splitLines(oldText);
  const b = splitLines(newText);
  const keyed = (s: { lines: string[]; noEol: boolean }) => (s.noEol ? [...s.lines.slice(0, -1), s.lines[s.lines.length - 1] + NO_EOL] : s.lines);
  const edits = diffLines(keyed(a), keyed(b));
  const out = [`--- ${oldName}`, `+++ ${newName}`];
  // Positions in both texts before each edit, for hunk headers.
  const posA: number[] = [];
  const posB: number[] = [];
  let i = 0;
  let j = 0;
  for (const e of edits) {
    posA.push(i);
    posB.push(j);
    if (e.op !== "+") i++;
    if (e.op !== "-") j++;
  }
  let e = 0;
  while (e < edits.length) {
    if (edits[e]!.op === " ") {
      e++;
      continue;
    }
    // A hunk: from `context` lines before this change to `context` lines after the last change within reach.
    const first = Math.max(0, e - context);
    let last = e;
    // Changes at most 2 * context unchanged lines apart share a hunk (their contexts would touch).
    for (let k = e; k < edits.length && k <= last + 2 * context + 1; k++) if (edits[k]!.op !== " ") last = k;
    const end = Math.min(edits.length, last + context + 1);
    const hunk = edits.slice(first, end);
    const countA = hunk.filter((h) => h.op !== "+").length;
    const countB = hunk.filter((h) => h.op !== "-").length;
    out.push(`@@ -${range(posA[first]!, countA)} +${range(posB[first]!, countB)} @@`);
    for (const h of hunk) {
      const side = h.op === "+" ? b : a;
      out.push(`${h.op}${side.lines[h.index]}`);
      if (side.noEol && h.index === side.lines.length - 1) out.push("\\ No newline at end of file");
    }
    e = end;
  }
  return out.join("\n") + "\n";
}

/** `start,count` of a hunk side (1-based; an empty side names the line before it, as diff does). */
function range(start: number, count: number): string {
  if (count === 0) return `${start},0`;
  return count === 1 ? `${start + 1}` : `${start + 1},${count}`;
}
