import { describe, expect, it } from "vitest";
import { parseError } from "./helpers.js";

const P3 = 'syntax = "proto3";\n';

/** [what, source of /spec/main.proto, exact message]. Line 1 of P3 cases is the syntax statement. */
const cases: [string, string, string][] = [
  // ---- syntax errors ----------------------------------------------------------------------------------------
  ["missing semicolon", P3 + "message A { int32 a = 1 }", '/spec/main.proto:2:25: expected ";", found "}"'],
  ["missing field number", P3 + "message A { int32 a = ; }", '/spec/main.proto:2:23: expected field number, found ";"'],
  ["unterminated message", P3 + "message A {\n  int32 a = 1;\n", '/spec/main.proto:4:1: expected "}", found end of file'],
  ["bad top-level statement", P3 + "mesage A {}", '/spec/main.proto:2:1: expected top-level statement (message, enum, service, extend, import, package or option), found "mesage"'],
  ["bad syntax value", 'syntax = "proto4";', '/spec/main.proto:1:10: unrecognized syntax "proto4" (expected "proto2" or "proto3")'],
  ["unsupported edition", 'edition = "2022";', '/spec/main.proto:1:11: edition "2022" is not supported (supported: "2023", "2024")'],
  ["unterminated string", P3 + 'option java_package = "abc;\n', "/spec/main.proto:2:23: unterminated string literal"],
  ["bad escape", P3 + 'option java_package = "a\\qb";', '/spec/main.proto:2:25: invalid escape sequence "\\q"'],
  ["bad octal literal", P3 + "message A { int32 a = 09; }", '/spec/main.proto:2:23: invalid octal number "09"'],
  ["unterminated block comment", P3 + "/* never closed\nmessage A {}", "/spec/main.proto:2:1: unterminated block comment"],
  ["proto2 field without label", "message A { int32 a = 1; }", '/spec/main.proto:1:13: expected "required", "optional", or "repeated", found "int32"'],
  ["label in oneof", P3 + "message A { oneof o { optional int32 a = 1; } }", "/spec/main.proto:2:23: fields in oneofs must not have labels (required / optional / repeated)"],
  ["label on map", P3 + "message A { repeated map<string, int32> m = 1; }", "/spec/main.proto:2:13: field labels (required/optional/repeated) are not allowed on map fields"],
  ["required in proto3", P3 + "message A { required int32 a = 1; }", "/spec/main.proto:2:13: required fields are not allowed in proto3"],
  ["group in proto3", P3 + "message A { optional group G = 1 {} }", "/spec/main.proto:2:22: groups are not supported in proto3"],
  ["lower-case group name", "message A { optional group g = 1 {} }", "/spec/main.proto:1:28: group names must start with a capital letter"],
  ["negative field number", P3 + "message A { int32 a = -1; }", "/spec/main.proto:2:23: field numbers must be positive integers"],
  ["empty enum", P3 + "enum E {}", '/spec/main.proto:2:1: enum "E" must contain at least one value'],
  ["two packages", "package a;\npackage b;", "/spec/main.proto:2:1: multiple package definitions"],
  ["bad rpc body", P3 + "message M {}\nservice S { rpc F(M) returns (M) { int32 x = 1; } }", '/spec/main.proto:3:36: expected "option" or "}", found "int32"'],

  // ---- semantic errors --------------------------------------------------------------------------------------
  ["unknown type", P3 + "message A {\n  Missing m = 1;\n}", '/spec/main.proto:3:3: unknown type "Missing"'],
  ["unknown qualified type", P3 + "package p;\nmessage A { p.B b = 1; }", '/spec/main.proto:3:13: unknown type "p.B"'],
  ["not a type", P3 + "message A { int32 x = 1; A.x y = 2; }", '/spec/main.proto:2:26: "A.x" is not a type (it is a field)'],
  ["duplicate field number", P3 + "message A {\n  int32 a = 1;\n  int32 b = 1;\n}", '/spec/main.proto:4:13: field number 1 has already been used in "A" by field "a"'],
  ["duplicate field name", P3 + "message A {\n  int32 a = 1;\n  string a = 2;\n}", '/spec/main.proto:4:3: "a" is already defined in "A" (first defined at /spec/main.proto:3:3)'],
  ["duplicate type name", P3 + "package p;\nmessage A {}\nenum A { Z = 0; }", '/spec/main.proto:4:1: "A" is already defined in "p" (first defined at /spec/main.proto:3:1)'],
  ["duplicate enum value name across enums", P3 + "enum A { X = 0; }\nenum B { X = 0; }", '/spec/main.proto:3:10: "X" is already defined (first defined at /spec/main.proto:2:10) (enum values use C++ scoping: they are siblings of their enum, not children of it)'],
  ["field number zero", P3 + "message A { int32 a = 0; }", "/spec/main.proto:2:23: field number 0 is out of range (1 to 536870911)"],
  ["field number too large", P3 + "message A { int32 a = 536870912; }", "/spec/main.proto:2:23: field number 536870912 is out of range (1 to 536870911)"],
  ["implementation-reserved number", P3 + "message A { int32 a = 19500; }", "/spec/main.proto:2:23: field numbers 19000 through 19999 are reserved for the protocol buffer library implementation"],
  ["reserved number used", P3 + "message A {\n  reserved 2, 5 to 8;\n  int32 a = 6;\n}", '/spec/main.proto:4:13: field "a" uses reserved number 6 in "A"'],
  ["reserved name used", P3 + 'message A {\n  reserved "a";\n  int32 a = 1;\n}', '/spec/main.proto:4:3: field name "a" is reserved in "A"'],
  ["field inside extension range", "message A {\n  extensions 10 to 20;\n  optional int32 a = 15;\n}", '/spec/main.proto:3:22: field "a" uses number 15, which is inside the extension range 10 to 20'],
  ["float map key", P3 + "message A { map<double, string> m = 1; }", '/spec/main.proto:2:17: invalid map key type "double" (must be an integral or string type)'],
  ["enum map key", P3 + "enum E { Z = 0; }\nmessage A { map<E, string> m = 1; }", '/spec/main.proto:3:17: invalid map key type "E" (must be an integral or string type)'],
  ["packed on string", P3 + "message A { repeated string s = 1 [packed = true]; }", "/spec/main.proto:2:36: [packed = true] can only be specified for repeated primitive fields"],
  ["packed on singular", "message A { optional int32 s = 1 [packed = true]; }", "/spec/main.proto:1:35: [packed = true] can only be specified for repeated primitive fields"],
  ["default in proto3", P3 + "message A { int32 a = 1 [default = 5]; }", "/spec/main.proto:2:26: explicit default values are not allowed in proto3"],
  ["default of wrong type", 'message A { optional int32 a = 1 [default = "x"]; }', '/spec/main.proto:1:45: expected an integer as default value for field "a", found "x"'],
  ["default out of range", "message A { optional uint32 a = 1 [default = -1]; }", "/spec/main.proto:1:46: default value -1 is out of range for uint32"],
  ["default not an enum value", "enum E { A = 1; }\nmessage M { optional E e = 1 [default = B]; }", '/spec/main.proto:2:41: enum "E" has no value named "B" (default of field "e")'],
  ["default on repeated", "message A { repeated int32 a = 1 [default = 1]; }", "/spec/main.proto:1:35: repeated fields can't have default values"],
  ["proto3 first enum value not zero", P3 + "enum E {\n  ONE = 1;\n  ZERO = 0;\n}", '/spec/main.proto:3:9: the first enum value must be zero in proto3 (enum "E")'],
  ["duplicate enum number without alias", P3 + "enum E {\n  A = 0;\n  B = 0;\n}", '/spec/main.proto:4:7: "B" uses the same enum value 0 as "A"; set option allow_alias = true to allow this'],
  ["reserved enum number", P3 + "enum E {\n  reserved 3;\n  A = 0;\n  B = 3;\n}", '/spec/main.proto:5:7: enum value "B" uses reserved number 3 in "E"'],
  ["closed enum in proto3", { "/spec/main.proto": P3 + 'import "e2.proto";\nmessage M { E2 e = 1; }', "/spec/e2.proto": "enum E2 { A = 1; }" } as never, '/spec/main.proto:3:13: enum "E2" is a closed (proto2) enum and cannot be used in a proto3 file'],
  ["extension outside ranges", "message A { extensions 100 to 200; }\nextend A { optional int32 x = 5; }", '/spec/main.proto:2:31: "A" does not declare 5 as an extension number'],
  ["duplicate extension number", "message A { extensions 100 to 200; }\nextend A { optional int32 x = 100; }\nextend A { optional int32 y = 100; }", '/spec/main.proto:3:31: extension number 100 has already been used in "A" by extension "x"'],
  ["extend in proto3 for non-options", P3 + "message A {}\nextend A { int32 x = 100; }", "/spec/main.proto:3:1: extensions in proto3 are only allowed for defining custom options (extending google.protobuf.*Options)"],
  ["extension ranges in proto3", P3 + "message A { extensions 100 to 200; }", "/spec/main.proto:2:13: extension ranges are not allowed in proto3"],
  ["rpc with non-message", P3 + "enum E { Z = 0; }\nmessage M {}\nservice S { rpc F(E) returns (M); }", '/spec/main.proto:4:19: "E" is not a message type'],
];

