import { describe, expect, it } from "vitest";
import { enumType, field, fields, parse, record } from "./helpers.js";

describe("proto messages and fields", () => {
  it("lowers a proto3 message with scalars, labels and implicit presence", () => {
    const doc = parse(`
      syntax = "proto3";
      package shop.v1;
      message Item {
        string name = 1;
        optional int64 price = 2;
        repeated string tags = 3;
        bool active = 4;
        Item parent = 5;
        bytes blob = 6;
      }
    `);
    expect(doc).toMatchObject({ format: "proto", files: ["main.proto"], info: { namespaces: ["shop.v1"], syntax: "proto3" } });
    const item = record(doc, "proto:.shop.v1.Item");
    expect(item).toMatchObject({
      name: "Item",
      scope: "shop.v1",
      origin: { file: "main.proto", line: 4, column: 7, pointer: ".shop.v1.Item", construct: "proto message .shop.v1.Item" },
    });
    expect(fields(item).map((f) => [f.name, f.type, f.occurs, f.wire.proto?.label])).toEqual([
      ["name", { kind: "scalar", scalar: "string" }, { min: 1, max: 1 }, "implicit"],
      ["price", { kind: "scalar", scalar: "int64" }, { min: 0, max: 1 }, "optional"],
      ["tags", { kind: "scalar", scalar: "string" }, { min: 0, max: "unbounded" }, "repeated"],
      ["active", { kind: "scalar", scalar: "boolean" }, { min: 1, max: 1 }, "implicit"],
      // Message fields always track presence, even without a label.
      ["parent", { kind: "ref", id: "proto:.shop.v1.Item" }, { min: 0, max: 1 }, "implicit"],
      ["blob", { kind: "scalar", scalar: "bytes" }, { min: 1, max: 1 }, "implicit"],
    ]);
    expect(field(doc, "proto:.shop.v1.Item", "name")).toMatchObject({
      nullable: false,
      origin: { line: 5, column: 9, pointer: ".shop.v1.Item.name", construct: "proto field .shop.v1.Item.name" },
      wire: { proto: { number: 1, jsonName: "name" }, json: { key: "name" } },
    });
  });

  it("lowers proto2 labels", () => {
    const doc = parse(`
      message M {
        required int32 a = 1;
        optional sint64 b = 2;
        repeated fixed32 c = 3;
      }
    `);
    expect(doc.info.syntax).toBe("proto2");
    expect(doc.info.namespaces).toEqual([]);
    const m = record(doc, "proto:.M");
    expect(m.scope).toBe("");
    expect(fields(m).map((f) => [f.name, f.occurs, f.wire.proto?.label, f.wire.proto?.packed])).toEqual([
      ["a", { min: 1, max: 1 }, "required", undefined],
      ["b", { min: 0, max: 1 }, "optional", undefined],
      ["c", { min: 0, max: "unbounded" }, "repeated", undefined],
    ]);
  });

  it("maps every scalar keyword", () => {
    const names = ["double", "float", "int32", "int64", "uint32", "uint64", "sint32", "sint64", "fixed32", "fixed64", "sfixed32", "sfixed64", "bool", "string", "bytes"];
    const doc = parse(`syntax = "proto3"; message S { ${names.map((n, i) => `${n} f_${n} = ${i + 1};`).join(" ")} }`);
    expect(fields(record(doc, "proto:.S")).map((f) => (f.type.kind === "scalar" ? f.type.scalar : f.type.kind))).toEqual(
      names.map((n) => (n === "bool" ? "boolean" : n)),
    );
  });

  it("flattens nested messages and enums, parent first, in declaration order", () => {
    const doc = parse(`
      syntax = "proto3";
      package p;
      message Outer {
        message Inner { enum Kind { K_UNSPECIFIED = 0; } Kind kind = 1; }
        enum Color { RED = 0; }
        Inner inner = 1;
        Inner.Kind kind = 2;
        Color color = 3;
      }
      message Other { Outer.Inner x = 1; .p.Outer.Color c = 2; }
    `);
    expect(doc.types.map((t) => t.id)).toEqual([
      "proto:.p.Outer",
      "proto:.p.Outer.Inner",
      "proto:.p.Outer.Inner.Kind",
      "proto:.p.Outer.Color",
      "proto:.p.Other",
    ]);
    expect(record(doc, "proto:.p.Outer.Inner")).toMatchObject({ name: "Inner", scope: "p" });
    expect(field(doc, "proto:.p.Outer", "kind").type).toEqual({ kind: "ref", id: "proto:.p.Outer.Inner.Kind" });
    expect(field(doc, "proto:.p.Outer.Inner", "kind").type).toEqual({ kind: "ref", id: "proto:.p.Outer.Inner.Kind" });
    expect(field(doc, "proto:.p.Other", "x").type).toEqual({ kind: "ref", id: "proto:.p.Outer.Inner" });
    expect(field(doc, "proto:.p.Other", "c").type).toEqual({ kind: "ref", id: "proto:.p.Outer.Color" });
  });

  it("resolves names innermost scope first, then outwards through the package", () => {
    const doc = parse(`
      syntax = "proto3";
      package a.b;
      message T {}
      message M {
        message T {}
        T inner = 1;      // M.T shadows a.b.T
        b.T outer = 2;    // "b" found as package a.b
        a.b.T full = 3;
      }
    `);
    expect(field(doc, "proto:.a.b.M", "inner").type).toEqual({ kind: "ref", id: "proto:.a.b.M.T" });
    expect(field(doc, "proto:.a.b.M", "outer").type).toEqual({ kind: "ref", id: "proto:.a.b.T" });
    expect(field(doc, "proto:.a.b.M", "full").type).toEqual({ kind: "ref", id: "proto:.a.b.T" });
  });

  it("lowers oneof to a choice group", () => {
    const doc = parse(`
      syntax = "proto3";
      message Pet {
        string id = 1;
        // Which kind.
        oneof kind {
          string dog = 2;
          int32 cat = 3;
        }
        string after = 4;
      }
    `);
    const pet = record(doc, "proto:.Pet");
    expect(pet.members.map((m) => m.kind)).toEqual(["field", "group", "field"]);
    expect(pet.members[1]).toMatchObject({
      kind: "group",
      compositor: "choice",
      oneofName: "kind",
      occurs: { min: 0, max: 1 },
      doc: "Which kind.",
      origin: { pointer: ".Pet.kind", construct: "proto oneof .Pet.kind" },
      members: [
        { name: "dog", occurs: { min: 0, max: 1 }, wire: { proto: { number: 2, label: "optional" } } },
        { name: "cat", occurs: { min: 0, max: 1 }, wire: { proto: { number: 3, label: "optional" } } },
      ],
    });
  });

  it("lowers map fields", () => {
    const doc = parse(`
      syntax = "proto3";
      message V {}
      message M {
        map<string, V> by_name = 1;
        map<int64, string> labels = 2;
      }
    `);
    expect(field(doc, "proto:.M", "by_name")).toMatchObject({
      type: { kind: "map", key: { kind: "scalar", scalar: "string" }, value: { kind: "ref", id: "proto:.V" } },
      occurs: { min: 0, max: 1 },
      wire: { proto: { number: 1, label: "repeated", jsonName: "byName" } },
    });
    expect(field(doc, "proto:.M", "labels").type).toEqual({
      kind: "map",
      key: { kind: "scalar", scalar: "int64" },
      value: { kind: "scalar", scalar: "string" },
    });
    expect(field(doc, "proto:.M", "labels").wire.proto?.packed).toBeUndefined();
    // No synthetic map-entry messages appear in the IR.
    expect(doc.types.map((t) => t.id)).toEqual(["proto:.V", "proto:.M"]);
  });

  it("lowers proto2 groups to a group record plus a field", () => {
    const doc = parse(`
      package g;
      message M {
        optional int32 a = 1;
        // The result.
        repeated group Result = 2 {
          required string url = 3;
        }
        oneof choice {
          group Pick = 4 { optional int32 v = 5; }
        }
      }
    `);
    expect(doc.types.map((t) => t.id)).toEqual(["proto:.g.M", "proto:.g.M.Result", "proto:.g.M.Pick"]);
    expect(record(doc, "proto:.g.M.Result")).toMatchObject({ name: "Result", protoGroup: true, anonymous: true, doc: "The result." });
    expect(field(doc, "proto:.g.M", "result")).toMatchObject({
      type: { kind: "ref", id: "proto:.g.M.Result" },
      occurs: { min: 0, max: "unbounded" },
      wire: { proto: { number: 2, label: "repeated", group: true, jsonName: "result" } },
    });
    expect(field(doc, "proto:.g.M", "pick")).toMatchObject({ type: { kind: "ref", id: "proto:.g.M.Pick" }, wire: { proto: { group: true } } });
    expect(fields(record(doc, "proto:.g.M.Result"))).toMatchObject([{ name: "url", wire: { proto: { number: 3, label: "required" } } }]);
  });

  it("keeps extension ranges and reserved declarations", () => {
    const doc = parse(`
      message M {
        extensions 100 to 199, 500, 1000 to max;
        reserved 2, 15, 9 to 11;
        reserved "foo", "bar";
        optional int32 a = 1;
      }
    `);
    expect(record(doc, "proto:.M")).toMatchObject({
      extensionRanges: [
        { from: 100, to: 199 },
        { from: 500, to: 500 },
        { from: 1000, to: 536870911 },
      ],
      reserved: { ranges: [{ from: 2, to: 2 }, { from: 15, to: 15 }, { from: 9, to: 11 }], names: ["foo", "bar"] },
    });
  });

  it("keeps proto2 defaults (strings unescaped, integers in decimal)", () => {
    const doc = parse(`
      enum E { A = 1; B = 2; }
      message D {
        optional string s = 1 [default = "a\\tb\\x41\\101\\u00e9" "!"];
        optional int32 i = 2 [default = -0x10];
        optional uint64 u = 3 [default = 18446744073709551615];
        optional double d = 4 [default = -inf];
        optional float f = 5 [default = 1.5e3];
        optional bool b = 6 [default = true];
        optional E e = 7 [default = B];
        optional bytes y = 8 [default = "\\001\\377"];
        optional int32 o = 9 [default = 017];
        optional string utf = 10 [default = "\\341\\210\\264"];
      }
    `);
    const defaults = fields(record(doc, "proto:.D")).map((f) => f.wire.proto?.default);
    expect(defaults).toEqual(["a\tbAAé!", "-16", "18446744073709551615", "-inf", "1.5e3", "true", "B", "\u0001\u00ff", "15", "ሴ"]);
  });

  it("handles packed: explicit option and the proto3 default", () => {
    const p3 = parse(`
      syntax = "proto3";
      enum E { Z = 0; }
      message M {
        repeated int32 a = 1;
        repeated int32 b = 2 [packed = false];
        repeated string c = 3;
        repeated E d = 4;
        repeated M e = 5;
        int32 f = 6;
      }
    `);
    expect(fields(record(p3, "proto:.M")).map((f) => f.wire.proto?.packed)).toEqual([true, false, undefined, true, undefined, undefined]);
    const p2 = parse(`message M { repeated int32 a = 1 [packed = true]; repeated int32 b = 2; }`);
    expect(fields(record(p2, "proto:.M")).map((f) => f.wire.proto?.packed)).toEqual([true, undefined]);
  });

  it("reads json_name, jstype, deprecated and custom options", () => {
    const doc = parse({
      // A stand-in for descriptor.proto: just enough to extend FieldOptions.
      "/spec/google/protobuf/descriptor.proto": `package google.protobuf; message FieldOptions { extensions 1000 to max; }`,
      "/spec/main.proto": `
      syntax = "proto3";
      import "google/protobuf/descriptor.proto";
      package o;
      extend google.protobuf.FieldOptions { string my_opt = 50000; }
      message M {
        option deprecated = true;
        int64 big_id = 1 [jstype = JS_STRING, json_name = "ID", deprecated = true, (my_opt) = "x", (o.my_opt) = "y"];
        string foo_bar_baz = 2 [ctype = CORD, lazy = false];
        string _under__score = 3;
      }
    `,
    });
    const m = record(doc, "proto:.o.M");
    expect(m.deprecated).toBe(true);
    expect(field(doc, "proto:.o.M", "big_id")).toMatchObject({
      deprecated: true,
      wire: { proto: { jsonName: "ID", jstype: "JS_STRING", options: { "(my_opt)": "x", "(o.my_opt)": "y" } }, json: { key: "ID" } },
    });
    expect(field(doc, "proto:.o.M", "foo_bar_baz").wire).toEqual({
      proto: { number: 2, label: "implicit", jsonName: "fooBarBaz", options: { ctype: "CORD", lazy: false } },
      json: { key: "fooBarBaz" },
    });
    expect(field(doc, "proto:.o.M", "_under__score").wire.proto?.jsonName).toBe("UnderScore");
  });
});

