import { describe, expect, it } from "vitest";
import { findFeedPages } from "../../../src/emitters/proto-http/find-pages.js";
import type { Field } from "../../../src/ir/model.js";
import { doc, field, record, ref, scalar } from "../../helpers/ir.js";

const proto = (f: Field): Field => ({ ...f, wire: { proto: { number: 1, label: "optional", jsonName: f.name } } });
const next = proto(field("next_request_url", scalar("string"), { min: 0 }));
const repeated = (name: string, id: string) => proto(field(name, ref(id), { min: 0, max: "unbounded" }));
const item = record("proto:.p.Item", []);

describe("findFeedPages", () => {
  it("finds a message with next_request_url and one repeated message field", () => {
    const page = record("proto:.p.Page", [next, repeated("item", "proto:.p.Item")]);
    const pages = findFeedPages(doc([item, page], { format: "proto" }));
    expect(pages.map((p) => [p.page.id, p.items.name, p.itemType])).toEqual([["proto:.p.Page", "item", "proto:.p.Item"]]);
  });

  it.each([
    ["no next link", [repeated("item", "proto:.p.Item")]],
    ["a next link that is not a string", [proto(field("next_request_url", scalar("int32"))), repeated("item", "proto:.p.Item")]],
    ["two repeated message fields", [next, repeated("a", "proto:.p.Item"), repeated("b", "proto:.p.Item")]],
    ["only repeated scalars", [next, proto(field("ids", scalar("int32"), { min: 0, max: "unbounded" }))]],
  ])("ignores a message with %s", (_, members) => {
    expect(findFeedPages(doc([item, record("proto:.p.Page", members)], { format: "proto" }))).toEqual([]);
  });

  it("ignores documents that are not proto", () => {
    expect(findFeedPages(doc([item, record("x:Page", [next, repeated("item", "proto:.p.Item")])]))).toEqual([]);
  });
});