describe("proto errors", () => {
  it.each(cases)("%s", (_what, source, message) => {
    expect(parseError(source)).toBe(message);
  });

  it("reports a missing import at the import statement", () => {
    expect(parseError({ "/spec/main.proto": P3 + 'import "nope/x.proto";' }, "/spec/main.proto", ["/inc"])).toBe(
      '/spec/main.proto:2:1: import "nope/x.proto" not found (searched: /inc, /spec)',
    );
  });

  it("reports import cycles", () => {
    const files = {
      "/spec/main.proto": P3 + 'import "a.proto";',
      "/spec/a.proto": P3 + 'import "b.proto";',
      "/spec/b.proto": P3 + 'import "a.proto";',
    };
    expect(parseError(files)).toBe("/spec/b.proto:2:1: import cycle: /spec/a.proto -> /spec/b.proto -> /spec/a.proto");
  });

  it("reports types that exist but are not imported (no transitive non-public imports)", () => {
    const files = {
      "/spec/main.proto": P3 + 'import "a.proto";\nmessage M { B b = 1; }',
      "/spec/a.proto": P3 + 'import "b.proto";',
      "/spec/b.proto": P3 + "message B {}",
    };
    expect(parseError(files)).toBe('/spec/main.proto:3:13: "B" seems to be defined in "/spec/b.proto", which is not imported by "/spec/main.proto"');
  });

  it("reports errors in imported files with that file's path", () => {
    const files = { "/spec/main.proto": P3 + 'import "a.proto";', "/spec/a.proto": P3 + "message A { int32 a = 1 }" };
    expect(parseError(files)).toBe('/spec/a.proto:2:25: expected ";", found "}"');
  });
});
