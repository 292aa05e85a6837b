import { Command, CommanderError } from "commander";
import { check, generate, inspect } from "../api.js";
import { isSpecError } from "../pipeline/load-spec.js";

/**
 * The command line: commander wiring only. Every command returns an exit code; spec and usage errors are printed
 * as one line (`file:line:col: message`) without a stack trace.
 */
export async function main(argv: readonly string[], io: CliIo = processIo()): Promise<number> {
  let exitCode = 0;
  const program = new Command()
    .name("specforge")
    .description("Generate TypeScript from WSDL/XSD, .proto and OpenAPI contracts.")
    .exitOverride()
    .configureOutput({ writeOut: io.out, writeErr: io.err });

  program
    .command("generate")
    .description("generate code from specs (no arguments: read specforge.config.json, default specs/ -> generated/)")
    .argument("[specs...]", "spec files or folders")
    .option("-o, --out <dir>", "output root folder")
    .option("-c, --config <file>", "config file (default: specforge.config.json in the working folder)")
    .option("-I, --proto-path <dir...>", "extra folders searched for proto imports")
    .option("-q, --quiet", "print nothing but errors")
    .action((specs: string[], opts: { out?: string; config?: string; protoPath?: string[]; quiet?: boolean }) => {
      const started = Date.now();
      const result = generate({ specs, out: opts.out, config: opts.config, protoPaths: opts.protoPath });
      if (!opts.quiet) {
        for (const o of result.outputs) {
          const state = result.written.includes(o.dir) ? "wrote" : "unchanged";
          io.out(`${o.spec.display} -> ${o.dir}/ (${o.files.length} files, ${state})\n`);
        }
        io.out(`generated ${result.outputs.length} spec(s) in ${Date.now() - started} ms\n`);
      }
    });

  program
    .command("check")
    .description("exit 1 and name the files when the output does not match what generate would write")
    .argument("[specs...]", "spec files or folders")
    .option("-o, --out <dir>", "output root folder")
    .option("-c, --config <file>", "config file")
    .option("-I, --proto-path <dir...>", "extra folders searched for proto imports")
    .action((specs: string[], opts: { out?: string; config?: string; protoPath?: string[] }) => {
      const result = check({ specs, out: opts.out, config: opts.config, protoPaths: opts.protoPath });
      if (result.differences.length === 0) {
        io.out("generated code is up to date\n");
        return;
      }
      for (const d of result.differences) io.err(`${d.state}: ${d.path}\n`);
      io.err(`${result.differences.length} generated file(s) out of date: run 'specforge generate'\n`);
      exitCode = 1;
    });

  program
    .command("inspect")
    .description("print what specforge reads from a spec")
    .argument("<spec>", "spec file")
    .option("--ir", "print the intermediate representation as JSON (the default)")
    .option("-I, --proto-path <dir...>", "extra folders searched for proto imports")
    .action((spec: string, opts: { protoPath?: string[] }) => {
      io.out(JSON.stringify(inspect(spec, { protoPaths: opts.protoPath }), null, 2) + "\n");
    });

  try {
    await program.parseAsync([...argv], { from: "user" });
    return exitCode;
  } catch (e) {
    if (e instanceof CommanderError) return e.exitCode === 0 ? 0 : 2;
    if (isSpecError(e)) {
      io.err(`${e.message}\n`);
      return 1;
    }
    io.err(`specforge: internal error: ${(e as Error)?.message ?? String(e)}\n`);
    if (process.env.SPECFORGE_DEBUG) io.err(`${(e as Error)?.stack}\n`);
    return 1;
  }
}

export interface CliIo {
  out(text: string): void;
  err(text: string): void;
}

function processIo(): CliIo {
  return { out: (t) => process.stdout.write(t), err: (t) => process.stderr.write(t) };
}
