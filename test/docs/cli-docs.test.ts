import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { CLI_DOC, renderCliReference } from "../../scripts/docs-cli.js";

/** docs/cli.md is generated from the CLI's help; a changed flag or description without `npm run docs:cli` fails. */
describe("docs/cli.md", () => {
  it("matches `specforge <command> --help` (run `npm run docs:cli` to refresh it)", () => {
    expect(readFileSync(CLI_DOC, "utf8")).toBe(renderCliReference());
  });

  it("documents every command, convert included", () => {
    const text = readFileSync(CLI_DOC, "utf8");
    for (const command of ["generate", "check", "inspect", "convert"]) expect(text).toContain(`## specforge ${command}\n`);
  });
});
