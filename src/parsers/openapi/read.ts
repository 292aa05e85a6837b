/**
 * Read one OpenAPI file (YAML or JSON — JSON is YAML) into plain data plus a position for every JSON pointer.
 * A `.json` file is first checked to be strict JSON (strict-json.ts).
 *
 * We walk yaml's node tree ourselves instead of calling `toJS()` so that
 *  - every node's position is recorded under its JSON pointer (later errors point at the exact key),
 *  - objects are created with a null prototype: a spec key named `__proto__` stays an ordinary own property and
 *    cannot reach Object.prototype,
 *  - numbers keep their source text (`maximum: 9223372036854775807` stays exact in facets),
 *  - alias expansion is budgeted (billion-laughs documents are refused) and custom tags are refused.
 */
import { CST, isAlias, isMap, isScalar, isSeq, LineCounter, Parser, parseDocument, type Node } from "yaml";
import { SpecError, SpecErrors } from "../../errors.js";
import { childPointer } from "./pointer.js";
import { strictJsonErrors } from "./strict-json.js";

export interface Position {
  readonly line: number;
  readonly column: number;
}

/** A JSON-like value from the spec. Objects have a null prototype. */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

export interface ParsedFile {
  /** Absolute path. */
  readonly path: string;
  readonly value: JsonValue;
  /** Position of the node at `pointer` (for a map entry: its key); falls back to the nearest ancestor. */
  locate(pointer: string): Position;
  /** Source text of the number at `pointer`, when it is a plain decimal literal. */
  numberText(pointer: string): string | undefined;
  /** For a file converted from Swagger 2.0: the pointer of the node in the file as written. */
  sourcePointer?(pointer: string): string;
}

/** At most this many aliases per file; also bounds expansion work (each alias expands at most the node limit). */
const MAX_ALIASES = 100;
/**
 * The node limit of a file: MAX_NODES (readSpecFile's `minNodes`), or one node per character of the file when it is larger. A node written out
 * takes at least one character, so a real document (Microsoft Graph's 47 MB, 3 million nodes) always fits, while YAML
 * aliases still cannot make a tree larger than its text (the billion-laughs attack): the work stays linear in the
 * size of the input.
 */
export const MAX_NODES = 1_000_000;
const STANDARD_TAGS = new Set([
  "tag:yaml.org,2002:str",
  "tag:yaml.org,2002:int",
  "tag:yaml.org,2002:float",
  "tag:yaml.org,2002:bool",
  "tag:yaml.org,2002:null",
  "tag:yaml.org,2002:map",
  "tag:yaml.org,2002:seq",
]);
const DECIMAL = /^-?\d+(\.\d+)?([eE][+-]?\d+)?$/;

