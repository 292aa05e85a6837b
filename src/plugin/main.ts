/**
 * The protoc-gen-specforge process: reads the whole request from stdin, writes the response to stdout. Anything
 * that is not a problem with the input (a bug) goes to stderr with exit code 1, which protoc and buf report.
 */
import { runPlugin } from "./run-plugin.js";

export async function main(): Promise<number> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  let response: Uint8Array;
  try {
    response = runPlugin(new Uint8Array(Buffer.concat(chunks)));
  } catch (e) {
    process.stderr.write(`protoc-gen-specforge: internal error: ${(e as Error).stack ?? String(e)}\n`);
    return 1;
  }
  await new Promise<void>((resolve, reject) => process.stdout.write(response, (err) => (err ? reject(err) : resolve())));
  return 0;
}
