/**
 * One example per command, shown at the end of `specforge --help` (and so in docs/cli.md). A test fails when a
 * command has none, so a new command cannot ship without one.
 */
export const COMMAND_EXAMPLES: Readonly<Record<string, { readonly run: string; readonly does: string }>> = {
  generate: { run: "specforge generate", does: "generate every spec of specforge.config.json into its folder under generated/" },
  check: { run: "specforge check", does: "in CI: exit 1 with a diff when generated/ is not what generate would write" },
  inspect: { run: "specforge inspect specs/content.proto --ir", does: "print the intermediate representation of a spec as JSON" },
  init: { run: "specforge init", does: "write specforge.config.json listing the specs found here and in specs/" },
  convert: {
    run: "specforge convert specs/content.proto --type contentApi.Response --from binary --to json < page.pb",
    does: "convert one protobuf payload on stdin to ProtoJSON on stdout",
  },
  mock: {
    run: "specforge mock specs/webhooks.openapi.yaml --port 4010",
    does: "serve every operation of the spec with its examples or generated values, validating requests",
  },
  help: { run: "specforge help generate", does: "print every option of one command (as specforge generate --help does)" },
};

/** The "Examples:" section: each command's line, then what it does, indented under it. */
export function examplesHelp(commands: readonly string[]): string {
  const lines = ["", "Examples:"];
  for (const name of commands) {
    const example = COMMAND_EXAMPLES[name];
    if (!example) continue;
    lines.push(`  $ ${example.run}`, `      ${example.does}`);
  }
  return lines.join("\n") + "\n";
}
