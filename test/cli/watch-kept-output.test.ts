import { describe, expect, it } from "vitest";
import { reporter } from "../../src/cli/progress.js";

/** What a watch user is told when a spec breaks: the error, then that its last good output is still there. */
describe("watch: a broken spec's report", () => {
  const error = { type: "error", spec: "specs/a.proto", message: "specs/a.proto:4:20: expected a field number", kept: "a" } as const;

  it.each(["plain", "tty", "quiet"] as const)("%s: the error, then where the last good output is kept", (mode) => {
    let err = "";
    let out = "";
    const report = reporter({ out: (t) => (out += t), err: (t) => (err += t), tty: mode === "tty" }, mode, "watch");
    report.onEvent(error);
    expect(err).toBe("specs/a.proto:4:20: expected a field number\nspecs/a.proto: kept the last good output in a/\n");
    // --quiet prints nothing else.
    report.onEvent({ type: "watching", files: 3 });
    if (mode === "quiet") expect(out + err).toBe("specs/a.proto:4:20: expected a field number\nspecs/a.proto: kept the last good output in a/\n");
  });

  it("generate --quiet leaves errors to the CLI (it prints the thrown one), so an error event is not printed twice", () => {
    let printed = "";
    reporter({ out: (t) => (printed += t), err: (t) => (printed += t) }, "quiet", "generate").onEvent(error);
    expect(printed).toBe("");
  });

  it("--json: the error event carries `kept`", () => {
    let out = "";
    reporter({ out: (t) => (out += t), err: () => undefined }, "json", "watch").onEvent(error);
    expect(JSON.parse(out)).toEqual(error);
  });

  it("a spec that never generated has nothing kept, and says nothing more", () => {
    let err = "";
    const { kept: _kept, ...first } = error;
    reporter({ out: () => undefined, err: (t) => (err += t) }, "plain", "watch").onEvent(first);
    expect(err).toBe("specs/a.proto:4:20: expected a field number\n");
  });
});
