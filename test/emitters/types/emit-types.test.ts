import { describe, expect, it } from "vitest";
import { emitTypes } from "../../../src/emitters/types/emit-types.js";
import type { IrDocument } from "../../../src/ir/model.js";
import { assignNames } from "../../../src/naming/assign-names.js";
import { doc, enumType, field, record, ref, scalar } from "../../helpers/ir.js";

function typesOf(d: IrDocument, int64?: "bigint" | "string"): string {
  const text = emitTypes(d, assignNames(d), { dir: "t", source: "t.spec", int64 }).render();
  // Drop the header and the package doc so each case shows only its declarations.
  return text.slice(text.indexOf("*/\n\n") + 4);
}

describe("types emitter", () => {
  it("keeps required, optional, nullable and lists apart", () => {
    const d = doc([
      record("xsd:{p}SaveResult", [
        field("errors", ref("xsd:{p}Err"), { min: 0, max: "unbounded" }),
        field("id", scalar("string"), {}, { nullable: true }),
        field("ids", scalar("string"), { min: 1, max: "unbounded" }),
        field("to", scalar("string"), { min: 0, max: 100 }, { nullable: true }),
        field("note", scalar("string"), { min: 0 }),
      ]),
      record("xsd:{p}Err", [field("message", scalar("string"))]),
    ]);
    expect(typesOf(d)).toBe(`/** @generated from record xsd:{p}SaveResult */
export interface SaveResult {
  errors?: Err[];
  id: string | null;
  ids: [string, ...string[]];
  /**
   * @minItems 0
   * @maxItems 100
   */
  to?: (string | null)[];
  note?: string;
}

/** @generated from record xsd:{p}Err */
export interface Err {
  message: string;
}
`);
  });

  it("emits enums as a literal union plus a const list of values", () => {
    const d = doc([enumType("xsd:{p}Level", ["None", "Db"]), enumType("xsd:{p}Big", ["a", "b", "c", 'd"'])]);
    expect(typesOf(d)).toBe(`/** @generated from enum xsd:{p}Level */
export type Level = "None" | "Db";

/** The values of {@link Level}, in schema order. */
export const LevelValues = [
  "None",
  "Db",
] as const;

/** @generated from enum xsd:{p}Big */
export type Big =
  | "a"
  | "b"
  | "c"
  | "d\\"";

/** The values of {@link Big}, in schema order. */
export const BigValues = [
  "a",
  "b",
  "c",
  "d\\"",
] as const;
`);
  });

  it("turns an xsi:type family into a discriminated union with inherited fields first", () => {
    const d = doc([
      record("xsd:{p}Email", [field("subject", scalar("string"), {}, { nullable: true })]),
      record("xsd:{p}Single", [field("to", scalar("string"))], { base: { id: "xsd:{p}Email", derivation: "extension" } }),
      record("xsd:{p}Req", [field("messages", ref("xsd:{p}Email"), { min: 0, max: 10 })]),
    ]);
    const out = typesOf(d);
    expect(out).toContain(`export interface Email {
  /** The XML Schema type of this value, written as xsi:type when it differs from the declared type. */
  $type?: "Email";
  subject: string | null;
}`);
    expect(out).toContain(`export interface Single {
  /** The XML Schema type of this value, written as xsi:type when it differs from the declared type. */
  $type: "Single";
  subject: string | null;
  to: string;
}`);
    expect(out).toContain("export type AnyEmail = Email | Single;");
    expect(out).toContain("  messages?: AnyEmail[];");
  });

  it("maps 64-bit integers to bigint by default and to string on request, bytes to Uint8Array", () => {
    const d = doc([record("proto:.p.M", [field("id", scalar("int64")), field("data", scalar("bytes"), { min: 0 })])], { format: "proto" });
    expect(typesOf(d)).toContain("  id: bigint;\n  data?: Uint8Array;");
    expect(typesOf(d, "string")).toContain("  id: string;");
  });

  it("emits a oneof as a union discriminated by case", () => {
    const d = doc([
      record("proto:.p.M", [
        { kind: "group", compositor: "choice", oneofName: "kind", occurs: { min: 0, max: 1 }, origin: doc([]).types[0]?.origin ?? { file: "t", line: 1, column: 1, pointer: "", construct: "" },
          members: [field("text", scalar("string"), { min: 0 }), field("num", scalar("int32"), { min: 0 })] },
      ]),
    ], { format: "proto" });
    expect(typesOf(d)).toContain(`  /** One of (oneof kind): the case names the field that is set. */
  kind?:
    | { case: "text"; value: string }
    | { case: "num"; value: number };`);
  });

  it("quotes property names that are not identifiers and escapes hostile documentation", () => {
    const d = doc([record("xsd:{p}X", [field("mime-type", scalar("string"), {}, { doc: "ends */ here" }), field("__proto__", scalar("any"))])]);
    const out = typesOf(d);
    expect(out).toContain('  /** ends *\\/ here */\n  "mime-type": string;');
    expect(out).toContain("  __proto__: unknown;");
  });
});
