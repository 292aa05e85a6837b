import { Command } from "commander";
import { inspect } from "../../api.js";
import { loadRunConfig, resolveRun, type RunOptions } from "../../config/resolve.js";
import { UsageError } from "../../errors.js";
import { specInputs } from "../../pipeline/spec-inputs.js";
import { addTableOptions, tableValues } from "../flags.js";
import type { CommandContext } from "../io.js";

/** `specforge inspect <spec> --ir`: the IR as JSON; `specforge inspect [specs...] --inputs`: what generate reads and writes. */
export function inspectCommand(ctx: CommandContext): Command {
  const command = new Command("inspect")
    .description("print what specforge reads from a spec")
    .argument("[specs...]", "spec files (--ir: exactly one; --inputs: files or folders, default the config's specs)")
    .option("--ir", "print the intermediate representation as JSON (the default)")
    .option("--inputs", "print, as JSON, every file each spec reads (imports, includes, $refs) and writes, for build systems (docs/build-systems.md)");
  addTableOptions(command, "inspect");
  return command.action(async (specs: string[], opts: Record<string, unknown>) => {
    const values = tableValues("inspect", opts) as RunOptions;
    if (opts.inputs) {
      if (opts.ir) throw new UsageError("inspect: give either --ir or --inputs");
      const run = resolveRun(await loadRunConfig({ ...values, specs }));
      ctx.io.out(JSON.stringify(specInputs(run, process.cwd()), null, 2) + "\n");
      return;
    }
    if (specs.length !== 1) throw new UsageError(`inspect --ir: give exactly one spec file (got ${specs.length})`);
    ctx.io.out(JSON.stringify(inspect(specs[0]!, { protoPaths: values.protoPaths, ...(values.catalog !== undefined ? { catalog: values.catalog } : {}) }), null, 2) + "\n");
  });
}
