import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { parseXml, XmlParseError, XmlPullReader } from "../../../src/runtime/index.js";
import { isResident, keptPatternsForTests, patternOffset, residentHolds, resetTextMemoryForTests, scanForbidden } from "../../../src/runtime/xml/text-memory.js";
import { TEXT_MEMORY_WASM } from "../../../src/runtime/xml/text-memory-wasm.js";
import { assembleWat } from "../../../scripts/lib/assemble-wat.js";
import { account, accountCodecs, accountList, USUAL_ACCOUNT } from "../../helpers/xml-accounts.js";

/** The code units XML 1.0 forbids: the C0 controls but TAB, LF and CR, and U+FFFE, U+FFFF. */
const FORBIDDEN = [...Array.from({ length: 0x20 }, (_, c) => c).filter((c) => c !== 0x09 && c !== 0x0a && c !== 0x0d), 0xfffe, 0xffff];

function holdsForbidden(text: string): boolean {
  return FORBIDDEN.some((c) => text.includes(String.fromCharCode(c)));
}

/** A small deterministic generator (the same texts on every run). */
function randomFrom(seed: number): (n: number) => number {
  let s = seed;
  return (n) => {
    s = (s * 1103515245 + 12345) >>> 0;
    return s % n;
  };
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

afterEach(() => {
  vi.restoreAllMocks();
  resetTextMemoryForTests();
});

describe("text memory (WebAssembly SIMD)", () => {
  it("is text-memory.wat assembled by WABT (npm run wasm:text-memory rewrites it)", async () => {
    const assembled = await assembleWat(path.resolve(import.meta.dirname, "../../../src/runtime/xml/text-memory.wat"));
    expect(Array.from(TEXT_MEMORY_WASM)).toEqual(Array.from(assembled));
  });

  it("is available on Node, and leaves the text it scanned resident", () => {
    const text = "<a>x</a>";
    expect(scanForbidden(text)).toBe(false);
    expect(isResident(text)).toBe(true);
    expect(isResident("<a>x</a> ")).toBe(false);
  });

  it("tells every code unit XML forbids from every one it allows", () => {
    for (let c = 0; c < 0x10000; c++) {
      const text = `ab${String.fromCharCode(c)}cd`;
      if (scanForbidden(text) !== FORBIDDEN.includes(c)) throw new Error(`wrong verdict for U+${c.toString(16)}`);
    }
  });

  it("finds a forbidden unit at every position of a 16-unit round, resident or scanned in chunks", () => {
    for (const maxResident of [undefined, 40]) {
      resetTextMemoryForTests({ maxResident });
      for (const length of [1, 15, 16, 17, 31, 32, 33, 40, 41, 100, 1000]) {
        const clean = "a\tb\nc\r\u00e9\u4e2d".repeat(Math.ceil(length / 8)).slice(0, length);
        expect(scanForbidden(clean)).toBe(false);
        expect(isResident(clean)).toBe(maxResident === undefined || length <= maxResident);
        for (let at = 0; at < length; at++) {
          for (const c of [0x00, 0x08, 0x0b, 0x1f, 0xffff]) {
            const text = clean.slice(0, at) + String.fromCharCode(c) + clean.slice(at + 1);
            if (scanForbidden(text) !== true) throw new Error(`missed U+${c.toString(16)} at ${at} of ${length} (max ${maxResident})`);
          }
        }
      }
    }
  });

  it("leaves no units of a longer text behind for a shorter one", () => {
    expect(scanForbidden(`${"x".repeat(40)}\u0001${"y".repeat(40)}`)).toBe(true);
    expect(scanForbidden("x".repeat(40))).toBe(false);
    expect(scanForbidden("")).toBe(false);
  });

  it("agrees with a character search on random texts", () => {
    const random = randomFrom(12345);
    const alphabet = ["a", "<", "&", " ", "\t", "\n", "\r", "\u00e9", "\u0101", "\u4e2d", "\ud83d\ude00", "\ud800", "\ufffd", "\u0001", "\u001f", "\ufffe", "\uffff"];
    for (let round = 0; round < 500; round++) {
      const pieces: string[] = [];
      const length = random(300);
      // Mostly clean texts: a forbidden unit in one of every few.
      for (let i = 0; i < length; i++) pieces.push(alphabet[random(random(8) === 0 ? alphabet.length : alphabet.length - 4)]!);
      const text = pieces.join("");
      expect(scanForbidden(text)).toBe(holdsForbidden(text));
    }
  });

  it("compares the resident text with kept patterns, as a substring comparison would", () => {
    const random = randomFrom(777);
    const letters = "<>/:abAB\u00e9\u4e2d";
    const text = Array.from({ length: 3000 }, () => letters[random(letters.length)]).join("");
    expect(scanForbidden(text)).toBe(false);
    for (let round = 0; round < 3000; round++) {
      // A fresh pattern area every 200 patterns (it holds a few hundred of these).
      if (round % 200 === 0) {
        resetTextMemoryForTests();
        scanForbidden(text);
      }
      const at = random(text.length);
      const length = 1 + random(Math.min(70, text.length - at));
      // Half the time the text's own units (equal), else with one unit changed (unequal).
      let pattern = text.slice(at, at + length);
      if (random(2) === 0) {
        const k = random(length);
        pattern = pattern.slice(0, k) + (pattern[k] === "a" ? "b" : "a") + pattern.slice(k + 1);
      }
      const offset = patternOffset(pattern);
      expect(offset).toBeGreaterThanOrEqual(0);
      expect(patternOffset(pattern)).toBe(offset);
      expect(residentHolds(at, offset, length)).toBe(text.startsWith(pattern, at));
    }
  });

  it("refuses more patterns than its area holds (the readers then compare by substrings)", () => {
    let offset = 0;
    let made = 0;
    while (offset >= 0 && made < 10000) offset = patternOffset(`<pattern-${made++}-${"x".repeat(40)}>`);
    expect(offset).toBe(-1);
    expect(made).toBeGreaterThan(100);
    expect(made).toBeLessThan(10000);
  });

  it("gives the same errors, with the same line:column, with the memory and without it", () => {
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
    const withMemory = documents.map(outcome);
    resetTextMemoryForTests({ available: false });
    expect(scanForbidden("<r/>")).toBeUndefined();
    expect(documents.map(outcome)).toEqual(withMemory);
    expect(withMemory).toEqual([
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

describe("the pull reader with the text memory", () => {
  const usual = USUAL_ACCOUNT;
  const list = accountList;
  const decode = (xml: string): unknown => {
    try {
      return { value: accountCodecs().fromXml(xml) };
    } catch (e) {
      return { error: String(e) };
    }
  };
  const documents = [
    list(usual, usual, usual),
    list(usual, usual, account("t:subrecordOfTheAccounX"), usual),
    list(usual, usual, account("t:Xubrecord"), usual),
    list(usual, usual, account("t:subrecordOfTheAccount", "t:billingCountryNamX")),
    // The pair would run past the end of the document: not compared with whatever the memory holds there.
    `${list(usual, usual)}`.slice(0, -100),
  ];

  it("reads what it reads without the memory, when another document becomes resident in the middle of a decode", () => {
    resetTextMemoryForTests({ available: false });
    const expected = documents.map(decode);
    resetTextMemoryForTests();
    expect(documents.map(decode)).toEqual(expected);
    // Before every child read whole, another text is made resident: the same document with the expected names in
    // place of the unexpected ones (same lengths), so that comparing with it would wrongly succeed. The reader must
    // notice that its text is not the resident one and compare by substrings.
    const plain = XmlPullReader.prototype.plainChild;
    let other = 0;
    vi.spyOn(XmlPullReader.prototype, "plainChild").mockImplementation(function (this: XmlPullReader, ...args) {
      const expectedNames = this.src.replace(/t:subrecordOfTheAccounX|t:Xubrecord(?=>)|t:billingCountryNamX/g, (name) =>
        name === "t:billingCountryNamX" ? "t:billingCountryName" : name === "t:Xubrecord" ? "t:subrecord" : "t:subrecordOfTheAccount",
      );
      scanForbidden(`${expectedNames}<!--${other++}-->`);
      return plain.apply(this, args);
    });
    expect(documents.map(decode)).toEqual(expected);
    expect(other).toBeGreaterThan(10);
  });

  it("keeps the pairs it compares in the memory", () => {
    expect(keptPatternsForTests()).toBe(0);
    expect(decode(list(usual, usual, usual))).toMatchObject({ value: { account: [{}, {}, {}] } });
    // </t:billingCountryName><t:subrecordOfTheAccount> (and the sub record's own pairs, if any).
    expect(keptPatternsForTests()).toBeGreaterThanOrEqual(1);
  });
});
