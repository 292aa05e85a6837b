import { describe, expect, it } from "vitest";
import { typeIdentifier } from "../../src/naming/identifier.js";

describe("typeIdentifier", () => {
  it.each([
    ["SaveResult", "SaveResult"],
    ["sObject", "SObject"],
    ["my-type.name", "MyTypeName"],
    ["Parent.child", "ParentChild"],
    ["1stThing", "_1stThing"],
    ["Error", "Error$"],
    ["constructor", "Constructor"],
    ["__proto__", "__proto__$"],
    ["string", "String$"],
    ["größe", "Größe"],
    ["", "_"],
    ["***", "_"],
  ])("%j -> %j", (input, want) => {
    expect(typeIdentifier(input)).toBe(want);
  });
});
