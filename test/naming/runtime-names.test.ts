import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { RUNTIME_NAMES_FILE, runtimeExportNames, runtimeNamesSource } from "../../scripts/lib/runtime-exports.js";

describe("src/naming/runtime-names.ts", () => {
  it("lists exactly what specforge/runtime exports (run `npm run names:runtime` after changing the runtime)", () => {
    const names = runtimeExportNames();
    expect(names).toContain("ValidationError");
    expect(names).toContain("RestClientOptions"); // type-only exports count: generated files import them too
    expect(readFileSync(RUNTIME_NAMES_FILE, "utf8")).toBe(runtimeNamesSource(names));
  });
});
