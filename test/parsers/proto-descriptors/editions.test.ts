/**
 * Editions through the descriptor front end: a file that sets every wire-relevant feature at file, enum and field
 * level, compiled by buf (which hands only the explicitly set features to a plugin), lowers to the IR facts the
 * text parser produces from the same file, and to the facts the features mean. Edition 2024 resolves the same way.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { FileDescriptorProto } from "@bufbuild/protobuf/wkt";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { EnumType, Field, IrDocument, RecordType } from "../../../src/ir/model.js";
import { nodeSpecHost } from "../../../src/parsers/host.js";
import { lowerDescriptors } from "../../../src/parsers/proto-descriptors/index.js";
import { parseProto } from "../../../src/parsers/proto/index.js";
import { bufDescriptors } from "./descriptor-sets.js";

const spec = (edition: string, pkg: string): string => `edition = "${edition}";
package ${pkg};
option features.utf8_validation = NONE;
option features.enum_type = CLOSED;
option features.message_encoding = DELIMITED;

enum Closed { CLOSED_A = 1; }
enum Open { option features.enum_type = OPEN; OPEN_ZERO = 0; }

message M {
  int32 explicit_int = 1;
  int32 implicit_int = 2 [features.field_presence = IMPLICIT];
  int32 required_int = 3 [features.field_presence = LEGACY_REQUIRED];
  repeated int32 packed_ints = 4;
  repeated int32 expanded_ints = 5 [features.repeated_field_encoding = EXPANDED];
  string unchecked = 6;
  string checked = 7 [features.utf8_validation = VERIFY];
  M delimited_child = 8;
  M prefixed_child = 9 [features.message_encoding = LENGTH_PREFIXED];
  map<string, int32> unchecked_map = 10;
  oneof choice { string one_text = 11; M one_child = 12; }
  Closed closed_enum = 13;
  Open open_enum = 14;
  repeated Open packed_enums = 15;
}
`;

/** What each field of M means on the wire: [name, label, packed, group (delimited), validateUtf8]. */
const EXPECTED_FIELDS = [
  ["explicit_int", "optional", undefined, undefined, undefined],
  ["implicit_int", "implicit", undefined, undefined, undefined],
  ["required_int", "required", undefined, undefined, undefined],
  ["packed_ints", "repeated", true, undefined, undefined],
  ["expanded_ints", "repeated", false, undefined, undefined],
  ["unchecked", "optional", undefined, undefined, false],
  ["checked", "optional", undefined, undefined, true],
  ["delimited_child", "optional", undefined, true, undefined],
  ["prefixed_child", "optional", undefined, undefined, undefined],
  ["unchecked_map", "repeated", undefined, undefined, false],
  ["one_text", "optional", undefined, undefined, false],
  ["one_child", "optional", undefined, true, undefined],
  ["closed_enum", "optional", undefined, undefined, undefined],
  ["open_enum", "optional", undefined, undefined, undefined],
  ["packed_enums", "repeated", true, undefined, undefined],
];

function fieldFacts(doc: IrDocument, id: string): unknown[][] {
  const m = doc.types.find((t) => t.id === id) as RecordType;
  const fields = m.members.flatMap((x): Field[] => (x.kind === "field" ? [x] : x.kind === "group" ? (x.members as Field[]) : []));
  return fields.map((f) => [f.name, f.wire.proto!.label, f.wire.proto!.packed, f.wire.proto!.group, f.wire.proto!.validateUtf8]);
}

const closedness = (doc: IrDocument): unknown[][] => doc.types.filter((t): t is EnumType => t.kind === "enum").map((e) => [e.name, e.closed]);

const dir = mkdtempSync(path.join(tmpdir(), "specforge-editions-desc-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("editions features through descriptors", () => {
  let buf: FileDescriptorProto[];
  beforeAll(() => {
    writeFileSync(path.join(dir, "features2023.proto"), spec("2023", "f2023"));
    writeFileSync(path.join(dir, "features2024.proto"), spec("2024", "f2024"));
    buf = bufDescriptors(dir);
  });

  it.each([
    ["2023", "f2023"],
    ["2024", "f2024"],
  ])("edition %s: file, enum and field features resolve to the same IR facts as the text parser's", (edition, pkg) => {
    const file = `features${edition}.proto`;
    // buf passes on only what a declaration sets itself; resolution is the front end's job.
    expect(buf.find((f) => f.name === file)!.messageType[0]!.field[0]!.options).toBeUndefined();
    const fromDescriptors = lowerDescriptors(buf, file);
    const fromText = parseProto(path.join(dir, file), nodeSpecHost({}));
    expect(fieldFacts(fromDescriptors, `proto:.${pkg}.M`)).toEqual(EXPECTED_FIELDS);
    expect(fieldFacts(fromText, `proto:.${pkg}.M`)).toEqual(EXPECTED_FIELDS);
    expect(closedness(fromDescriptors)).toEqual([
      ["Closed", true],
      ["Open", false],
    ]);
    expect(closedness(fromText)).toEqual(closedness(fromDescriptors));
    expect(fromDescriptors.info.syntax).toBe("editions");
    // A delimited field's message is an ordinary message, not an anonymous proto2 group.
    expect((fromDescriptors.types.find((t) => t.id === `proto:.${pkg}.M`) as RecordType).protoGroup).toBeUndefined();
  });
});
