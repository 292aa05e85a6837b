import { Command } from "commander";
import { initConfig } from "../../config/init.js";
import { addTableOptions, tableValues } from "../flags.js";
import type { CommandContext } from "../io.js";

/** `specforge init`: a starter specforge.config.json listing the specs found here and in specs/. */
export function initCommand(ctx: CommandContext): Command {
  const command = new Command("init").description("write a starter specforge.config.json listing the spec files found here and in specs/");
  addTableOptions(command, "init");
  return command.action((opts: Record<string, unknown>) => {
    const values = tableValues("init", opts) as { out?: string; force?: boolean; quiet?: boolean; json?: boolean };
    const result = initConfig({ out: values.out, force: values.force });
    if (values.json) {
      ctx.io.out(JSON.stringify({ type: "init", file: result.file, config: result.config, notes: result.notes }) + "\n");
      return;
    }
    for (const n of result.notes) ctx.io.err(`${n.file}: ${n.note}\n`);
    if (values.quiet) return;
    ctx.io.out(`wrote ${result.file} with ${result.config.specs.length} spec(s):\n`);
    for (const s of result.config.specs) ctx.io.out(`  ${s}\n`);
    ctx.io.out(`next: specforge generate (and add .specforge-cache/ to .gitignore if you use --watch)\n`);
  });
}
