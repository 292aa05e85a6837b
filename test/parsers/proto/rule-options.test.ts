/**
 * Validation options (protovalidate, protoc-gen-validate) in the IR: split into extension and path, aggregates parsed
 * as text format, every setting kept in order (repeated `.cel` too), positions of the values; malformed aggregates
 * are located errors.
 */
import { describe, expect, it } from "vitest";
import { fields, parse, parseError, record } from "./helpers.js";

const STUB = { "/spec/buf/validate/validate.proto": 'syntax = "proto2";\npackage buf.validate;\n' };

function spec(body: string): Record<string, string> {
  return { ...STUB, "/spec/main.proto": `syntax = "proto3";\npackage p;\nimport "buf/validate/validate.proto";\n${body}` };
}

describe("validation options in the IR", () => {
  it("keeps each option as extension, path and value, aggregates parsed", () => {
    const doc = parse(spec(`message M {
  string name = 1 [(buf.validate.field).string.min_len = 3, (buf.validate.field).cel = {id: "a", expression: "this != 'x'"},
    (buf.validate.field).cel = {id: "b" expression: 'size(this) < 9'}];
  repeated int64 ids = 2 [(.buf.validate.field).repeated = {items: {int64: {in: [-1, 0x10]}}, min_items: 1}];
}`), "/spec/main.proto", ["/spec"]);
    const [name, ids] = fields(record(doc, "proto:.p.M"));
    const rules = name!.wire!.proto!.rules!;
    expect(rules.map((r) => [r.extension, r.path.join("."), r.line, r.column])).toEqual([
      ["buf.validate.field", "string.min_len", 5, 58],
      ["buf.validate.field", "cel", 5, 88],
      ["buf.validate.field", "cel", 6, 32],
    ]);
    expect(rules[0]!.value).toEqual({ kind: "number", text: "3" });
    expect(rules[2]!.value).toEqual({
      kind: "message",
      fields: [
        { name: "id", value: { kind: "string", value: "b", bytes: "b" }, line: 6, column: 33 },
        { name: "expression", value: { kind: "string", value: "size(this) < 9", bytes: "size(this) < 9" }, line: 6, column: 41 },
      ],
    });
    const r = ids!.wire!.proto!.rules![0]!;
    expect(r.extension).toBe("buf.validate.field");
    expect(JSON.stringify(r.value)).toContain('"in","value":{"kind":"list","items":[{"kind":"number","text":"-1"},{"kind":"number","text":"0x10"}]}');
  });

  it("message and oneof options land on the record and the oneof group", () => {
    const doc = parse(spec(`message M {
  option (buf.validate.message).oneof = {fields: ["a", "b"], required: true};
  oneof o {
    option (buf.validate.oneof).required = true;
    string a = 1;
    string b = 2;
  }
}`), "/spec/main.proto", ["/spec"]);
    const m = record(doc, "proto:.p.M");
    expect(m.protoRules!.map((r) => `${r.extension} ${r.path.join(".")}`)).toEqual(["buf.validate.message oneof"]);
    const group = m.members.find((x) => x.kind === "group");
    expect(group?.kind === "group" && group.protoRules!.map((r) => `${r.extension} ${r.path.join(".")} ${JSON.stringify(r.value)}`)).toEqual([
      'buf.validate.oneof required {"kind":"ident","text":"true"}',
    ]);
  });

  it.each([
    ["string x = 1 [(buf.validate.field).string = {min_len 3}];", "main.proto:5:56:"],
    ["string x = 1 [(buf.validate.field).string = {min_len: }];", "main.proto:5:57:"],
    ["string x = 1 [(buf.validate.field).string = {in: [\"a\" \"b\" 3 4]}];", "main.proto:5:61:"],
    ["string x = 1 [(buf.validate.field).string = {min_len: -x}];", "main.proto:5:58:"],
  ])("a malformed aggregate is a located error: %s", (field, where) => {
    expect(parseError(spec(`message M {\n  ${field}\n}`), "/spec/main.proto", ["/spec"])).toContain(where);
  });

  it("other options' aggregates stay as they were (not parsed)", () => {
    const doc = parse(spec(`message M { string x = 1 [(my.opt) = {anything goes: here}]; }`), "/spec/main.proto", ["/spec"]);
    const [x] = fields(record(doc, "proto:.p.M"));
    expect(x!.wire!.proto!.rules).toBeUndefined();
  });
});

describe("hostile validation options", () => {
  it("a deeply nested aggregate is a located error, not a stack overflow", () => {
    const deep = "{a: ".repeat(5000) + "1" + "}".repeat(5000);
    expect(parseError(spec(`message M { string x = 1 [(buf.validate.field).string = ${deep}]; }`), "/spec/main.proto", ["/spec"])).toMatch(
      /main\.proto:4:\d+: option value nested deeper than 64/,
    );
  });
});