describe("proto enums", () => {
  it("lowers enums with aliases, negative values, docs and closedness", () => {
    const doc = parse(`
      package e;
      // Status of a thing.
      enum Status {
        option allow_alias = true;
        UNKNOWN = 0;
        OK = 1; // all good
        FINE = 1 [deprecated = true];
        BAD = -2;
        HEX = 0x10;
      }
    `);
    expect(enumType(doc, "proto:.e.Status")).toMatchObject({
      name: "Status",
      scope: "e",
      doc: "Status of a thing.",
      base: { kind: "scalar", scalar: "int32" },
      allowAlias: true,
      closed: true,
      origin: { construct: "proto enum .e.Status" },
      values: [
        { name: "UNKNOWN", value: "UNKNOWN", number: 0 },
        { name: "OK", value: "OK", number: 1, doc: "all good" },
        { name: "FINE", number: 1, deprecated: true, origin: { pointer: ".e.Status.FINE", construct: "proto enum value .e.Status.FINE" } },
        { name: "BAD", number: -2 },
        { name: "HEX", number: 16 },
      ],
    });
  });

  it("marks proto3 enums open", () => {
    const doc = parse(`syntax = "proto3"; enum E { E_ZERO = 0; E_ONE = 1; reserved 5 to max; reserved "OLD"; }`);
    expect(enumType(doc, "proto:.E")).toMatchObject({ closed: false });
    expect(enumType(doc, "proto:.E").allowAlias).toBeUndefined();
  });
});

