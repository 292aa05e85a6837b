import fc from "fast-check";
import { mkdirSync, mkdtempSync, readdirSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { elementCodecNames } from "../../../src/emitters/xml/element-names.js";
import { nodeSpecHost } from "../../../src/parsers/host.js";
import { generateSpec } from "../../../src/pipeline/generate-files.js";
import { SHARED } from "../../helpers/seeds.js";
import { arbitraries } from "./helpers/arbitraries.js";

/**
 * Every corpus WSDL that parses: generate into a temp folder, build sample values for each global element from the
 * IR, and check encode -> decode gives them back. (The corpus test already type-checks the generated code.)
 */
const CORPUS = path.join(SHARED, "corpus");
const WSDLS = readdirSync(path.join(CORPUS, "wsdl"))
  .filter((f) => f.endsWith(".wsdl"))
  .filter((f) => !["nodesoap-typeof_null_extend_check.wsdl", "strongsoap-xsi-type-readMetadata.wsdl"].includes(f))
  .concat(["cybersource/CyberSourceTransaction_1.26.wsdl"]);
const host = nodeSpecHost({ cwd: CORPUS, includeDirs: [] });
const out = mkdtempSync(path.join(os.tmpdir(), "specforge-corpus-xml-"));

describe("corpus WSDLs: sample messages of every element round-trip", () => {
  for (const rel of WSDLS) {
    it(rel, async () => {
      const spec = generateSpec({ file: path.join(CORPUS, "wsdl", rel), display: rel }, host);
      for (const f of spec.files) {
        mkdirSync(path.dirname(path.join(out, f.path)), { recursive: true });
        writeFileSync(path.join(out, f.path), f.content);
      }
      const mod = (await import(pathToFileURL(path.join(out, spec.dir, "xml.ts")).href)) as Record<string, (v: unknown) => unknown>;
      const names = elementCodecNames(spec.doc);
      const arbs = arbitraries(spec.doc, { maxDepth: 2 });
      let checked = 0;
      for (const el of spec.doc.elements) {
        const e = names.get(el.id)!;
        for (const value of fc.sample(arbs.element(el.id), { numRuns: 2, seed: 1 })) {
          const xml = mod[e.encode]!(value) as string;
          expect({ element: el.name.local, value: mod[e.decode]!(xml) }).toEqual({ element: el.name.local, value });
          checked++;
        }
      }
      expect(checked).toBe(spec.doc.elements.length * 2);
    });
  }
});
