/**
 * protoc 3.21 accepts a custom json_name equal to another field's JSON name (test/parsers/proto/json-name-conflicts
 * .test.ts); the generated ProtoJSON codec must still compile and behave predictably: reading gives the shared key to
 * the field declared first, writing writes both and the later field wins (docs/protobuf.md).
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { importGenerated } from "./generate.js";

const dir = mkdtempSync(path.join(tmpdir(), "specforge-shared-json-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("fields sharing a JSON name", () => {
  it("reading gives the key to the first field, writing lets the later one win", async () => {
    const spec = path.join(dir, "shared.proto");
    writeFileSync(spec, 'syntax = "proto2";\npackage shared;\nmessage M {\n  optional int32 foo_bar = 1;\n  optional int32 baz = 2 [json_name = "fooBar"];\n}\n');
    const m = await importGenerated(spec);
    expect(m.fromJsonM({ fooBar: 5 })).toEqual({ fooBar: 5 });
    expect(m.fromJsonM({ baz: 6 })).toEqual({ baz: 6 });
    expect(m.toJsonM({ fooBar: 1, baz: 2 })).toEqual({ fooBar: 2 });
    expect(m.toJsonM({ fooBar: 1, baz: 2 }, { useProtoFieldName: true })).toEqual({ foo_bar: 1, baz: 2 });
  });
});