describe("proto extensions", () => {
  it("lowers extend blocks, nested extends and extension groups", () => {
    const doc = parse(`
      package x;
      message Base { extensions 100 to max; }
      // On the extend block (protoc keeps this one on the block, not the field).
      extend Base {
        // Top-level extension.
        optional int32 count = 100;
      }
      message Holder {
        extend Base {
          repeated string names = 101;
          optional group Blob = 102 { optional bytes data = 1; }
        }
      }
    `);
    expect(doc.extensions.map((e) => [e.fullName, e.extendee, e.field.name, e.field.wire.proto?.number])).toEqual([
      ["x.count", "proto:.x.Base", "count", 100],
      ["x.Holder.names", "proto:.x.Base", "names", 101],
      ["x.Holder.blob", "proto:.x.Base", "blob", 102],
    ]);
    expect(doc.extensions[0]).toMatchObject({
      field: { doc: "Top-level extension.", occurs: { min: 0, max: 1 }, origin: { construct: "proto extension .x.count" } },
      origin: { pointer: ".x.count", line: 7, column: 9 },
    });
    expect(doc.extensions[2]!.field).toMatchObject({ type: { kind: "ref", id: "proto:.x.Holder.Blob" }, wire: { proto: { group: true } } });
    expect(doc.types.map((t) => t.id)).toEqual(["proto:.x.Base", "proto:.x.Holder", "proto:.x.Holder.Blob"]);
  });
});

