import { Command, CommanderError } from "commander";
import { RunErrors } from "../errors.js";
import { isSpecError } from "../pipeline/load-spec.js";
import { checkCommand } from "./commands/check.js";
import { convertCommand } from "./commands/convert.js";
import { generateCommand } from "./commands/generate.js";
import { initCommand } from "./commands/init.js";
import { inspectCommand } from "./commands/inspect.js";
import { mockCommand } from "./commands/mock.js";
import { examplesHelp } from "./examples.js";
import { processIo, type CliIo, type CommandContext } from "./io.js";
import { packageVersion } from "./version.js";

export type { CliIo } from "./io.js";

/**
 * The command line: commander wiring only; one file per command in ./commands/, flags from the option table
 * (src/config/options.ts). Every command returns an exit code; spec and usage errors are printed as one line
 * (`file:line:col: message`) without a stack trace.
 */
export async function main(argv: readonly string[], io: CliIo = processIo(), interrupted: () => Promise<void> = untilInterrupted): Promise<number> {
  let exitCode = 0;
  const ctx: CommandContext = { io, setExitCode: (code) => (exitCode = code), interrupted };
  const program = new Command()
    .name("specforge")
    .description("Generate TypeScript from WSDL/XSD, .proto and OpenAPI contracts.")
    .version(packageVersion(), "-V, --version", "print the specforge version")
    .exitOverride()
    .configureOutput({ writeOut: io.out, writeErr: io.err });

  program.addCommand(generateCommand(ctx));
  program.addCommand(checkCommand(ctx));
  program.addCommand(inspectCommand(ctx));
  program.addCommand(initCommand(ctx));
  program.addCommand(convertCommand());
  program.addCommand(mockCommand(ctx));
  // Subcommands are built separately, so they need the same error handling as the program.
  for (const c of program.commands) c.exitOverride().configureOutput({ writeOut: io.out, writeErr: io.err });
  // commander adds `help` itself, after these: it gets an example too.
  program.addHelpText("after", examplesHelp([...program.commands.map((c) => c.name()), "help"]));

  try {
    await program.parseAsync([...argv], { from: "user" });
    return exitCode;
  } catch (e) {
    if (e instanceof CommanderError) return e.exitCode === 0 ? 0 : 2;
    // Spec errors (all of a run's: RunErrors ends with the `N errors in M specs` line) and usage errors.
    if (isSpecError(e) || e instanceof RunErrors) {
      io.err(`${e.message}\n`);
      return 1;
    }
    io.err(`specforge: internal error: ${(e as Error)?.message ?? String(e)}\n`);
    if (process.env.SPECFORGE_DEBUG) io.err(`${(e as Error)?.stack}\n`);
    return 1;
  }
}

/** Ctrl-C or SIGTERM, listened for only while a command waits for it (so other commands keep Node's default). */
function untilInterrupted(): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      process.off("SIGINT", done);
      process.off("SIGTERM", done);
      resolve();
    };
    process.on("SIGINT", done);
    process.on("SIGTERM", done);
  });
}
