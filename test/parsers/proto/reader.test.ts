import { describe, expect, it } from "vitest";
import { parseProtoFile, tokenize } from "../../../src/parsers/proto/index.js";

const kinds = (src: string): [string, string][] => tokenize(src, "t.proto").map((t) => [t.kind, t.text]);

describe("proto tokenizer", () => {
  it.each([
    ["123", "int"],
    ["0", "int"],
    ["0x1F", "int"],
    ["0XfF", "int"],
    ["017", "int"],
    ["1.5", "float"],
    [".5", "float"],
    ["1e10", "float"],
    ["1.5E-3", "float"],
    ["5.", "float"],
    ["inf", "ident"],
    ["nan", "ident"],
  ])("number %s is %s", (text, kind) => {
    expect(kinds(text)).toEqual([
      [kind, text],
      ["eof", ""],
    ]);
  });

  it("decodes every string escape", () => {
    const src = String.raw`"\a\b\f\n\r\t\v\\\'\"\?" '\0\12\101\x41\xf\u00e9\U0001F600' "it's"`;
    expect(tokenize(src, "t.proto").map((t) => t.value)).toEqual([
      "\x07\b\f\n\r\t\v\\'\"?",
      "\0\nAA\x0fé\u{1F600}",
      "it's",
      "",
    ]);
  });

  it("gives every token a line and column and skips comments", () => {
    const toks = tokenize("a /* x\n y */ b // c\n  c;", "t.proto");
    expect(toks.map((t) => [t.text, t.line, t.column])).toEqual([
      ["a", 1, 1],
      ["b", 2, 7],
      ["c", 3, 3],
      [";", 3, 4],
      ["", 3, 5],
    ]);
    // Continuation lines without a leading "*" keep their indentation.
    expect(toks[1]!.comments.map((c) => c.text)).toEqual(["x\n y"]);
    expect(toks[2]!.comments.map((c) => c.text)).toEqual(["c"]);
  });

  it("reads symbols one character at a time", () => {
    expect(kinds("map<a,b>=[];").map(([, t]) => t)).toEqual(["map", "<", "a", ",", "b", ">", "=", "[", "]", ";", ""]);
  });
});

describe("proto parser", () => {
  const parse = (src: string) => parseProtoFile(src, "/t.proto", "t.proto");

  it("reads file-level statements", () => {
    const f = parse(`
      syntax = "proto3";
      package a.b.c;
      import public "x.proto";
      import weak 'y.proto';
      import "z" ".proto";
      option java_package = "com.example";
      option (my.file_opt).sub.(ext) = -12;
    `);
    expect(f).toMatchObject({
      syntax: "proto3",
      package: "a.b.c",
      imports: [{ path: "x.proto", modifier: "public" }, { path: "y.proto", modifier: "weak" }, { path: "z.proto" }],
      options: [
        { name: "java_package", value: { kind: "string", value: "com.example" } },
        { name: "(my.file_opt).sub.(ext)", value: { kind: "int", value: -12n, text: "-12" } },
      ],
    });
  });

  it("keeps aggregate option values as written", () => {
    const f = parse(`syntax = "proto3"; message M { option (agg) = { s: "x" nested { i: 1 } list: [1, 2] }; }`);
    const m = f.decls[0];
    expect(m).toMatchObject({ kind: "message", options: [{ name: "(agg)", value: { kind: "aggregate", text: '{ s: "x" nested { i: 1 } list: [1, 2] }' } }] });
  });

  it("reads float option values, signs, inf and nan", () => {
    const f = parse(`option a = -inf; option b = +1.5; option c = nan; option d = 0x10; option e = true;`);
    expect(f.options.map((o) => [o.name, o.value.kind, o.value.text])).toEqual([
      ["a", "float", "-inf"],
      ["b", "float", "+1.5"],
      ["c", "ident", "nan"],
      ["d", "int", "0x10"],
      ["e", "ident", "true"],
    ]);
  });

  it("reads reserved and extension ranges with max, enum reserved with negatives", () => {
    const f = parse(`
      message M { extensions 5, 10 to max [declaration = { number: 10 }]; reserved 1 to 3, 7; reserved "a", "b"; }
      enum E { A = 0; reserved -5 to -1, 100 to max; reserved "OLD"; }
    `);
    expect(f.decls[0]).toMatchObject({
      extensionRanges: [{ from: 5, to: 5 }, { from: 10, to: 536870911 }],
      reserved: { ranges: [{ from: 1, to: 3 }, { from: 7, to: 7 }], names: [{ name: "a" }, { name: "b" }] },
    });
    expect(f.decls[1]).toMatchObject({ reserved: { ranges: [{ from: -5, to: -1 }, { from: 100, to: 2147483647 }], names: [{ name: "OLD" }] } });
  });

  it("treats keywords as names where the grammar allows it", () => {
    const f = parse(`
      syntax = "proto3";
      message message { int32 option = 1; int32 syntax = 2; stream.Foo rpc = 3; }
      service S { rpc stream(stream) returns (stream stream); rpc X(stream.Foo) returns (.stream.Foo); }
    `);
    expect(f.decls[0]).toMatchObject({ name: "message", body: [{ name: "option" }, { name: "syntax" }, { name: "rpc", type: "stream.Foo" }] });
    expect(f.decls[1]).toMatchObject({
      methods: [
        { name: "stream", input: "stream", clientStreaming: false, output: "stream", serverStreaming: true },
        { name: "X", input: "stream.Foo", clientStreaming: false, output: ".stream.Foo", serverStreaming: false },
      ],
    });
  });
});
