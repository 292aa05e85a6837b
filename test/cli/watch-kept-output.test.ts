import { describe, expect, it } from "vitest";
import { reporter } from "../../src/cli/progress.js";

/** What a watch user is told when a spec breaks: the error, then that its last good output is still there. */
describe("watch: a broken spec's report", () => {
  const error = { type: "error", spec: "specs/a.proto", message: "specs/a.proto:4:20: expected a field number", kept: "a" } as const;

  it.each(["plain", "tty"] as const)("%s: the error, then where the last good output is kept", (mode) => {
    let err = "";
    reporter({ out: () => undefined, err: (t) => (err += t), tty: mode === "tty" }, mode, "watch").onEvent(error);
    expect(err).toBe("specs/a.proto:4:20: expected a field number\nspecs/a.proto: kept the last good output in a/\n");
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
