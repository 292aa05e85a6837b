import { describe, expect, it } from "vitest";
import { negotiateMediaType } from "../../../src/runtime/http/accept.js";

const OFFERED = ["application/x-protobuf", "application/protobuf", "application/json"];

describe("negotiateMediaType", () => {
  it.each([
    [null, "application/x-protobuf"],
    ["", "application/x-protobuf"],
    ["*/*", "application/x-protobuf"],
    ["application/json", "application/json"],
    ["Application/JSON; charset=utf-8", "application/json"],
    ["application/protobuf", "application/protobuf"],
    ["application/*", "application/x-protobuf"],
    ["application/json, application/x-protobuf;q=0.5", "application/json"],
    ["application/json;q=0.2, */*;q=0.1", "application/json"],
    ["application/x-protobuf;q=0, application/json", "application/json"],
    ["text/html, */*;q=0.5", "application/x-protobuf"],
    ["application/*;q=0, application/json", "application/json"],
  ])("Accept %j -> %s", (accept, want) => {
    expect(negotiateMediaType(accept, OFFERED)).toBe(want);
  });

  it.each([["text/html"], ["application/xml, text/*"], ["*/*;q=0"], ["application/json;q=0, application/*;q=0"], ["garbage"]])(
    "Accept %j -> nothing acceptable",
    (accept) => {
      expect(negotiateMediaType(accept, OFFERED)).toBeUndefined();
    },
  );

  it("looks at a bounded number of ranges", () => {
    const hostile = `${"text/plain, ".repeat(10_000)}application/json`;
    expect(negotiateMediaType(hostile, OFFERED)).toBeUndefined();
  });
});
