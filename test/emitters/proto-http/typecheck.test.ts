import { describe, expect, it } from "vitest";
import { typecheckFiles } from "../../helpers/typecheck.js";
import { CONTENT_PROTO, GREETER_PROTO, HEALTH_PROTO } from "./emit.helpers.js";
import { generateToTemp } from "./generate-temp.js";

describe("generated feed.ts and connect.ts", () => {
  it("type-check under strict with the other proto artifacts (content, health, greeter in one program)", () => {
    const outputs = [CONTENT_PROTO, HEALTH_PROTO, GREETER_PROTO].map(generateToTemp);
    try {
      const files = new Map(outputs.flatMap((o) => [...o.files]));
      for (const want of ["content/feed.ts", "health/connect.ts", "greeter/feed.ts", "greeter/connect.ts"]) {
        expect(files.has(want), want).toBe(true);
      }
      // Only the generated files are under test here; the runtime they import is checked by tsc on the project.
      const generatedErrors = typecheckFiles(files).filter((d) => !d.startsWith(".."));
      expect(generatedErrors).toEqual([]);
    } finally {
      for (const o of outputs) o.remove();
    }
  });
});
