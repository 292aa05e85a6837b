import { TEXT_MEMORY_WASM } from "./text-memory-wasm.js";

/**
 * The document being read, copied once into WebAssembly memory as UTF-16 code units (with Node's
 * `Buffer.prototype.ucs2Write`, which works on any Uint8Array, found by feature detection as utf8.ts does), for two
 * jobs the engine does slowly from JavaScript (text-memory.wat):
 *
 * - Forbidden characters: one SIMD pass over the copy, exact (control characters, U+FFFE, U+FFFF), where
 *   checkForbiddenChars otherwise searches for each of its 31 characters in turn over the whole text (42-55 us for
 *   the 117,000-character SOAP response of the bench, against about 25 us for the copy and the pass).
 * - Known tags: the pull reader compares an end tag and the next start tag (see KnownTag.paired) with the copy,
 *   against a copy of the pair kept in the memory's pattern area: 10 ns for a 28-character pair in a micro-benchmark,
 *   against 65 ns comparing substrings in pieces of up to 12 characters (a longer one V8 compares through its
 *   runtime). Over the whole bench decode: x1.22.
 *
 * Only one document is resident at a time: the last one scanned, if it fitted (DEFAULT_MAX_RESIDENT units). A
 * reader checks that its text is still the resident one before each comparison (another document may have been read
 * since: a decoder calling another), and compares by substrings otherwise. Without Buffer or WebAssembly SIMD (browsers, a
 * content security policy that forbids compiling) nothing is resident and the callers do what they did before.
 */

/** Bytes at the start of the memory for patterns; the document follows. */
const PATTERN_AREA = 65536;
/** Longest document kept resident (code units; twice that in bytes). Longer ones are scanned in chunks of this size. */
const DEFAULT_MAX_RESIDENT = 4 * 1024 * 1024;
/** Bytes kept readable past any range the module reads (it reads whole 16- and 32-byte blocks). */
const SLACK = 32;

interface TextMemory {
  readonly memory: WebAssembly.Memory;
  /** A view of the whole memory (made again when it grows). */
  bytes: Uint8Array;
  readonly write: (this: Uint8Array, text: string, offset: number, length: number) => number;
  readonly hasForbidden: (start: number, end: number) => number;
  readonly equal: (a: number, b: number, length: number) => number;
  /** Bytes of the pattern area in use. */
  patternsEnd: number;
  readonly patterns: Map<string, number>;
  readonly maxResident: number;
}

/** undefined: not tried yet; null: not available here. */
let state: TextMemory | null | undefined;
/** The text whose code units are at PATTERN_AREA, or undefined. */
let resident: string | undefined;

function load(maxResident = DEFAULT_MAX_RESIDENT): TextMemory | null {
  const write = (globalThis as { Buffer?: { prototype?: { ucs2Write?: unknown } } }).Buffer?.prototype?.ucs2Write;
  if (typeof write !== "function" || typeof WebAssembly !== "object") return null;
  try {
    const instance = new WebAssembly.Instance(new WebAssembly.Module(TEXT_MEMORY_WASM));
    const { memory, hasForbidden, equal } = instance.exports as {
      memory: WebAssembly.Memory;
      hasForbidden: TextMemory["hasForbidden"];
      equal: TextMemory["equal"];
    };
    return { memory, bytes: new Uint8Array(memory.buffer), write: write as TextMemory["write"], hasForbidden, equal, patternsEnd: 0, patterns: new Map(), maxResident };
  } catch {
    // An engine without SIMD, a policy that forbids compiling WebAssembly (CSP), or memory the engine refuses to
    // reserve (an address-space limit: V8 reserves several GiB of guard region per memory). Everything runs the
    // plain path then, silently: the memory only makes two checks faster.
    return null;
  }
}

function textMemory(): TextMemory | null {
  if (state === undefined) state = load();
  return state;
}

