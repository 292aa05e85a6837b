import { Command } from "commander";
import { generateInWorkers } from "../../api.js";
import { loadRunConfig, type RunOptions } from "../../config/resolve.js";
import { parseJobs } from "../../pipeline/jobs.js";
import { watch } from "../../pipeline/watch.js";
import { addTableOptions, tableValues } from "../flags.js";
import type { CommandContext } from "../io.js";
import { reporter, reportMode } from "../progress.js";

/** `specforge generate [specs...]`, and with --watch the watch loop until Ctrl-C. */
export function generateCommand(ctx: CommandContext): Command {
  const command = new Command("generate")
    .description("generate code from specs (no arguments: read specforge.config.json, default specs/ -> generated/)")
    .argument("[specs...]", "spec files or folders");
  addTableOptions(command, "generate");
  return command.action(async (specs: string[], opts: Record<string, unknown>) => {
    const values = tableValues("generate", opts);
    const options = { ...values, specs } as RunOptions & { watch?: boolean; quiet?: boolean; json?: boolean; jobs?: string };
    const jobs = parseJobs(options.jobs);
    const report = reporter(ctx.io, reportMode(options, ctx.io), options.watch ? "watch" : "generate");
    if (options.watch) {
      const handle = watch(options, { onEvent: report.onEvent });
      try {
        await handle.ready;
      } catch (e) {
        await handle.stop();
        report.fail(e);
        throw e;
      }
      await ctx.interrupted();
      await handle.stop();
      return;
    }
    try {
      await generateInWorkers({ ...(await loadRunConfig(options)), onEvent: report.onEvent, jobs });
    } catch (e) {
      report.fail(e);
      throw e;
    }
  });
}
