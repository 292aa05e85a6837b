import { Command } from "commander";
import { inspect } from "../../api.js";
import { addTableOptions, tableValues } from "../flags.js";
import type { CommandContext } from "../io.js";

/** `specforge inspect <spec> --ir`: the IR as JSON. */
export function inspectCommand(ctx: CommandContext): Command {
  const command = new Command("inspect")
    .description("print what specforge reads from a spec")
    .argument("<spec>", "spec file")
    .option("--ir", "print the intermediate representation as JSON (the default)");
  addTableOptions(command, "inspect");
  return command.action((spec: string, opts: Record<string, unknown>) => {
    const { protoPaths } = tableValues("inspect", opts) as { protoPaths?: string[] };
    ctx.io.out(JSON.stringify(inspect(spec, { protoPaths }), null, 2) + "\n");
  });
}
