import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createPartnerServiceClient } from "../../../generated/partner/index.js";

/** `npm run serve:partner -- --port 0`: the script's command, run directly so the test owns exactly one process group. */
const repo = path.resolve(import.meta.dirname, "../../..");
const script = (JSON.parse(readFileSync(path.join(repo, "package.json"), "utf8")) as { scripts: Record<string, string> }).scripts["serve:partner"]!;
let child: ChildProcess | undefined;

afterAll(() => {
  if (child?.pid !== undefined && child.exitCode === null) process.kill(-child.pid, "SIGTERM");
});

function waitForLine(proc: ChildProcess, pattern: RegExp, timeoutMs: number): Promise<RegExpExecArray> {
  return new Promise((resolve, reject) => {
    let out = "";
    const timer = setTimeout(() => reject(new Error(`no match for ${pattern} within ${timeoutMs} ms; output:\n${out}`)), timeoutMs);
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      const m = pattern.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m);
      }
    };
    proc.stdout?.on("data", onData);
    proc.stderr?.on("data", (c: Buffer) => (out += c.toString()));
    proc.once("exit", (code) => reject(new Error(`exited with ${code}; output:\n${out}`)));
  });
}

describe("npm run serve:partner", () => {
  it("prints the real port for --port 0 and serves the WSDL and logins there", async () => {
    const [cmd, ...args] = script.split(" ");
    child = spawn(path.join(repo, "node_modules/.bin", cmd!), [...args, "--port", "0"], { cwd: repo, detached: true, stdio: ["ignore", "pipe", "pipe"] });
    const m = await waitForLine(child, /listening on http:\/\/127\.0\.0\.1:(\d+)\n/, 30_000);
    const port = Number(m[1]);
    expect(port).toBeGreaterThan(0);
    const wsdl = await (await fetch(`http://127.0.0.1:${port}/services/Soap/u/17.0?wsdl`)).text();
    expect(wsdl).toContain(`location="http://127.0.0.1:${port}/services/Soap/u/17.0"`);
    const client = createPartnerServiceClient({ endpoint: `http://127.0.0.1:${port}/services/Soap/u/17.0`, timeoutMs: 10_000 });
    expect((await client.login({ username: "admin@example.com", password: "Passw0rd!" })).body.result.sessionId).toBeTruthy();
  });
});