/** `minNodes`: the node limit of a small file (default MAX_NODES; tests lower it to stay small). */
export function readSpecFile(path: string, text: string, display: string, options: { readonly minNodes?: number } = {}): ParsedFile {
  const minNodes = options.minNodes ?? MAX_NODES;
  // JSON is read as YAML (for the positions), but a .json file must be strict JSON: YAML would accept trailing
  // commas and comments. Every such problem is reported at once.
  if (/\.json$/i.test(path)) {
    const problems = strictJsonErrors(text, display);
    if (problems.length === 1) throw problems[0]!;
    if (problems.length > 1) throw new SpecErrors(problems);
  }
  // Huge double-quoted strings (a 50 MB enum value) are decoded here, in linear time, and read by yaml as short
  // placeholders: yaml builds a double-quoted scalar a character at a time, which took gigabytes. Offsets map back
  // to the file as written.
  const huge = replaceHugeStrings(text, /\.json$/i.test(path) ? hugeJsonStrings(text) : hugeYamlStrings(text));
  const source = huge?.text ?? text;
  const lineCounter = new LineCounter();
  const doc = parseDocument(source, { lineCounter, prettyErrors: false, uniqueKeys: true });
  const at = (offset: number): Position => {
    const p = lineCounter.linePos(huge ? huge.original(offset) : offset);
    return { line: p.line, column: p.col };
  };
  if (huge) {
    // Positions are those of the file as written: count its lines, not the placeholder text's.
    lineCounter.lineStarts.length = 0;
    lineCounter.addNewLine(0);
    for (let i = text.indexOf("\n"); i >= 0; i = text.indexOf("\n", i + 1)) lineCounter.addNewLine(i + 1);
  }
  const real = (v: string): string => (huge !== undefined && v.startsWith(huge.prefix) ? (huge.values.get(v) ?? v) : v);
  const firstError = doc.errors[0];
  if (firstError) {
    const p = at(firstError.pos[0]);
    throw new SpecError(display, p.line, p.column, `invalid YAML/JSON: ${firstError.message}`);
  }

  const positions = new Map<string, Position>();
  const numbers = new Map<string, string>();
  let aliases = 0;
  let nodes = 0;
  const maxNodes = Math.max(minNodes, text.length);
  const expanding = new Set<Node>();

  const fail = (node: { range?: readonly number[] | null } | null | undefined, detail: string): never => {
    const p = at(node?.range?.[0] ?? 0);
    throw new SpecError(display, p.line, p.column, detail);
  };

  const walk = (node: unknown, pointer: string, record: boolean): JsonValue => {
    if (++nodes > maxNodes) fail(node as Node, `document too large: more than ${maxNodes} nodes (the limit is one per character of the file, at least ${minNodes}: YAML alias expansion?)`);
    const n = node as Node | null;
    if (record && n?.range) positions.set(pointer, at(n.range[0]));
    if (isAlias(node)) {
      if (++aliases > MAX_ALIASES) fail(node, `more than ${MAX_ALIASES} YAML aliases`);
      const target = node.resolve(doc);
      if (!target) return fail(node, `unknown YAML alias *${node.source}`);
      if (expanding.has(target)) return fail(node, `recursive YAML alias *${node.source}`);
      expanding.add(target);
      // Positions inside an expansion are those of the anchored original; the alias itself is recorded by the caller.
      const value = walk(target, pointer, false);
      expanding.delete(target);
      return value;
    }
    if (n && n.tag !== undefined && !STANDARD_TAGS.has(n.tag)) {
      // The node's range starts after its properties; the tag is the last `!...` written before it.
      const start = n.range?.[0] ?? 0;
      const bang = text.lastIndexOf("!", start);
      fail({ range: [bang >= 0 ? bang : start] }, `custom YAML tag ${n.tag} is not allowed`);
    }
    if (n === null || n === undefined) return null;
    if (isMap(n)) {
      const obj = Object.create(null) as { [key: string]: JsonValue };
      for (const pair of n.items) {
        const keyNode = pair.key as Node | null;
        if (!isScalar(keyNode)) return fail(keyNode ?? n, "object keys must be plain strings");
        // Keys such as `200:` are YAML numbers; the source text is what the author meant ("200", not 200).
        const key = real(keyNode.source !== undefined ? String(keyNode.source) : String(keyNode.value));
        const child = childPointer(pointer, key);
        if (keyNode.range) positions.set(child, at(keyNode.range[0]));
        obj[key] = walk(pair.value, child, false);
      }
      return obj;
    }
    if (isSeq(n)) {
      return n.items.map((item, i) => walk(item, childPointer(pointer, i), true));
    }
    if (isScalar(n)) {
      const v = n.value;
      if (typeof v === "number") {
        if (n.source !== undefined && DECIMAL.test(n.source)) numbers.set(pointer, n.source);
        return v;
      }
      if (typeof v === "bigint") return Number(v);
      if (typeof v === "string") return real(v);
      if (v === null || typeof v === "boolean") return v;
      return fail(n, "unsupported YAML scalar");
    }
    return fail(n, "unsupported YAML node");
  };

  const contents = doc.contents;
  if (contents?.range) positions.set("#", at(contents.range[0]));
  const value = walk(contents, "#", false);

  return {
    path,
    value,
    locate(pointer) {
      let p = pointer;
      for (;;) {
        const hit = positions.get(p);
        if (hit) return hit;
        const cut = p.lastIndexOf("/");
        if (cut < 0) return { line: 1, column: 1 };
        p = p.slice(0, cut);
      }
    },
    numberText: (pointer) => numbers.get(pointer),
  };
}

/** Strings at least this long (in the file) are decoded with JSON.parse and given to yaml as placeholders. */
const HUGE_STRING = 65536;

/** A string of the file to read as a placeholder: its quotes at [start, end), and its value. */
interface HugeString {
  readonly start: number;
  readonly end: number;
  readonly value: string;
}

/**
 * The strings of HUGE_STRING characters or more of a strict-JSON `text` (it has passed strictJsonErrors: a `"`
 * outside a string always opens one, and strings hold no raw newline).
 */