describe("proto services", () => {
  it("lowers services with streaming and options", () => {
    const doc = parse(`
      syntax = "proto3";
      package chat.v1;
      message Req {} message Res {}
      // Chat service.
      service Chat {
        option deprecated = true;
        // Say one thing.
        rpc Say(Req) returns (Res);
        rpc Listen(Req) returns (stream Res) { option idempotency_level = NO_SIDE_EFFECTS; }
        rpc Upload(stream .chat.v1.Req) returns (Res) { option deprecated = true; };
        rpc Talk(stream Req) returns (stream chat.v1.Res) {}
      }
    `);
    expect(doc.services).toMatchObject([
      {
        kind: "rpc",
        name: "Chat",
        fullName: "chat.v1.Chat",
        doc: "Chat service.",
        deprecated: true,
        origin: { pointer: ".chat.v1.Chat", construct: "proto service .chat.v1.Chat" },
        methods: [
          { name: "Say", input: "proto:.chat.v1.Req", output: "proto:.chat.v1.Res", clientStreaming: false, serverStreaming: false, doc: "Say one thing." },
          { name: "Listen", clientStreaming: false, serverStreaming: true, options: { idempotency_level: "NO_SIDE_EFFECTS" } },
          { name: "Upload", clientStreaming: true, serverStreaming: false, deprecated: true, origin: { construct: "proto rpc .chat.v1.Chat.Upload" } },
          { name: "Talk", clientStreaming: true, serverStreaming: true },
        ],
      },
    ]);
  });
});

