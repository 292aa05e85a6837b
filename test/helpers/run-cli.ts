import { main } from "../../src/cli/main.js";

/** The CLI in process, in `cwd`, with stdout and stderr captured. */
export async function runCli(cwd: string, ...args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = "";
  let err = "";
  const prev = process.cwd();
  process.chdir(cwd);
  try {
    const code = await main(args, { out: (t) => (out += t), err: (t) => (err += t) });
    return { code, out, err };
  } finally {
    process.chdir(prev);
  }
}
