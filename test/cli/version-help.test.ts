import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { main } from "../../src/cli/main.js";
import { REPO } from "../helpers/seeds.js";

async function run(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = "";
  let err = "";
  const code = await main(args, { out: (t) => (out += t), err: (t) => (err += t) });
  return { code, out, err };
}

const VERSION = (JSON.parse(readFileSync(path.join(REPO, "package.json"), "utf8")) as { version: string }).version;

describe("specforge --version and --help", () => {
  it.each([["--version"], ["-V"]])("%s prints package.json's version", async (flag) => {
    expect(await run(flag)).toEqual({ code: 0, out: `${VERSION}\n`, err: "" });
  });

  it("--help lists every command, each with one example whose flags the command has", async () => {
    const help = await run("--help");
    expect(help.code).toBe(0);
    const [, commandsAndAfter] = help.out.split(/^Commands:\n/m);
    const [commandsSection, examplesSection] = commandsAndAfter!.split(/^Examples:\n/m);
    const commands = [...commandsSection!.matchAll(/^ {2}([a-z][\w-]*)/gm)].map((m) => m[1]!);
    expect(commands).toEqual(["generate", "check", "inspect", "init", "convert", "mock", "help"]);
    const examples = [...examplesSection!.matchAll(/^ {2}\$ specforge (.+)\n {6}\S.*$/gm)].map((m) => m[1]!);
    expect(examples.map((e) => e.split(" ")[0])).toEqual(commands);
    for (const example of examples) {
      const [name, ...args] = example.split(" ");
      if (name === "help") continue;
      const commandHelp = (await run(name!, "--help")).out;
      for (const flag of args.filter((a) => a.startsWith("-"))) expect(commandHelp, `${name} ${flag}`).toContain(`${flag} `);
    }
  });

  it("help <command> prints that command's options, as the help example says", async () => {
    const res = await run("help", "generate");
    expect(res.code).toBe(0);
    expect(res.out).toContain("Usage: specforge generate [options] [specs...]");
    expect(res.out).toContain("-f, --force");
  });
});