describe("proto imports", () => {
  const common = `syntax = "proto3"; package common; message Money { int64 cents = 1; }`;
  const reexport = `syntax = "proto3"; package re; import public "lib/common.proto"; message Wrapper { common.Money m = 1; }`;

  it("resolves imports against include dirs and the entry directory, once each, entry first", () => {
    const doc = parse(
      {
        "/spec/main.proto": `syntax = "proto3"; package app; import "lib/common.proto"; import "local.proto"; message Order { common.Money total = 1; Local l = 2; }`,
        "/inc/lib/common.proto": common,
        "/spec/local.proto": `syntax = "proto3"; package app; import "lib/common.proto"; message Local { common.Money m = 1; }`,
      },
      "/spec/main.proto",
      ["/inc"],
    );
    expect(doc.files).toEqual(["main.proto", "../inc/lib/common.proto", "local.proto"]);
    expect(doc.info.namespaces).toEqual(["app", "common"]);
    expect(doc.types.map((t) => t.id)).toEqual(["proto:.app.Order", "proto:.common.Money", "proto:.app.Local"]);
    expect(field(doc, "proto:.app.Order", "total").type).toEqual({ kind: "ref", id: "proto:.common.Money" });
    expect(record(doc, "proto:.common.Money").origin.file).toBe("../inc/lib/common.proto");
  });

  it("follows import public transitively", () => {
    const doc = parse({
      "/spec/main.proto": `syntax = "proto3"; import "re.proto"; message Use { common.Money m = 1; re.Wrapper w = 2; }`,
      "/spec/re.proto": reexport,
      "/spec/lib/common.proto": common,
    });
    expect(field(doc, "proto:.Use", "m").type).toEqual({ kind: "ref", id: "proto:.common.Money" });
    expect(doc.files).toEqual(["main.proto", "re.proto", "lib/common.proto"]);
  });

  it("accepts weak imports", () => {
    const doc = parse({ "/spec/main.proto": `import weak "w.proto"; message A { optional W w = 1; }`, "/spec/w.proto": `message W {}` });
    expect(field(doc, "proto:.A", "w").type).toEqual({ kind: "ref", id: "proto:.W" });
  });
});

describe("proto comments", () => {
  it("attaches leading and trailing comments as doc, not detached ones", () => {
    const doc = parse(`
      syntax = "proto3";

      // Detached: separated by a blank line.

      /**
       * A person.
       *   Indented line.
       */
      message Person {
        // The name.
        // Second line.
        string name = 1; // trailing
        int32 age = 2; // age trailing
        // leading of email
        string email = 3;

        /* block */ string nick = 4;
      }
    `);
    const p = record(doc, "proto:.Person");
    expect(p.doc).toBe("A person.\n  Indented line.");
    expect(fields(p).map((f) => f.doc)).toEqual(["The name.\nSecond line.\ntrailing", "age trailing", "leading of email", "block"]);
  });
});
