/**
 * Debian's headless Chromium, driven over the DevTools protocol on a pipe (`--remote-debugging-pipe`: JSON
 * messages ended by NUL, written to the browser's fd 3 and read from its fd 4). No WebSocket client, no
 * puppeteer, no downloaded browser: the protocol calls a test needs (open a page, wait for its load, evaluate an
 * expression) are a few lines, and every one of them is bounded by a timeout.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Readable, Writable } from "node:stream";

/** Where scripts/ensure-tools.sh (apt-get install chromium) puts it; CHROMIUM_PATH overrides. */
export const CHROMIUM_PATH = process.env["CHROMIUM_PATH"] ?? "/usr/bin/chromium";

export function chromiumInstalled(): boolean {
  return existsSync(CHROMIUM_PATH);
}

/** Flags for a root user in a container: no sandbox, no GPU, nothing that phones home or updates itself. */
const FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--disable-dev-shm-usage",
  "--remote-debugging-pipe",
];

/** What the page said on its console and what it threw: shown when a test fails. */
export interface PageLog {
  readonly lines: string[];
}

interface Pending {
  resolve(result: Record<string, unknown>): void;
  reject(error: Error): void;
  timer: NodeJS.Timeout;
}

export class Chromium {
  readonly #child: ChildProcess;
  readonly #profile: string;
  readonly #in: Writable;
  readonly #pending = new Map<number, Pending>();
  readonly #listeners = new Set<(method: string, params: Record<string, unknown>, sessionId?: string) => void>();
  readonly #stderr: string[] = [];
  #nextId = 1;
  #buffer = "";
  #exited: Promise<void>;

