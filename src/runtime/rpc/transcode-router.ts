/**
 * Matching request paths against google.api.http templates in linear time: one segment trie per (HTTP method, verb),
 * walked depth first. A trie node stands for one prefix of templates, so a match visits each node at most once: the
 * work is bounded by the path's length plus the trie's size, whatever the path. The generator refuses templates that
 * can match the same request (templatesOverlap), so the first complete match is the only one; a path ending in
 * ":verb" is tried against the templates with that verb before the templates without one.
 */
import type { CompiledBinding } from "./transcode.js";

interface TrieNode {
  literal?: Map<string, TrieNode>;
  one?: TrieNode;
  /** A template ending here with `**` (which matches zero or more segments). */
  rest?: Entry;
  /** A template ending here. */
  end?: Entry;
}

export interface Entry {
  readonly compiled: CompiledBinding;
  /** What the caller attached (the route). */
  readonly target: unknown;
}

export interface RestMatch {
  readonly entry: Entry;
  /** Each variable's value (percent-decoded as http.proto says), in the order of compiled.variables. */
  readonly values: readonly string[];
}

/** Thrown for a path segment with a malformed percent escape inside a variable: a 400, not a 404. */
export class BadPathError extends Error {}

function decodeSegment(raw: string): string | undefined {
  if (!raw.includes("%")) return raw;
  try {
    return decodeURIComponent(raw);
  } catch {
    return undefined;
  }
}

/** Multi-segment variables: decoded except "%2F", which stays as sent (http.proto). */
function decodeKeepingSlash(raw: string): string {
  return raw
    .split(/%2[fF]/)
    .map((part) => {
      const decoded = decodeSegment(part);
      if (decoded === undefined) throw new BadPathError(`malformed percent escape in ${JSON.stringify(raw.slice(0, 100))}`);
      return decoded;
    })
    .join("%2F");
}

export class RestRouter {
  readonly #roots = new Map<string, TrieNode>();
  /** Every method some template of a path answers (for 405 Allow). */
  readonly #methods = new Set<string>();

  add(compiled: CompiledBinding, target: unknown): void {
    const key = `${compiled.method} ${compiled.template.verb ?? ""}`;
    this.#methods.add(compiled.method);
    let node = this.#roots.get(key);
    if (node === undefined) this.#roots.set(key, (node = {}));
    const entry: Entry = { compiled, target };
    for (const s of compiled.template.segments) {
      if (s.kind === "rest") {
        node.rest = entry;
        return;
      }
      if (s.kind === "one") node = node.one ??= {};
      else {
        const literal: Map<string, TrieNode> = (node.literal ??= new Map());
        const value = decodeSegment(s.value) ?? s.value;
        let next = literal.get(value);
        if (next === undefined) literal.set(value, (next = {}));
        node = next;
      }
    }
    node.end = entry;
  }

  /** The binding a request's method and raw path (no query) select, with the variables' values. */
  match(method: string, rawPath: string): RestMatch | undefined {
    const raw = rawPath.slice(1).split("/");
    const last = raw[raw.length - 1]!;
    const colon = last.lastIndexOf(":");
    if (colon >= 0) {
      const verb = decodeSegment(last.slice(colon + 1));
      if (verb !== undefined) {
        const segments = [...raw.slice(0, -1), last.slice(0, colon)];
        const found = this.#find(`${method} ${verb}`, segments) ?? this.#find(`* ${verb}`, segments);
        if (found !== undefined) return found;
      }
    }
    return this.#find(`${method} `, raw) ?? this.#find("* ", raw);
  }

  /** Whether some template matches the path under another method (405 rather than 404). */
  methodsFor(rawPath: string): string[] {
    return [...this.#methods].filter((m) => m !== "*" && this.match(m, rawPath) !== undefined).sort();
  }

  #find(key: string, raw: readonly string[]): RestMatch | undefined {
    const root = this.#roots.get(key);
    if (root === undefined) return undefined;
    const decoded: (string | undefined | null)[] = new Array(raw.length);
    const literalAt = (i: number): string | undefined => {
      let d = decoded[i];
      if (d === undefined) decoded[i] = d = decodeSegment(raw[i]!) ?? null;
      return d ?? undefined;
    };
    // Depth first; depth never exceeds the longest template, a `**` takes the rest at once.
    const walk = (node: TrieNode, i: number): Entry | undefined => {
      if (i === raw.length) return node.end ?? node.rest;
      const segment = raw[i]!;
      if (node.literal !== undefined) {
        const text = literalAt(i);
        const next = text === undefined ? undefined : node.literal.get(text);
        const found = next === undefined ? undefined : walk(next, i + 1);
        if (found !== undefined) return found;
      }
      if (node.one !== undefined && segment !== "") {
        const found = walk(node.one, i + 1);
        if (found !== undefined) return found;
      }
      return node.rest;
    };
    const entry = walk(root, 0);
    if (entry === undefined) return undefined;
    const restIndex = entry.compiled.template.segments.findIndex((s) => s.kind === "rest");
    const values = entry.compiled.variables.map((v) => {
      // Template segment indices map to request segments one to one, up to a `**` (which takes the rest).
      const from = v.start;
      const to = restIndex >= 0 && v.end - 1 === restIndex ? raw.length : v.end;
      if (!v.multi) {
        const value = decodeSegment(raw[from]!);
        if (value === undefined) throw new BadPathError(`malformed percent escape in ${JSON.stringify(raw[from]!.slice(0, 100))}`);
        return value;
      }
      return raw.slice(from, to).map(decodeKeepingSlash).join("/");
    });
    return { entry, values };
  }
}