function hugeJsonStrings(text: string): HugeString[] {
  let at = text.indexOf('"');
  const found: HugeString[] = [];
  while (at >= 0) {
    let end = at + 1;
    for (;;) {
      const quote = text.indexOf('"', end);
      if (quote < 0) return [];
      let backslashes = 0;
      while (text.charCodeAt(quote - 1 - backslashes) === 92) backslashes++;
      end = quote + 1;
      if (backslashes % 2 === 0) break;
    }
    if (end - at >= HUGE_STRING) found.push({ start: at, end, value: JSON.parse(text.slice(at, end)) as string });
    at = text.indexOf('"', end);
  }
  return found;
}

/**
 * The one-line double-quoted scalars of HUGE_STRING characters or more of a YAML `text`, found with yaml's own
 * lexer (so a quote inside a comment, a plain or a block scalar is not mistaken for one). Only a file with a line
 * that long can hold one, which is checked first; a multi-line or malformed one is left to yaml.
 */
function hugeYamlStrings(text: string): HugeString[] {
  let longLine = false;
  for (let from = 0; from < text.length; ) {
    const nl = text.indexOf("\n", from);
    const end = nl < 0 ? text.length : nl;
    if (end - from >= HUGE_STRING) {
      longLine = true;
      break;
    }
    from = end + 1;
  }
  if (!longLine) return [];
  const found: HugeString[] = [];
  const consider = (token: CST.Token | null | undefined) => {
    if (token?.type !== "double-quoted-scalar" || token.source.length < HUGE_STRING || /[\r\n]/.test(token.source)) return;
    const value = yamlDoubleQuoted(token.source);
    if (value !== undefined) found.push({ start: token.offset, end: token.offset + token.source.length, value });
  };
  for (const token of new Parser().parse(text)) {
    if (token.type !== "document") continue;
    // Values only: a key that long is an error yaml must still report (an implicit key is at most 1024 characters).
    CST.visit(token, (item) => consider(item.value));
  }
  return found.sort((a, b) => a.start - b.start);
}

/** YAML 1.2's escapes (§5.7) of a double-quoted scalar, and what they stand for. */
const YAML_ESCAPES: Readonly<Record<string, string>> = {
  "0": "\0", a: "\x07", b: "\b", t: "\t", "\t": "\t", n: "\n", v: "\v", f: "\f", r: "\r", e: "\x1b", " ": " ", '"': '"', "/": "/", "\\": "\\",
  N: "\u0085", _: "\u00a0", L: "\u2028", P: "\u2029",
};

/** The value of a one-line double-quoted YAML scalar (quotes included), or undefined if an escape is malformed. */
function yamlDoubleQuoted(source: string): string | undefined {
  let bad = false;
  const value = source.slice(1, -1).replace(/\\(x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|[^])/g, (_, e: string) => {
    if (e.length > 1) {
      const code = parseInt(e.slice(1), 16);
      if (code <= 0x10ffff) return String.fromCodePoint(code);
    } else if (e in YAML_ESCAPES) return YAML_ESCAPES[e]!;
    bad = true;
    return "";
  });
  return bad ? undefined : value;
}

/**
 * `text` with every string of `found` (in file order) replaced by a short placeholder, the placeholders' values, and
 * how to map an offset in the new text back to the file. undefined when there are none.
 */
function replaceHugeStrings(text: string, found: readonly HugeString[]): { text: string; prefix: string; values: Map<string, string>; original(offset: number): number } | undefined {
  if (found.length === 0) return undefined;
  // A prefix the file does not contain, so no string of the spec can pass for a placeholder.
  let prefix = "specforge-huge-string-";
  while (text.includes(prefix)) prefix += "x";
  const values = new Map<string, string>();
  const parts: string[] = [];
  /** [offset in the new text where a placeholder ends, characters removed up to there]. */
  const shifts: [number, number][] = [];
  let last = 0;
  let newLength = 0;
  let removed = 0;
  found.forEach(({ start, end, value }, k) => {
    const placeholder = `${prefix}${k}`;
    values.set(placeholder, value);
    parts.push(text.slice(last, start), JSON.stringify(placeholder));
    newLength += start - last + placeholder.length + 2;
    removed += end - start - (placeholder.length + 2);
    shifts.push([newLength, removed]);
    last = end;
  });
  parts.push(text.slice(last));
  return {
    text: parts.join(""),
    prefix,
    values,
    original(offset) {
      // The last placeholder ending at or before the offset says how much was removed before it.
      let lo = 0;
      let hi = shifts.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (shifts[mid]![0] <= offset) lo = mid + 1;
        else hi = mid;
      }
      return offset + (lo === 0 ? 0 : shifts[lo - 1]![1]);
    },
  };
}
