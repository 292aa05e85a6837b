/**
 * JSON name conflicts between the fields of a message, checked as protoc 3.21 (Debian's, installed by
 * scripts/ensure-tools.sh) checks them: only in proto3, only default JSON names, compared ignoring case; a custom
 * json_name may equal any other name. Each case's verdict is written down and also asked of protoc itself.
 * (buf and protoc >= 22 are stricter about custom names; protoc 3.21 is this project's reference.)
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parse } from "./helpers.js";

interface Case {
  readonly syntax: "proto2" | "proto3";
  readonly body: string;
  readonly accepted: boolean;
}

const CASES: Readonly<Record<string, Case>> = {
  "proto2: custom name equal to another field's default name": {
    syntax: "proto2",
    body: 'optional int32 foo_bar = 1; optional int32 baz = 2 [json_name = "fooBar"];',
    accepted: true,
  },
  "proto2: two equal custom names": { syntax: "proto2", body: 'optional int32 a = 1 [json_name = "x"]; optional int32 b = 2 [json_name = "x"];', accepted: true },
  "proto2: two equal default names": { syntax: "proto2", body: "optional int32 foo_bar = 1; optional int32 fooBar = 2;", accepted: true },
  "proto3: custom name equal to another field's default name": { syntax: "proto3", body: 'int32 foo_bar = 1; int32 baz = 2 [json_name = "fooBar"];', accepted: true },
  "proto3: default name equal to an earlier custom name": { syntax: "proto3", body: 'int32 baz = 2 [json_name = "fooBar"]; int32 foo_bar = 1;', accepted: true },
  "proto3: two equal custom names": { syntax: "proto3", body: 'int32 a = 1 [json_name = "x"]; int32 b = 2 [json_name = "x"];', accepted: true },
  "proto3: custom names differing only in case": { syntax: "proto3", body: 'int32 a = 1 [json_name = "X"]; int32 b = 2 [json_name = "x"];', accepted: true },
  "proto3: two equal default names": { syntax: "proto3", body: "int32 foo_bar = 1; int32 fooBar = 2;", accepted: false },
  "proto3: default names differing only in case": { syntax: "proto3", body: "int32 foo = 1; int32 Foo = 2;", accepted: false },
  "proto3: default names equal without underscores": { syntax: "proto3", body: "int32 foo_bar = 1; int32 foobar = 2;", accepted: false },
  "proto3: equal default names, custom names set on both": {
    syntax: "proto3",
    body: 'int32 foo_bar = 1 [json_name = "a"]; int32 fooBar = 2 [json_name = "b"];',
    accepted: false,
  },
  "proto3: a oneof member's default name equal to a field's": { syntax: "proto3", body: "int32 foo_bar = 1; oneof o { int32 fooBar = 2; }", accepted: false },
  "proto3: distinct default names": { syntax: "proto3", body: "int32 foo_bar = 1; int32 foo_baz = 2;", accepted: true },
};

const source = (c: Case): string => `syntax = "${c.syntax}";\nmessage M {\n  ${c.body}\n}\n`;

const dir = mkdtempSync(path.join(tmpdir(), "specforge-json-names-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** protoc's verdict on a source: accepted (exit 0) or refused. */
function protocAccepts(text: string): boolean {
  const file = path.join(dir, "m.proto");
  writeFileSync(file, text);
  const run = spawnSync("protoc", [`-I${dir}`, "-o/dev/null", file], { encoding: "utf8" });
  if (run.error) throw run.error;
  return run.status === 0;
}

function oursAccepts(text: string): boolean {
  try {
    parse(text);
    return true;
  } catch (e) {
    expect((e as Error).message).toMatch(/^\/spec\/main\.proto:3:\d+: the default JSON name of field "\w+" \("\w+"\) conflicts with the default JSON name of field "\w+"/);
    return false;
  }
}

describe("json_name conflicts match protoc 3.21", () => {
  it.each(Object.entries(CASES))("%s", (_name, c) => {
    expect(oursAccepts(source(c))).toBe(c.accepted);
    expect(protocAccepts(source(c))).toBe(c.accepted);
  });

  it("names both fields, and says why when the names differ only in case", () => {
    expect(() => parse(source(CASES["proto3: default names differing only in case"]!))).toThrow(
      '/spec/main.proto:3:18: the default JSON name of field "Foo" ("Foo") conflicts with the default JSON name of field "foo" ("foo"; proto3 compares them ignoring case, as protoc does) in "M"',
    );
  });

  it("keeps each custom name on its field when names are shared", () => {
    const doc = parse(source(CASES["proto2: custom name equal to another field's default name"]!));
    const m = doc.types.find((t) => t.id === "proto:.M");
    expect(m?.kind === "record" && m.members.map((f) => (f.kind === "field" ? f.wire.proto?.jsonName : undefined))).toEqual(["fooBar", "fooBar"]);
  });
});
