import { CONTROL_SCAN_WASM } from "./control-scan-wasm.js";

/**
 * A fast first look for the characters XML cannot carry: whether a text holds a C0 control character other than
 * TAB, LF and CR, in one pass of WebAssembly SIMD over its characters copied out as bytes (control-scan.wat).
 * checkForbiddenChars otherwise searches for each of those 29 characters in turn, one native search each over the
 * whole text: about 45 us for a 118,000-character SOAP response, some 7% of decoding it, against about 18 us here.
 *
 * The characters are copied with Node's `Buffer.prototype.latin1Write` (which works on any Uint8Array, found by
 * feature detection as utf8.ts does): a straight copy of a one-byte string. A character above U+00FF is written as
 * its low byte, so a text with such characters may get a false "yes" (U+0101 reads as 0x01), never a false "no":
 * a control character is its own byte. A "yes" is only a reason to look properly.
 */

/** Bytes scanned per call: the module's memory (2 pages of 64 KiB) less the padding after the last one. */
const CHUNK = 2 * 65536 - 32;

interface Scanner {
  readonly bytes: Uint8Array;
  readonly write: (this: Uint8Array, text: string, offset: number, length: number) => number;
  readonly hasControl: (length: number) => number;
}

/** undefined: not tried yet; null: not available here (no Buffer, no WebAssembly SIMD, or compiling it refused). */
let scanner: Scanner | null | undefined;

function makeScanner(): Scanner | null {
  const write = (globalThis as { Buffer?: { prototype?: { latin1Write?: unknown } } }).Buffer?.prototype?.latin1Write;
  if (typeof write !== "function" || typeof WebAssembly !== "object") return null;
  try {
    const instance = new WebAssembly.Instance(new WebAssembly.Module(CONTROL_SCAN_WASM));
    const { memory, hasControl } = instance.exports as { memory: WebAssembly.Memory; hasControl: (length: number) => number };
    return { bytes: new Uint8Array(memory.buffer), write: write as Scanner["write"], hasControl };
  } catch {
    // An engine without SIMD, or a content security policy that forbids compiling WebAssembly.
    return null;
  }
}

/**
 * False when `text` surely holds no C0 control character other than TAB, LF and CR; true when it may (look with
 * indexOf to be sure, and to find where); undefined when the scan is not available here.
 */
export function mayHoldControlChars(text: string): boolean | undefined {
  if (scanner === undefined) scanner = makeScanner();
  if (scanner === null) return undefined;
  const { bytes, write, hasControl } = scanner;
  for (let start = 0; start < text.length; start += CHUNK) {
    const length = Math.min(CHUNK, text.length - start);
    const written = write.call(bytes, start === 0 && length === text.length ? text : text.substring(start, start + length), 0, length);
    // Spaces after the last byte, to the end of the last 32-byte block the scan reads.
    bytes.fill(0x20, written, (written + 31) & ~31);
    if (hasControl(written) !== 0) return true;
  }
  return false;
}

/** For tests: forget the scanner, or replace it with none (`available` false) to exercise the fallback. */
export function resetControlScanForTests(available = true): void {
  scanner = available ? undefined : null;
}
