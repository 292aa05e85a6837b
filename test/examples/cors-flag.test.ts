import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { request as httpRequest } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { corsOriginsOfFlag, withEmulatorCors } from "../../examples/common/cors-flag.js";
import { REPO } from "../helpers/seeds.js";

describe("--cors-origin values", () => {
  it.each<[string[] | undefined, unknown]>([
    [undefined, undefined],
    [[], undefined],
    [["none"], false],
    [["*"], "*"],
    [["http://localhost:5173", "https://app.example"], ["http://localhost:5173", "https://app.example"]],
  ])("%j -> %j", (values, expected) => {
    expect(corsOriginsOfFlag(values)).toEqual(expected);
  });

  it.each<[string[], string]>([
    [["http://localhost:5173/"], 'did you mean "http://localhost:5173"?'],
    [["*", "http://localhost:1"], "--cors-origin * cannot be combined with other origins"],
    [["http://localhost:1", "none"], "--cors-origin none cannot be combined with other origins"],
  ])("refuses %j", (values, message) => {
    expect(() => corsOriginsOfFlag(values)).toThrow(message);
  });

  it("none leaves the handler as it is; a list replaces the default origins", async () => {
    const handler = async () => new Response("ok");
    expect(withEmulatorCors(handler, {}, ["none"])).toBe(handler);
    const only = withEmulatorCors(handler, { exposeHeaders: ["link"] }, ["https://app.example"]);
    const ask = (origin: string) => only(new Request("http://127.0.0.1/", { headers: { origin } }));
    expect((await ask("https://app.example")).headers.get("access-control-expose-headers")).toBe("link");
    expect((await ask("http://localhost:3000")).headers.has("access-control-allow-origin")).toBe(false);
  });
});

const children: ChildProcess[] = [];

afterEach(async () => {
  await Promise.all(
    children.splice(0).map(async (child) => {
      if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
      const exited = once(child, "exit");
      process.kill(-child.pid, "SIGTERM"); // the group we started: npm, tsx and the emulator
      await exited;
    }),
  );
});

function start(script: string, args: readonly string[], stdout: "pipe" | "ignore" = "pipe"): ChildProcess {
  const child = spawn("npm", ["run", "--silent", script, "--", ...args], { cwd: REPO, detached: true, stdio: ["ignore", stdout, "pipe"] });
  children.push(child);
  return child;
}

/** The URL of the `listening on <url>` line, or a rejection after `timeoutMs` (startup compiles TypeScript). */
function listeningUrl(proc: ChildProcess, timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    let buffered = "";
    const timer = setTimeout(() => reject(new Error(`no listening line within ${timeoutMs} ms; got ${JSON.stringify(buffered)}`)), timeoutMs);
    proc.stdout!.setEncoding("utf8").on("data", (chunk: string) => {
      buffered += chunk;
      const match = /^listening on (http:\/\/127\.0\.0\.1:\d+)$/m.exec(buffered);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    });
    proc.once("exit", (code) => reject(new Error(`exited with ${code} before listening`)));
  });
}

/** A preflight as a browser sends it (node's fetch would not let us set Origin the way a page does). */
function preflight(url: string, origin: string): Promise<{ status: number; allowOrigin: unknown }> {
  return new Promise((resolve, reject) => {
    const target = new URL(url);
    const req = httpRequest(
      {
        host: target.hostname,
        port: target.port,
        path: target.pathname,
        method: "OPTIONS",
        headers: { origin, "access-control-request-method": "POST", "access-control-request-headers": "content-type" },
        timeout: 10_000,
      },
      (res) => {
        res.resume();
        res.on("end", () => resolve({ status: res.statusCode ?? 0, allowOrigin: res.headers["access-control-allow-origin"] }));
      },
    );
    req.on("timeout", () => req.destroy(new Error("preflight timed out")));
    req.on("error", reject);
    req.end();
  });
}

describe("the emulators' --cors-origin flag", () => {
  it("every emulator answers preflights for the origins it was given, and only those", async () => {
    const emulators = [
      ["serve:webhooks", "/api/v2/webhooks"],
      ["serve:members", "/api/v3/groups/1/members"],
      ["serve:partner", "/services/Soap/u/17.0"],
      ["serve:content", "/feed"],
    ] as const;
    const urls = await Promise.all(
      emulators.map(([script]) => listeningUrl(start(script, ["--port", "0", "--cors-origin", "http://localhost:5173"]), 50_000)),
    );
    for (const [i, [script, path]] of emulators.entries()) {
      const allowed = await preflight(`${urls[i]}${path}`, "http://localhost:5173");
      expect({ script, ...allowed }).toEqual({ script, status: 204, allowOrigin: "http://localhost:5173" });
      const other = await preflight(`${urls[i]}${path}`, "http://localhost:3000");
      expect({ script, ...other }).toEqual({ script, status: 403, allowOrigin: undefined });
    }
  });

  it.each(["serve:webhooks", "serve:members", "serve:partner", "serve:content"])("%s refuses an origin with a path, naming the fix, with exit code 2", async (script) => {
    const child = start(script, ["--port", "0", "--cors-origin", "http://localhost:5173/app"], "ignore");
    let stderr = "";
    child.stderr!.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    const [code] = (await once(child, "exit")) as [number | null];
    expect(code).toBe(2);
    expect(stderr).toContain('CORS origin "http://localhost:5173/app" is not in the form browsers send: did you mean "http://localhost:5173"?');
  });
});
