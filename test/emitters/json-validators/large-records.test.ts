/**
 * Records of hundreds of properties (DocuSign's AccountSettingsInformation has 674, Google's contentwarehouse a record
 * of 535): TypeScript refuses to analyse one function that checks or writes them all ("The containing function or
 * module body is too large for control flow analysis"), so is<T>, validate<T> and encode<T>Json split them into
 * helpers of FIELDS_PER_FUNCTION properties. The split must not change a verdict, an issue or a byte of JSON.
 */
import { describe, expect, it } from "vitest";
import { FIELDS_PER_FUNCTION } from "../../../src/emitters/json-validators/records.js";
import { memorySpecHost } from "../../../src/parsers/host.js";
import { generateSpec } from "../../../src/pipeline/generate-files.js";
import { typecheckFiles } from "../../helpers/typecheck.js";
import { importWrittenModule } from "../../helpers/written-module.js";

const COUNT = 700;
/** Property i: a mix of shapes, so every kind of check and writer is in the chunks. */
function propertySchema(i: number): object {
  switch (i % 5) {
    case 0:
      return { type: "string", maxLength: 5 };
    case 1:
      return { type: "integer", minimum: 0 };
    case 2:
      return { $ref: "#/components/schemas/Meta" };
    case 3:
      return { type: "boolean", nullable: true };
    default:
      return { type: "array", items: { type: "string", format: "date" } };
  }
}
const name = (i: number) => `p${String(i).padStart(3, "0")}`;
const properties = Object.fromEntries(Array.from({ length: COUNT }, (_, i) => [name(i), propertySchema(i)]));
// Required properties on both sides of chunk boundaries, the first one after optional ones (the comma logic).
const required = [name(3), name(FIELDS_PER_FUNCTION), name(FIELDS_PER_FUNCTION * 3 + 1), name(COUNT - 1)];
const SPEC = JSON.stringify({
  openapi: "3.0.3",
  info: { title: "Large", version: "1" },
  paths: {},
  components: {
    schemas: {
      Meta: { type: "object", required: ["note"], properties: { note: { type: "string" } } },
      Settings: { type: "object", required, properties },
    },
  },
});

const out = generateSpec({ file: "/spec/large.json", display: "large.json" }, memorySpecHost({ "/spec/large.json": SPEC }));
const files = new Map(out.files.map((f) => [f.path, f.content]));

/** A valid value: every property set (a value of each shape). */
function valid(): Record<string, unknown> {
  const v: Record<string, unknown> = {};
  for (let i = 0; i < COUNT; i++) {
    v[name(i)] = [`s${i % 10}`, i, { note: `n${i}` }, i % 2 === 0 ? null : true, ["2024-01-31"]][i % 5];
  }
  return v;
}

describe("records with more properties than one function can analyse", () => {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const module = importWrittenModule<any>(files, "large/index.ts");

  it("type-checks strict", () => {
    expect(typecheckFiles(files)).toEqual([]);
  }, 120_000);

  it("splits the checks and the writer into helpers", () => {
    const chunks = Math.ceil(COUNT / FIELDS_PER_FUNCTION);
    expect(files.get("large/validate.ts")!.match(/^function isSettings\$\d+\(o: Record<string, unknown>\): boolean \{$/gm)).toHaveLength(chunks);
    expect(files.get("large/validate.ts")!.match(/^function collectSettings\$\d+\(o: Record<string, unknown>, path: string, issues: ValidationIssue\[\]\): void \{$/gm)).toHaveLength(chunks);
    expect(files.get("large/json.ts")!.match(/^function writeSettings\$\d+\(value: Settings, json: string\): string \{$/gm)).toHaveLength(chunks);
  });

  it("accepts a valid value and writes it as JSON.stringify does, in schema order", () => {
    const v = valid();
    expect(module().isSettings(v)).toBe(true);
    expect(module().validateSettings(v)).toEqual([]);
    expect(module().encodeSettingsJson(v)).toBe(JSON.stringify(v));
    // Only the required ones (no optional one before the first required: no leading comma).
    const few = Object.fromEntries(required.map((k) => [k, v[k]]));
    expect(module().encodeSettingsJson(few)).toBe(JSON.stringify(few));
    expect(module().decodeSettingsJson(JSON.stringify(few))).toEqual(few);
  });

  it("reports every issue, in whichever chunk it is", () => {
    const v = valid();
    v[name(5)] = "too long";
    v[name(FIELDS_PER_FUNCTION * 4 + 1)] = -1;
    v[name(COUNT - 6)] = ["31/01/2024"];
    delete v[name(FIELDS_PER_FUNCTION * 3 + 1)];
    expect(module().isSettings(v)).toBe(false);
    expect(module().validateSettings(v).map((i: { path: string; rule: string }) => `${i.path} ${i.rule}`)).toEqual([
      `/${name(5)} maxLength`,
      `/${name(FIELDS_PER_FUNCTION * 3 + 1)} required`,
      `/${name(FIELDS_PER_FUNCTION * 4 + 1)} minimum`,
      `/${name(COUNT - 6)}/0 format`,
    ]);
    // One failure alone, in the last chunk, still fails is<T>.
    const late = valid();
    late[name(COUNT - 3)] = { note: 1 };
    expect(module().isSettings(late)).toBe(false);
  });
});
