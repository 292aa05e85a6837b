/**
 * The XSD 1.1 judge of the W3C suite runner: python's xmlschema (Debian's python3-xmlschema, XMLSchema11), in ONE
 * long-lived helper process (conformance/xsd/xmlschema-judge.py) that this module starts on first use and talks to
 * in JSON lines. libxml2 (xmllint) knows XSD 1.0 only; the XSD 1.1 groups' schemas and outputs are judged here.
 *
 * `/usr/bin/python3` is the interpreter (a python3 earlier on PATH, e.g. pyenv's, may lack the module), or
 * $SPECFORGE_XMLSCHEMA_PYTHON.
 */
import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from "node:child_process";
import path from "node:path";
import { createInterface } from "node:readline";

export const JUDGE_PYTHON = process.env["SPECFORGE_XMLSCHEMA_PYTHON"] ?? "/usr/bin/python3";
const SCRIPT = path.join(import.meta.dirname, "xmlschema-judge.py");

/** xmlschema's version when the judge can run, else why not (for a skip message). */
export function judgeAvailable(): { ok: true; version: string } | { ok: false; why: string } {
  const run = spawnSync(JUDGE_PYTHON, ["-c", "import xmlschema; print(xmlschema.__version__)"], { encoding: "utf8", timeout: 30_000 });
  if (run.status === 0) return { ok: true, version: run.stdout.trim() };
  return {
    ok: false,
    why: `the XSD 1.1 judge needs python's xmlschema under ${JUDGE_PYTHON} (${(run.error?.message ?? run.stderr ?? "").trim().split("\n").pop()}); install it with: apt-get install python3-xmlschema (bash scripts/ensure-tools.sh does)`,
  };
}

export interface JudgeVerdict {
  /** The schema does not load (xmlschema's reason). */
  readonly schemaError?: string;
  /** file -> [valid, first error]. */
  readonly files: Map<string, readonly [boolean, string]>;
}

interface Pending {
  resolve: (answer: Record<string, unknown>) => void;
  reject: (e: Error) => void;
}

let child: ChildProcessWithoutNullStreams | undefined;
const queue: Pending[] = [];

function start(): ChildProcessWithoutNullStreams {
  if (child !== undefined && child.exitCode === null) return child;
  const proc = spawn(JUDGE_PYTHON, [SCRIPT], { stdio: ["pipe", "pipe", "pipe"] });
  let stderr = "";
  proc.stderr.on("data", (d: Buffer) => (stderr = (stderr + d.toString()).slice(-2000)));
  createInterface({ input: proc.stdout }).on("line", (line) => {
    const p = queue.shift();
    if (p === undefined) return;
    if (queue.length === 0) hold(false);
    try {
      p.resolve(JSON.parse(line) as Record<string, unknown>);
    } catch (e) {
      p.reject(new Error(`the XSD 1.1 judge answered something that is not JSON: ${line.slice(0, 200)}`));
    }
  });
  const fail = (why: string) => {
    for (const p of queue.splice(0)) p.reject(new Error(`the XSD 1.1 judge (${JUDGE_PYTHON} ${SCRIPT}) ${why}: ${stderr.trim().slice(-500)}`));
    if (child === proc) child = undefined;
  };
  proc.on("exit", (code, signal) => fail(`exited (${signal ?? code})`));
  proc.on("error", (e) => fail(`could not start (${e.message})`));
  child = proc;
  hold(false);
  return proc;
}

/** The judge keeps the runner's process alive while a request waits, not while it idles. */
function hold(busy: boolean): void {
  if (child === undefined) return;
  for (const h of [child, child.stdin, child.stdout, child.stderr] as unknown as { ref?: () => void; unref?: () => void }[]) {
    if (busy) h.ref?.();
    else h.unref?.();
  }
}

function ask(request: object): Promise<Record<string, unknown>> {
  const proc = start();
  return new Promise((resolve, reject) => {
    queue.push({ resolve, reject });
    hold(true);
    proc.stdin.write(`${JSON.stringify(request)}\n`);
  });
}

/** Every file judged against one schema (absolute paths) under XSD `version`, in one request. */
export async function judgeFiles(schema: string, files: readonly string[], version: "1.0" | "1.1" = "1.1"): Promise<JudgeVerdict> {
  const answer = await ask({ schema, version, files });
  if (typeof answer["error"] === "string") throw new Error(`the XSD 1.1 judge failed on ${schema}: ${answer["error"]}`);
  if (typeof answer["schemaError"] === "string") return { schemaError: answer["schemaError"], files: new Map() };
  const verdicts = answer["files"] as [boolean, string][];
  return { files: new Map(files.map((f, i) => [f, verdicts[i]!] as const)) };
}

/** Ends the helper process (tests call it when done; a runner may just exit). */
export function stopJudge(): void {
  child?.stdin.end();
  child = undefined;
}