/**
 * Room for `units` code units after the pattern area, growing the memory when needed. False when the memory cannot
 * grow (the engine refuses: an address-space limit such as `ulimit -v`, a memory cap): the memory is then given up
 * for good and everything runs the plain path, which gives the same answers.
 */
function reserve(m: TextMemory, units: number): boolean {
  const needed = PATTERN_AREA + 2 * units + SLACK;
  if (m.bytes.length >= needed) return true;
  try {
    m.memory.grow(Math.ceil((needed - m.bytes.length) / 65536));
    m.bytes = new Uint8Array(m.memory.buffer);
    return true;
  } catch {
    state = null;
    resident = undefined;
    return false;
  }
}

/** Copy text[start, start + units) to the document area, padded; returns the end of its bytes. */
function copy(m: TextMemory, text: string, start: number, units: number): number {
  const whole = start === 0 && units === text.length;
  const written = m.write.call(m.bytes, whole ? text : text.substring(start, start + units), PATTERN_AREA, 2 * units);
  const end = PATTERN_AREA + written;
  m.bytes.fill(0x20, end, PATTERN_AREA + ((written + SLACK - 1) & ~(SLACK - 1)) + SLACK);
  return end;
}

/**
 * Whether `text` holds a character XML 1.0 cannot carry (a C0 control other than TAB, LF and CR, U+FFFE or
 * U+FFFF), exactly; undefined when the memory is not available here. Leaves `text` resident when it fits.
 */
export function scanForbidden(text: string): boolean | undefined {
  const m = textMemory();
  if (m === null) return undefined;
  resident = undefined;
  if (text.length <= m.maxResident) {
    if (!reserve(m, text.length)) return undefined;
    const end = copy(m, text, 0, text.length);
    resident = text;
    return m.hasForbidden(PATTERN_AREA, end) !== 0;
  }
  if (!reserve(m, m.maxResident)) return undefined;
  for (let start = 0; start < text.length; start += m.maxResident) {
    const end = copy(m, text, start, Math.min(m.maxResident, text.length - start));
    if (m.hasForbidden(PATTERN_AREA, end) !== 0) return true;
  }
  return false;
}

/** Whether `text` is the resident document (the comparisons below then read it). */
export function isResident(text: string): boolean {
  return resident === text;
}

/**
 * Where `pattern` is kept in the memory (the same place for the same text), or -1: no memory here, or the pattern
 * area is full (every document-specific pattern made by the readers is bounded, so it fills only in a process
 * reading many different kinds of documents; they are compared by substrings then).
 */
export function patternOffset(pattern: string): number {
  const m = textMemory();
  if (m === null) return -1;
  const known = m.patterns.get(pattern);
  if (known !== undefined) return known;
  const size = (2 * pattern.length + 15) & ~15;
  if (m.patternsEnd + size + 16 > PATTERN_AREA) return -1;
  const offset = m.patternsEnd;
  m.write.call(m.bytes, pattern, offset, 2 * pattern.length);
  m.patternsEnd += size;
  m.patterns.set(pattern, offset);
  return offset;
}

/**
 * Whether the resident document holds the pattern at `offset` (from patternOffset) of `length` code units from
 * code unit `at`. The caller has checked isResident and that at + length is within the document.
 */
export function residentHolds(at: number, offset: number, length: number): boolean {
  return state!.equal(PATTERN_AREA + 2 * at, offset, 2 * length) !== 0;
}

/** For tests: how many patterns are kept. */
export function keptPatternsForTests(): number {
  return state ? state.patterns.size : 0;
}

/**
 * For tests: start afresh (no patterns, nothing resident), with `maxResident` code units kept resident at most, or
 * with no memory at all (`available` false) to exercise what runs without it.
 */
export function resetTextMemoryForTests(options: { available?: boolean; maxResident?: number } = {}): void {
  resident = undefined;
  state = options.available === false ? null : load(options.maxResident);
}
