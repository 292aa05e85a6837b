import { describe, expect, it } from "vitest";
import { enumType, field, parse, parseError } from "./helpers.js";

const E = 'edition = "2023";\n';

describe("editions: features lowered into proto2/proto3 facts", () => {
  it("resolves presence, packing, delimited encoding and UTF-8 from file and field features", () => {
    const doc = parse(
      E +
        `option features.field_presence = IMPLICIT;
option features.utf8_validation = NONE;
message Inner { int32 a = 1; }
message M {
  int32 plain = 1;
  int32 explicit = 2 [features.field_presence = EXPLICIT];
  int32 req = 3 [features.field_presence = LEGACY_REQUIRED];
  Inner msg = 4;
  Inner grp = 5 [features.message_encoding = DELIMITED];
  repeated int32 packed = 6;
  repeated int32 expanded = 7 [features.repeated_field_encoding = EXPANDED];
  string lax = 8;
  string strict = 9 [features.utf8_validation = VERIFY];
  oneof o { int32 choice = 10; }
  int32 with_default = 11 [features.field_presence = EXPLICIT, default = 7];
}`,
    );
    const f = (name: string) => field(doc, "proto:.M", name);
    expect(f("plain")).toMatchObject({ occurs: { min: 1, max: 1 }, wire: { proto: { label: "implicit" } } });
    expect(f("explicit")).toMatchObject({ occurs: { min: 0, max: 1 }, wire: { proto: { label: "optional" } } });
    expect(f("req")).toMatchObject({ occurs: { min: 1, max: 1 }, wire: { proto: { label: "required" } } });
    // Message fields track presence whatever the file default says.
    expect(f("msg").wire.proto).toMatchObject({ label: "optional" });
    expect(f("msg").wire.proto?.group).toBeUndefined();
    expect(f("grp").wire.proto).toMatchObject({ label: "optional", group: true });
    expect(f("packed").wire.proto?.packed).toBe(true);
    expect(f("expanded").wire.proto?.packed).toBe(false);
    expect(f("lax").wire.proto?.validateUtf8).toBe(false);
    expect(f("strict").wire.proto?.validateUtf8).toBe(true);
    expect(f("choice").wire.proto).toMatchObject({ label: "optional" });
    expect(f("with_default").wire.proto).toMatchObject({ label: "optional", default: "7" });
    // Features are consumed, not carried on as options of the generated code.
    expect(f("expanded").wire.proto?.options).toBeUndefined();
  });

  it("uses the edition's defaults: explicit presence, open enums, packed, UTF-8 checked", () => {
    const doc = parse(E + "enum Color { RED = 0; }\nmessage M { int32 a = 1; repeated Color c = 2; string s = 3; }");
    expect(field(doc, "proto:.M", "a").wire.proto).toMatchObject({ label: "optional" });
    expect(field(doc, "proto:.M", "c").wire.proto).toMatchObject({ label: "repeated", packed: true });
    expect(field(doc, "proto:.M", "s").wire.proto).toMatchObject({ validateUtf8: true });
    expect(enumType(doc, "proto:.Color").closed).toBe(false);
  });

  it("closes enums by file or enum feature", () => {
    const doc = parse(E + "option features.enum_type = CLOSED;\nenum A { X = 1; }\nenum B { option features.enum_type = OPEN; Y = 0; }");
    expect(enumType(doc, "proto:.A").closed).toBe(true);
    expect(enumType(doc, "proto:.B").closed).toBe(false);
  });

  it("accepts edition 2024 and reserved names as identifiers", () => {
    const doc = parse('edition = "2024";\nmessage M { reserved old, older; int32 a = 1; }');
    expect(doc.types[0]).toMatchObject({ reserved: { names: ["old", "older"] } });
  });

  it("skips the JSON name check under LEGACY_BEST_EFFORT", () => {
    const doc = parse(E + "message M {\n  option features.json_format = LEGACY_BEST_EFFORT;\n  int32 foo_bar = 1;\n  int32 fooBar = 2;\n}");
    expect(field(doc, "proto:.M", "fooBar").wire.proto?.jsonName).toBe("fooBar");
  });
});

