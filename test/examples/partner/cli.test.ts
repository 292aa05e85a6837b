import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import soap from "soap";
import { afterAll, describe, expect, it } from "vitest";
import { createPartnerServiceClient } from "../../../generated/partner/index.js";
import { SHARED } from "../../helpers/seeds.js";

/** `npm run serve:partner -- --port 0`: the script's command, run directly so the test owns exactly one process group. */
const repo = path.resolve(import.meta.dirname, "../../..");
const script = (JSON.parse(readFileSync(path.join(repo, "package.json"), "utf8")) as { scripts: Record<string, string> }).scripts["serve:partner"]!;
const children: ChildProcess[] = [];

afterAll(() => {
  for (const child of children) if (child.pid !== undefined && child.exitCode === null) process.kill(-child.pid, "SIGTERM");
});

/** Start the script with --port 0 in its own process group (killed in afterAll) and return the port it printed. */
async function serve(): Promise<number> {
  const [cmd, ...args] = script.split(" ");
  const child = spawn(path.join(repo, "node_modules/.bin", cmd!), [...args, "--port", "0"], { cwd: repo, detached: true, stdio: ["ignore", "pipe", "pipe"] });
  children.push(child);
  const m = await waitForLine(child, /listening on http:\/\/127\.0\.0\.1:(\d+)\n/, 30_000);
  return Number(m[1]);
}

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
    const port = await serve();
    expect(port).toBeGreaterThan(0);
    const wsdl = await (await fetch(`http://127.0.0.1:${port}/services/Soap/u/17.0?wsdl`)).text();
    expect(wsdl).toContain(`location="http://127.0.0.1:${port}/services/Soap/u/17.0"`);
    const client = createPartnerServiceClient({ endpoint: `http://127.0.0.1:${port}/services/Soap/u/17.0`, timeoutMs: 10_000 });
    expect((await client.login({ username: "admin@example.com", password: "Passw0rd!" })).body.result.sessionId).toBeTruthy();
  });

  it("answers a node-soap client built from the real v40 WSDL: login, create without Id, query", async () => {
    const port = await serve();
    const client = await soap.createClientAsync(path.join(SHARED, "corpus/wsdl/sf-partner-v40.wsdl"), { endpoint: `http://127.0.0.1:${port}/services/Soap/u/40.0` });
    const [login] = await client.loginAsync({ username: "admin@example.com", password: "Passw0rd!" });
    expect(login.result.userInfo.sessionSecondsValid).toBe(7200);
    client.setEndpoint(login.result.serverUrl);
    client.addSoapHeader({ SessionHeader: { sessionId: login.result.sessionId } }, "", "tns", "urn:partner.soap.sforce.com");
    const [created] = await client.createAsync({ sObjects: [{ type: "Account", Name: "from the real WSDL" }] });
    expect(created.result).toEqual([{ id: expect.stringMatching(/^001/), success: true }]);
    const [found] = await client.queryAsync({ queryString: "SELECT Name FROM Account WHERE Name = 'from the real WSDL'" });
    expect(found.result.records).toEqual([{ type: "Account", Name: "from the real WSDL" }]);
  });
});
