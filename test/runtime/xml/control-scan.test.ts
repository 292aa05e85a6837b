import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { parseXml, XmlParseError, XmlPullReader } from "../../../src/runtime/index.js";
import { mayHoldControlChars, resetControlScanForTests } from "../../../src/runtime/xml/control-scan.js";
import { CONTROL_SCAN_WASM } from "../../../src/runtime/xml/control-scan-wasm.js";
import { assembleWat } from "../../../scripts/lib/assemble-wat.js";

/** The C0 controls XML 1.0 forbids (all but TAB, LF and CR). */
const CONTROLS = Array.from({ length: 0x20 }, (_, c) => c).filter((c) => c !== 0x09 && c !== 0x0a && c !== 0x0d);
/** Characters per call of the scan (its memory less the padding); texts around it cross chunk boundaries. */
const CHUNK = 2 * 65536 - 32;

/** What the scan must agree with: the text holds a forbidden control character. */
function holdsControl(text: string): boolean {
  return CONTROLS.some((c) => text.includes(String.fromCharCode(c)));
}

/** The outcome of reading `text` whole, through both readers (which must agree). */
function outcome(text: string): string {
  const read = (run: () => unknown): string => {
    try {
      run();
      return "ok";
    } catch (e) {
      if (e instanceof XmlParseError) return e.message;
      throw e;
    }
  };
  const pulled = read(() => XmlPullReader.document(text).drain());
  expect(read(() => parseXml(text))).toBe(pulled);
  return pulled;
}

afterEach(() => resetControlScanForTests());

describe("control-character scan (WebAssembly SIMD)", () => {
  it("is control-scan.wat assembled by WABT (npm run wasm:control-scan rewrites it)", async () => {
    const assembled = await assembleWat(path.resolve(import.meta.dirname, "../../../src/runtime/xml/control-scan.wat"));
    expect(Array.from(CONTROL_SCAN_WASM)).toEqual(Array.from(assembled));
  });

  it("is available on Node", () => {
    expect(mayHoldControlChars("<a/>")).toBe(false);
  });

  it("finds every forbidden control character at every position of a 32-byte block and across chunks", () => {
    const lengths = [1, 15, 16, 17, 31, 32, 33, 64, 100, CHUNK - 1, CHUNK, CHUNK + 1, 2 * CHUNK + 5];
    for (const length of lengths) {
      const clean = "a\tb\nc\r d".repeat(Math.ceil(length / 8)).slice(0, length);
      expect(mayHoldControlChars(clean)).toBe(false);
      const positions = new Set([0, 1, 15, 16, 31, length - 1, Math.floor(length / 2), CHUNK - 1, CHUNK, CHUNK + 1].filter((p) => p >= 0 && p < length));
      for (const at of positions) {
        for (const c of CONTROLS) {
          const text = clean.slice(0, at) + String.fromCharCode(c) + clean.slice(at + 1);
          if (mayHoldControlChars(text) !== true) throw new Error(`missed U+${c.toString(16)} at ${at} of ${length}`);
        }
      }
    }
  });

  it("leaves no bytes of a longer text behind for a shorter one", () => {
    expect(mayHoldControlChars(`${"x".repeat(40)}\u0001${"y".repeat(40)}`)).toBe(true);
    expect(mayHoldControlChars("x".repeat(40))).toBe(false);
    expect(mayHoldControlChars("")).toBe(false);
  });

  it("agrees with a character search on random one-byte and two-byte texts (never a false 'no')", () => {
    let seed = 12345;
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) >>> 0;
      return seed % n;
    };
    const alphabet = ["a", "<", "&", " ", "\t", "\n", "\r", "\u00e9", "\u00ff", "\u0101", "\u4e2d", "\ud83d\ude00", "\u0001", "\u001f", "\u000b"];
    for (let round = 0; round < 400; round++) {
      const pieces: string[] = [];
      const length = random(300);
      // Mostly clean texts: a control character in one of every few.
      for (let i = 0; i < length; i++) pieces.push(alphabet[random(random(8) === 0 ? alphabet.length : alphabet.length - 3)]!);
      const text = pieces.join("");
      const verdict = mayHoldControlChars(text);
      if (holdsControl(text)) expect(verdict).toBe(true);
      // Without characters above U+00FF the copy is exact: the answer is exact too.
      else if (!/[^\u0000-\u00ff]/.test(text)) expect(verdict).toBe(false);
    }
  });

  it("gives the same errors, with the same line:column, with the scan and without it", () => {
    const documents = [
      "<r>\u0001</r>",
      "<r>\n  <a>ok</a>\n  <b>x\u001fy</b>\n</r>",
      "<r a='\u000b'/>",
      "<r>\u0101\u0001</r>",
      "<r>\u0101</r>",
      "<r>\uffff</r>",
      "<r>\ufffe\u0002</r>",
      `<r>${"<a>\u00e9\t</a>".repeat(20000)}\u0008</r>`,
      `<r>${"<a>text</a>".repeat(20000)}</r>`,
    ];
    const withScan = documents.map(outcome);
    resetControlScanForTests(false);
    expect(mayHoldControlChars("<r/>")).toBeUndefined();
    expect(documents.map(outcome)).toEqual(withScan);
    expect(withScan).toEqual([
      "character U+0001 is not allowed in XML at 1:4",
      "character U+001f is not allowed in XML at 3:7",
      "character U+000b is not allowed in XML at 1:7",
      "character U+0001 is not allowed in XML at 1:5",
      "ok",
      "character U+ffff is not allowed in XML at 1:4",
      "character U+fffe is not allowed in XML at 1:4",
      `character U+0008 is not allowed in XML at 1:${4 + 20000 * "<a>\u00e9\t</a>".length}`,
      "ok",
    ]);
  });
});
