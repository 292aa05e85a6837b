/**
 * The agreement check of one list of documents: for each, the walk finds the examples the list says, and every
 * example and variant gets the same verdict from the generated validator and from ajv, or a disagreement one of the
 * deliberate differences (differences.ts, docs/validators.md) explains; the differences a document shows must be
 * exactly those listed for it. A document that is a known gap must still fail where the list says.
 */
import path from "node:path";
import { expect, it } from "vitest";
import type { Loc } from "../../src/parsers/openapi/files.js";
import { nodeSpecHost } from "../../src/parsers/host.js";
import { loadSpec } from "../../src/pipeline/load-spec.js";
import { SHARED } from "../helpers/seeds.js";
import type { Adjustment } from "./ajv-reference.js";
import { collectExamples, type CollectedExamples, type FoundExample } from "./collect-examples.js";
import { compareExamples } from "./compare.js";
import { DIFFERENCES } from "./differences.js";
import type { DocumentCase } from "./documents.js";
import { generatedValidators, type Validators } from "./generated-validators.js";

export const CORPUS = path.join(SHARED, "corpus/openapi");
export const ADJUSTMENTS = Object.keys(DIFFERENCES) as Adjustment[];

function where(loc: Loc): string {
  const p = loc.file.locate(loc.pointer);
  return `${path.relative(CORPUS, loc.file.path)}:${p.line}:${p.column}`;
}

/** Register the tests of `documents` in the current describe block. */
export function agreementTests(documents: readonly DocumentCase[]): void {
  for (const doc of documents) {
    const file = path.join(CORPUS, doc.file);
    const host = nodeSpecHost({ cwd: CORPUS, includeDirs: [] });

    // Collected once per document: Stripe's 4 MB takes seconds to read with positions.
    let memo: CollectedExamples | undefined;
    const collect = () => (memo ??= collectExamples(file, host));

    it(`${doc.file}: finds ${doc.examples} example(s)`, () => {
      const collected = collect();
      expect(collected.examples.length).toBe(doc.examples);
      expect(collected.examples.filter((e) => !e.schema).length).toBe(doc.withoutSchema ?? 0);
      expect(collected.skipped.length, collected.skipped.map((s) => `${where(s.at)} ${s.reason}`).join("\n")).toBe(doc.skipped ?? 0);
    });

    if (doc.gap) {
      it(`${doc.file} (known gap: ${doc.gap.reason})`, () => {
        expect(() => loadSpec(file, host)).toThrow(doc.gap!.error);
      });
      continue;
    }

    it(`${doc.file}: every example and variant gets the same verdict from ours and ajv`, async () => {
      const collected = collect();
      const withSchema = collected.examples.filter((e): e is FoundExample & { schema: Loc } => e.schema !== undefined);
      const seen = new Set<Adjustment>();
      const expected = ADJUSTMENTS.filter((a) => DIFFERENCES[a].seenIn.includes(doc.file));
      if (withSchema.length === 0) {
        expect(expected, "differences listed for a document without examples").toEqual([]);
        return;
      }

      let validators: Validators | undefined;
      try {
        validators = await generatedValidators(loadSpec(file, host), file, collected.files, withSchema, doc.file);
        expect(validators.renamed, "the probe records must not rename the document's own types").toEqual([]);
        const unmapped = withSchema.filter((e) => !validators!.checkFor(e)).map((e) => `${where(e.at)} (schema ${e.schema.pointer})`);
        expect(unmapped, "examples whose place no generated validator covers").toEqual([]);

        const outcome = compareExamples(collected, withSchema, (e) => validators!.checkFor(e)!, ADJUSTMENTS, CORPUS);
        for (const a of outcome.shown) seen.add(a);
        expect(outcome.inconsistent, "is<T> and validate<T> disagree with each other").toEqual([]);
        expect(outcome.unexplained, "disagreements no difference in docs/validators.md explains").toEqual([]);
        // The variants must probe constraints, or agreeing on them says little.
        expect(outcome.bothInvalid).toBeGreaterThan(withSchema.length);
        expect([...seen].sort(), "the differences this document shows (DIFFERENCES in differences.ts)").toEqual(expected.sort());
      } finally {
        validators?.dispose();
      }
      // DigitalOcean (2,034 files, 1,969 examples, 24,066 values compared) took about 40 s here.
    }, 300_000);
  }
}
