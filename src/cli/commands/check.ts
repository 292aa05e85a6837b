import { Command } from "commander";
import { check } from "../../api.js";
import { loadRunConfig, type RunOptions } from "../../config/resolve.js";
import { addTableOptions, tableValues } from "../flags.js";
import type { CommandContext } from "../io.js";
import { reporter, reportMode } from "../progress.js";

/**
 * `specforge check`: for CI. Exit 1 when the output differs from what generate would write: a unified diff of each
 * stale file on stdout (disk -> generated, so `patch -p1` brings the disk up to date), then every stale, missing
 * and extra file named on stderr. With --json the differences are events (diffs included) instead.
 */
export function checkCommand(ctx: CommandContext): Command {
  const command = new Command("check")
    .description("exit 1, print a diff and name the files when the output does not match what generate would write")
    .argument("[specs...]", "spec files or folders");
  addTableOptions(command, "check");
  return command.action(async (specs: string[], opts: Record<string, unknown>) => {
    const options = { ...tableValues("check", opts), specs } as RunOptions & { quiet?: boolean; json?: boolean };
    const mode = reportMode(options, ctx.io);
    const report = reporter(ctx.io, mode, "check");
    let result;
    try {
      result = check({ ...(await loadRunConfig(options)), onEvent: report.onEvent });
    } catch (e) {
      report.fail(e);
      throw e;
    }
    if (result.differences.length === 0) {
      if (mode !== "quiet" && mode !== "json") ctx.io.out("generated code is up to date\n");
      return;
    }
    ctx.setExitCode(1);
    if (mode === "json") {
      for (const d of result.differences) if (d.diff) ctx.io.out(JSON.stringify({ type: "diff", path: d.path, diff: d.diff }) + "\n");
      return;
    }
    for (const d of result.differences) if (d.diff) ctx.io.out(d.diff);
    for (const d of result.differences) ctx.io.err(`${d.state}: ${d.path}\n`);
    ctx.io.err(`${result.differences.length} generated file(s) out of date: run 'specforge generate'\n`);
  });
}
