/** Where the CLI writes. Tests pass their own; `tty` says whether stderr is a terminal (live progress display). */
export interface CliIo {
  out(text: string): void;
  err(text: string): void;
  readonly tty?: boolean;
}

export function processIo(): CliIo {
  // The reader of stdout went away (`specforge generate --json | head -1`): stop writing, as Unix tools do, rather
  // than die of an unhandled EPIPE; the run itself finishes and exits as it would have.
  let stdoutClosed = false;
  process.stdout.on("error", (e: NodeJS.ErrnoException) => {
    if (e.code !== "EPIPE") throw e;
    stdoutClosed = true;
  });
  return {
    out: (t) => {
      if (!stdoutClosed) process.stdout.write(t);
    },
    err: (t) => process.stderr.write(t),
    // CI logs are files that happen to be shown live: no in-place rewriting there.
    tty: Boolean(process.stderr.isTTY) && !process.env.CI,
  };
}

/** What every command gets: the io, and a way to set the exit code without throwing. */
export interface CommandContext {
  readonly io: CliIo;
  setExitCode(code: number): void;
  /** Resolves when Ctrl-C (SIGINT) or SIGTERM arrives; tests pass their own. */
  interrupted(): Promise<void>;
}