  private constructor(child: ChildProcess, profile: string) {
    this.#child = child;
    this.#profile = profile;
    this.#in = child.stdio[3] as Writable;
    const out = child.stdio[4] as Readable;
    out.setEncoding("utf8");
    out.on("data", (chunk: string) => this.#receive(chunk));
    child.stderr?.setEncoding("utf8");
    child.stderr?.on("data", (chunk: string) => {
      if (this.#stderr.length < 200) this.#stderr.push(chunk);
    });
    this.#exited = new Promise((resolve) => child.once("exit", () => resolve()));
    void this.#exited.then(() => this.#failAll(new Error(`chromium exited: ${this.#stderr.join("").slice(-2000)}`)));
  }

  /** Start a fresh browser with its own temporary profile; resolves when it answers the protocol. */
  static async launch(timeoutMs = 20_000): Promise<Chromium> {
    const profile = mkdtempSync(path.join(tmpdir(), "specforge-chromium-"));
    const child = spawn(CHROMIUM_PATH, [...FLAGS, `--user-data-dir=${profile}`, "about:blank"], {
      stdio: ["ignore", "ignore", "pipe", "pipe", "pipe"],
    });
    const browser = new Chromium(child, profile);
    const spawned = new Promise<void>((resolve, reject) => {
      child.once("spawn", resolve);
      child.once("error", reject);
    });
    try {
      await spawned;
      await browser.send("Browser.getVersion", {}, undefined, timeoutMs);
    } catch (error) {
      await browser.close();
      throw error;
    }
    return browser;
  }

  /** One protocol call (on a page's session when `sessionId` is given), rejected after `timeoutMs`. */
  send(method: string, params: Record<string, unknown> = {}, sessionId?: string, timeoutMs = 20_000): Promise<Record<string, unknown>> {
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#pending.delete(id);
        reject(new Error(`DevTools call ${method} timed out after ${timeoutMs} ms`));
      }, timeoutMs);
      this.#pending.set(id, { resolve, reject, timer });
      this.#in.write(`${JSON.stringify({ id, method, params, ...(sessionId === undefined ? {} : { sessionId }) })}\0`);
    });
  }

  /** Resolves with the first event `method` (of `sessionId`), rejects after `timeoutMs`. */
  waitForEvent(method: string, sessionId: string, timeoutMs: number): Promise<Record<string, unknown>> {
    return new Promise((resolve, reject) => {
      const listener = (name: string, params: Record<string, unknown>, from?: string) => {
        if (name !== method || from !== sessionId) return;
        clearTimeout(timer);
        this.#listeners.delete(listener);
        resolve(params);
      };
      const timer = setTimeout(() => {
        this.#listeners.delete(listener);
        reject(new Error(`no ${method} within ${timeoutMs} ms`));
      }, timeoutMs);
      this.#listeners.add(listener);
    });
  }

  /**
   * Open `url` in a new tab and wait for its load event. The page's console messages, uncaught exceptions and
   * browser log entries (CORS refusals are reported there) are collected into the returned log.
   */
  async open(url: string, timeoutMs = 20_000): Promise<{ sessionId: string; log: PageLog }> {
    const { targetId } = await this.send("Target.createTarget", { url: "about:blank" });
    const { sessionId } = (await this.send("Target.attachToTarget", { targetId, flatten: true })) as { sessionId: string };
    const log: PageLog = { lines: [] };
    this.#listeners.add((method, params, from) => {
      if (from !== sessionId) return;
      if (method === "Runtime.consoleAPICalled") {
        const args = (params["args"] as { value?: unknown; description?: string }[]).map((a) => a.description ?? String(a.value));
        log.lines.push(`console.${String(params["type"])}: ${args.join(" ")}`);
      } else if (method === "Runtime.exceptionThrown") {
        const details = params["exceptionDetails"] as { text: string; exception?: { description?: string } };
        log.lines.push(`exception: ${details.exception?.description ?? details.text}`);
      } else if (method === "Log.entryAdded") {
        const entry = params["entry"] as { level: string; text: string; url?: string };
        log.lines.push(`log.${entry.level}: ${entry.text}${entry.url ? ` (${entry.url})` : ""}`);
      }
    });
    await Promise.all([this.send("Runtime.enable", {}, sessionId), this.send("Log.enable", {}, sessionId), this.send("Page.enable", {}, sessionId)]);
    const loaded = this.waitForEvent("Page.loadEventFired", sessionId, timeoutMs);
    const navigated = await this.send("Page.navigate", { url }, sessionId, timeoutMs);
    if (typeof navigated["errorText"] === "string") throw new Error(`cannot open ${url}: ${navigated["errorText"]}`);
    await loaded;
    return { sessionId, log };
  }

  /** Evaluate `expression` in the page, awaiting a promise it gives; the JSON value it resolves to. */
  async evaluate(sessionId: string, expression: string, timeoutMs = 30_000): Promise<unknown> {
    const reply = await this.send("Runtime.evaluate", { expression, awaitPromise: true, returnByValue: true }, sessionId, timeoutMs);
    const thrown = reply["exceptionDetails"] as { text: string; exception?: { description?: string } } | undefined;
    if (thrown !== undefined) throw new Error(`page threw: ${thrown.exception?.description ?? thrown.text}`);
    return (reply["result"] as { value?: unknown }).value;
  }

  /** Close the browser (killed if it does not exit within 5 s) and remove its profile. */
  async close(): Promise<void> {
    if (this.#child.exitCode === null && this.#child.signalCode === null) {
      this.send("Browser.close", {}, undefined, 5_000).catch(() => undefined);
      const killed = setTimeout(() => this.#child.kill("SIGKILL"), 5_000);
      await this.#exited;
      clearTimeout(killed);
    }
    rmSync(this.#profile, { recursive: true, force: true });
  }

  #receive(chunk: string): void {
    this.#buffer += chunk;
    let end: number;
    while ((end = this.#buffer.indexOf("\0")) >= 0) {
      const text = this.#buffer.slice(0, end);
      this.#buffer = this.#buffer.slice(end + 1);
      this.#dispatch(JSON.parse(text) as { id?: number; result?: Record<string, unknown>; error?: { message: string }; method?: string; params?: Record<string, unknown>; sessionId?: string });
    }
  }

  #dispatch(message: { id?: number; result?: Record<string, unknown>; error?: { message: string }; method?: string; params?: Record<string, unknown>; sessionId?: string }): void {
    if (message.id !== undefined) {
      const pending = this.#pending.get(message.id);
      if (pending === undefined) return;
      this.#pending.delete(message.id);
      clearTimeout(pending.timer);
      if (message.error) pending.reject(new Error(`DevTools: ${message.error.message}`));
      else pending.resolve(message.result ?? {});
      return;
    }
    if (message.method !== undefined) {
      for (const listener of [...this.#listeners]) listener(message.method, message.params ?? {}, message.sessionId);
    }
  }

  #failAll(error: Error): void {
    for (const [id, pending] of this.#pending) {
      clearTimeout(pending.timer);
      this.#pending.delete(id);
      pending.reject(error);
    }
  }
}