/** [what, source of /spec/main.proto, exact message]; line 1 is the edition statement. */
const errors: [string, string, string][] = [
  ["optional label", E + "message M { optional int32 a = 1; }", '/spec/main.proto:2:13: the "optional" label is not allowed in editions; use [features.field_presence = EXPLICIT] (the default)'],
  ["required label", E + "message M { required int32 a = 1; }", '/spec/main.proto:2:13: the "required" label is not allowed in editions; use [features.field_presence = LEGACY_REQUIRED]'],
  ["group syntax", E + "message M { repeated group G = 1 {} }", "/spec/main.proto:2:22: groups are not supported in editions; declare a message and use [features.message_encoding = DELIMITED] on the field"],
  ["packed option", E + "message M { repeated int32 a = 1 [packed = true]; }", "/spec/main.proto:2:35: the packed option is not allowed in editions; use [features.repeated_field_encoding = PACKED] or EXPANDED"],
  ["string reserved names", E + 'message M { reserved "a"; }', "/spec/main.proto:2:22: reserved names must be identifiers in editions, not string literals"],
  ["edition not first", 'syntax = "proto3";\nedition = "2023";', "/spec/main.proto:2:1: the edition statement must be the first statement of the file"],
  ["unknown feature", E + "option features.colour = RED;", '/spec/main.proto:2:8: unknown feature "colour" (known: field_presence, enum_type, repeated_field_encoding, utf8_validation, message_encoding, json_format)'],
  ["bad feature value", E + "option features.enum_type = AJAR;", "/spec/main.proto:2:29: expected OPEN or CLOSED for features.enum_type, found AJAR"],
  ["feature on the wrong target", E + "message M { option features.field_presence = IMPLICIT; }", "/spec/main.proto:2:20: features.field_presence cannot be set on a message (only on: field, file)"],
  ["features outside editions", 'syntax = "proto2";\noption features.enum_type = OPEN;', "/spec/main.proto:2:8: features are only valid under editions (this file is proto2)"],
  ["presence on a repeated field", E + "message M { repeated int32 a = 1 [features.field_presence = EXPLICIT]; }", "/spec/main.proto:2:35: repeated fields cannot specify features.field_presence"],
  ["presence in a oneof", E + "message M { oneof o { int32 a = 1 [features.field_presence = IMPLICIT]; } }", "/spec/main.proto:2:36: oneof fields cannot specify features.field_presence"],
  ["implicit message field", E + "message M { M m = 1 [features.field_presence = IMPLICIT]; }", "/spec/main.proto:2:22: message fields cannot specify implicit presence"],
  ["implicit closed enum", E + "enum C { option features.enum_type = CLOSED; X = 1; }\nmessage M { C c = 1 [features.field_presence = IMPLICIT]; }", '/spec/main.proto:3:13: enum "C" is closed and cannot be used by field "c", which has implicit presence'],
  ["implicit default", E + "message M { int32 a = 1 [features.field_presence = IMPLICIT, default = 3]; }", "/spec/main.proto:2:62: fields with implicit presence cannot have default values"],
  ["open enum starting above zero", E + "enum E { X = 1; }", '/spec/main.proto:2:14: the first enum value must be zero for open enums (enum "E")'],
  ["delimited scalar", E + "message M { int32 a = 1 [features.message_encoding = DELIMITED]; }", "/spec/main.proto:2:26: only message fields can specify features.message_encoding"],
  ["packed string", E + "message M { repeated string s = 1 [features.repeated_field_encoding = PACKED]; }", "/spec/main.proto:2:36: only repeated primitive fields (numbers, bools, enums) can be PACKED"],
  ["utf8 on an int", E + "message M { int32 a = 1 [features.utf8_validation = NONE]; }", "/spec/main.proto:2:26: only string fields can specify features.utf8_validation"],
  ["default JSON names clash", E + "message M { int32 foo_bar = 1; int32 fooBar = 2; }", '/spec/main.proto:2:32: the default JSON name of field "fooBar" ("fooBar") conflicts with the default JSON name of field "foo_bar" in "M"'],
  ["json_name clash", E + 'message M { int32 a = 1; int32 b = 2 [json_name = "a"]; }', '/spec/main.proto:2:26: the JSON name of field "b" ("a") conflicts with the JSON name of field "a" in "M"'],
];

describe("editions errors", () => {
  it.each(errors)("%s", (_, source, message) => {
    expect(parseError(source)).toBe(message);
  });
});
