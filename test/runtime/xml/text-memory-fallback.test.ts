/**
 * WebAssembly is optional (issue 32, item 4): when the text memory's instance cannot be created (memory refused
 * under an address-space limit, a content security policy that forbids compiling) or its memory cannot grow, XML is
 * read by the plain path, silently and with exactly the same results. And `specforge convert` of XML passes under a
 * 2 GiB `ulimit -v`, as the built bin.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { parseXml, XmlParseError, XmlPullReader } from "../../../src/runtime/index.js";
import { isResident, resetTextMemoryForTests, scanForbidden } from "../../../src/runtime/xml/text-memory.js";
import { REPO } from "../../helpers/seeds.js";
import { account, accountCodecs, accountList, USUAL_ACCOUNT } from "../../helpers/xml-accounts.js";

afterEach(() => {
  vi.restoreAllMocks();
  resetTextMemoryForTests();
});

/** What reading `xml` gives: the decoded value, or the error's message (never another kind of exception). */
function decoded(xml: string): { value?: unknown; error?: string } {
  try {
    return { value: accountCodecs().fromXml(xml) };
  } catch (e) {
    if (e instanceof XmlParseError) return { error: e.message };
    throw e;
  }
}

function pulled(xml: string): string {
  try {
    XmlPullReader.document(xml).drain();
    parseXml(xml);
    return "ok";
  } catch (e) {
    if (e instanceof XmlParseError) return e.message;
    throw e;
  }
}

// Documents larger than the memory's first pages (so reading them needs the memory to grow), with and without a
// character XML forbids, far from the start.
const big = accountList(...Array.from({ length: 20_000 }, () => USUAL_ACCOUNT));
const bigForbidden = accountList(...Array.from({ length: 20_000 }, (_, i) => (i === 15_000 ? account("t:subrecordOfTheAccount").replace(">x<", ">x\u0001<") : USUAL_ACCOUNT)));
const cases = [big, bigForbidden, accountList(USUAL_ACCOUNT), accountList(USUAL_ACCOUNT).replace(">x<", ">\uffff<")];

describe("text memory unavailable", () => {
  // What the plain path (no memory at all) gives for every case: the reference.
  const reference = () => {
    resetTextMemoryForTests({ available: false });
    const out = cases.map((c) => ({ decoded: decoded(c), pulled: pulled(c) }));
    resetTextMemoryForTests();
    return out;
  };

  it("the cases tell apart what they should (a forbidden character is an error, the rest decode)", () => {
    const ref = reference();
    expect(ref.map((r) => r.pulled === "ok")).toEqual([true, false, true, false]);
    expect(ref[1]!.decoded.error).toMatch(/not allowed in XML|forbidden|U\+0001/i);
    expect((ref[0]!.decoded.value as { account: unknown[] }).account).toHaveLength(20_000);
  });

  it("memory refused when the instance is created (RangeError: out of memory): the plain path, same results", () => {
    const ref = reference();
    vi.spyOn(WebAssembly, "Instance").mockImplementation(function refused(): never {
      throw new RangeError("WebAssembly.Instance(): Out of memory: Cannot allocate Wasm memory for new instance");
    });
    resetTextMemoryForTests();
    expect(scanForbidden("<a/>")).toBeUndefined();
    expect(cases.map((c) => ({ decoded: decoded(c), pulled: pulled(c) }))).toEqual(ref);
  });

  it("compiling forbidden (a content security policy): the plain path, same results", () => {
    const ref = reference();
    vi.spyOn(WebAssembly, "Module").mockImplementation(function forbidden(): never {
      throw new WebAssembly.CompileError("WebAssembly.Module(): Wasm code generation disallowed by embedder");
    });
    resetTextMemoryForTests();
    expect(cases.map((c) => ({ decoded: decoded(c), pulled: pulled(c) }))).toEqual(ref);
  });

  it("the memory refuses to grow: given up for good, the plain path, same results (no RangeError escapes)", () => {
    const ref = reference();
    resetTextMemoryForTests();
    // A small document still fits the memory as created.
    expect(scanForbidden("<a/>")).toBe(false);
    expect(isResident("<a/>")).toBe(true);
    const grow = vi.spyOn(WebAssembly.Memory.prototype, "grow").mockImplementation(function refused(): never {
      throw new RangeError("WebAssembly.Memory.grow(): Maximum memory size exceeded");
    });
    expect(cases.map((c) => ({ decoded: decoded(c), pulled: pulled(c) }))).toEqual(ref);
    expect(grow).toHaveBeenCalled();
    // Nothing is resident any more, and nothing is tried again.
    expect(isResident("<a/>")).toBe(false);
    expect(scanForbidden("<a/>")).toBeUndefined();
  });
});

describe("specforge convert under ulimit -v 2 GiB (the built bin)", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "specforge-ulimit-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const env = { ...process.env, SPECFORGE_CACHE_DIR: dir };
  const BIN = path.join(REPO, "bin", "specforge.js");
  const ARGS = `specs/partner.wsdl --type retrieve --from xml --to xml`;

  function run(input: string, limitKiB?: number) {
    const file = path.join(dir, `in-${Math.random().toString(36).slice(2)}.xml`);
    writeFileSync(file, input);
    const script = `${limitKiB === undefined ? "" : `ulimit -v ${limitKiB} || exit 99; `}"$NODE" "$BIN" convert ${ARGS} < "$IN"`;
    const r = spawnSync("bash", ["-c", script], { cwd: REPO, env: { ...env, NODE: process.execPath, BIN, IN: file }, timeout: 120_000, maxBuffer: 256 << 20 });
    return { code: r.status, out: r.stdout.toString(), err: r.stderr.toString() };
  }

  const retrieve = (ids: number, extra = "") =>
    `<retrieve xmlns="urn:partner.api.example"><fieldList>Id${extra}</fieldList><sObjectType>Account</sObjectType>${"<ids>aaaaaaaaaaaaaaaaaa</ids>".repeat(ids)}</retrieve>`;
  const payloads: [string, string][] = [
    ["small", retrieve(1)],
    ["8 MB (the memory would grow past its first pages)", retrieve(300_000)],
    ["a forbidden character 5 MB in", retrieve(200_000).replace("</retrieve>", "<ids>\u0001</ids></retrieve>")],
    ["not well-formed", retrieve(10).replace("</retrieve>", "")],
  ];

  for (const [name, payload] of payloads) {
    it(`${name}: the same answer as without the limit`, () => {
      const free = run(payload);
      const limited = run(payload, 2 * 1024 * 1024);
      expect(limited.code).not.toBe(99);
      expect({ code: limited.code, out: limited.out, err: limited.err }).toEqual({ code: free.code, out: free.out, err: free.err });
      expect(limited.err).not.toMatch(/internal error|RangeError|out of memory|^\s+at /im);
      if (free.code === 0) expect(free.out).toContain("<ns1:sObjectType>Account</ns1:sObjectType>");
      else expect(free.err).toMatch(/cannot read the xml input: .* at 1:\d+/);
    }, 240_000);
  }
});
