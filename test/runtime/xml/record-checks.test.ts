import { describe, expect, it } from "vitest";
import { checkXsdNumber, checkXsdRecord, checkXsdString, runXsdCheck, xsdRecordRules, type ValidationIssue, type XsdRecordRules, type XsdValueCheck } from "../../../src/runtime/index.js";

/** The walk generated validators hand their property tables to: every rule, with the path and rule name it reports. */
const rules: XsdRecordRules = {
  name: "thing",
  properties: [
    { key: "req", min: 1, check: checkXsdString },
    { key: "reqNil", min: 1, nillable: true, check: checkXsdString },
    { key: "opt", check: checkXsdString },
    { key: "a/b", name: "slashed", check: checkXsdString },
    { key: "items", min: 1, list: true, max: 2, check: checkXsdString },
    { key: "nilItems", list: true, nillable: true, check: checkXsdString },
    { key: "$any", wildcard: { namespace: "##other", namespaces: { excluded: ["urn:own", ""] } } },
  ],
};
const check = (value: unknown, path: string, issues: ValidationIssue[]) => checkXsdRecord(value, rules, path, issues);
const found = (value: unknown) => runXsdCheck(value, check).map((i) => `${i.path} ${i.rule}: ${i.message}`);
const valid = { req: "r", reqNil: null, items: ["x"] };

describe("checkXsdRecord", () => {
  it.each<[string, unknown, string[]]>([
    ["a valid value", valid, []],
    ["not an object", "text", [" type: expected an object (thing)"]],
    ["an array", [], [" type: expected an object (thing)"]],
    ["missing required properties", {}, ["/req required: req is required", "/reqNil required: reqNil is required", "/items required: items is required"]],
    ["null where nil is not allowed", { ...valid, req: null, opt: null }, ["/req nullable: req is not nillable", "/opt nullable: opt is not nillable"]],
    ["a wrong value type, with the escaped key and the element name", { ...valid, "a/b": 1 }, ["/a~1b type: expected a string"]],
    ["a list that is not an array", { ...valid, items: "x" }, ["/items type: items must be an array"]],
    ["a null list", { ...valid, items: null }, ["/items nullable: items must be an array"]],
    ["too few items", { ...valid, items: [] }, ["/items minOccurs: at least 1 items"]],
    ["too many items", { ...valid, items: ["a", "b", "c"] }, ["/items maxOccurs: at most 2 items"]],
    ["null items", { ...valid, items: ["a", null], nilItems: [null, 3] }, ["/items/1 nullable: items is not nillable", "/nilItems/1 type: expected a string"]],
    ["open content that is not an array", { ...valid, $any: {} }, ["/$any type: open content must be an array"]],
    [
      "open content items and their namespaces (##other)",
      { ...valid, $any: [{ ns: "urn:x", name: "a", value: 1 }, { ns: "urn:own", name: "b" }, { ns: "", name: "c" }, { name: "d" }] },
      [
        '/$any/1/ns namespace: namespace not allowed here (xsd:any namespace="##other")',
        '/$any/2/ns namespace: namespace not allowed here (xsd:any namespace="##other")',
        "/$any/3 type: expected { ns, name, value }",
      ],
    ],
  ])("%s", (_, value, expected) => {
    expect(found(value)).toEqual(expected);
  });

  it("reports a wrong slashed element by its pointer and a missing one by its element name", () => {
    const named: XsdRecordRules = { name: "t", properties: [{ key: "a_2", name: "a", min: 1 }] };
    expect(runXsdCheck({}, (v, p, i) => checkXsdRecord(v, named, p, i))).toEqual([{ path: "/a_2", rule: "required", message: "a is required" }]);
  });

  it("checks $type in an xsi:type family: required below the root, optional at the root", () => {
    const member: XsdRecordRules = { name: "address", xsiType: "required", properties: [] };
    const root: XsdRecordRules = { name: "location", xsiType: "optional", properties: [] };
    const run = (r: XsdRecordRules, value: unknown) => runXsdCheck(value, (v, p, i) => checkXsdRecord(v, r, p, i)).map((i) => `${i.path} ${i.message}`);
    expect(run(member, { $type: "address" })).toEqual([]);
    expect(run(member, {})).toEqual(['/$type must be "address"']);
    expect(run(root, {})).toEqual([]);
    expect(run(root, { $type: "location" })).toEqual([]);
    expect(run(root, { $type: "other" })).toEqual(['/$type must be "location"']);
  });

  it("checks minOccurs and maxOccurs of open content", () => {
    const open: XsdRecordRules = { name: "t", properties: [{ key: "$any", min: 1, max: 1, wildcard: { namespace: "urn:a", namespaces: { allowed: ["urn:a"] } } }] };
    const run = (value: unknown) => runXsdCheck(value, (v, p, i) => checkXsdRecord(v, open, p, i)).map((i) => `${i.path} ${i.rule}`);
    expect(run({})).toEqual(["/$any minOccurs"]);
    expect(run({ $any: [] })).toEqual(["/$any minOccurs"]);
    expect(run({ $any: [{ ns: "urn:a", name: "x" }] })).toEqual([]);
    expect(run({ $any: [{ ns: "urn:a", name: "x" }, { ns: "urn:b", name: "y" }] })).toEqual(["/$any maxOccurs", "/$any/1/ns namespace"]);
  });
});

describe("xsdRecordRules (the tables of a generated validate.ts)", () => {
  const checks: { readonly [name: string]: XsdValueCheck } = { checkXsdString, checkXsdNumber };
  const looked: string[] = [];
  const lookup = (name: string): XsdValueCheck => {
    looked.push(name);
    return checks[name]!;
  };
  // The same record as `rules` above: [key, flags, check] lines (1 required, 2 list, 4 nillable) and the objects
  // the lines cannot express (a wire name, a bounded list, a wildcard).
  const table = xsdRecordRules("thing", [
    ["req", 1, "checkXsdString"],
    ["reqNil", 5, "checkXsdString"],
    ["opt", 0, "checkXsdString"],
    { key: "a/b", name: "slashed", check: checkXsdString },
    { key: "items", min: 1, list: true, max: 2, check: checkXsdString },
    ["nilItems", 6, "checkXsdString"],
    { key: "$any", wildcard: { namespace: "##other", namespaces: { excluded: ["urn:own", ""] } } },
    ["anything", 0],
  ], lookup);
  const run = (r: XsdRecordRules, value: unknown) => runXsdCheck(value, (v, p, i) => checkXsdRecord(v, r, p, i)).map((i) => `${i.path} ${i.rule}: ${i.message}`);

  it("resolves each named check through the lookup, once, when the table is built", () => {
    expect(looked).toEqual(["checkXsdString", "checkXsdString", "checkXsdString", "checkXsdString"]);
    expect(table.properties.map((p) => [p.key, p.min ?? 0, p.list ?? false, p.nillable ?? false, p.check?.name])).toEqual([
      ["req", 1, false, false, "checkXsdString"],
      ["reqNil", 1, false, true, "checkXsdString"],
      ["opt", 0, false, false, "checkXsdString"],
      ["a/b", 0, false, false, "checkXsdString"],
      ["items", 1, true, false, "checkXsdString"],
      ["nilItems", 0, true, true, "checkXsdString"],
      ["$any", 0, false, false, undefined],
      ["anything", 0, false, false, undefined],
    ]);
  });

  it.each<[string, unknown]>([
    ["a valid value", valid],
    ["missing required properties", {}],
    ["null where nil is not allowed", { ...valid, req: null, opt: null }],
    ["null items", { ...valid, items: ["a", null], nilItems: [null, 3] }],
    ["too many items", { ...valid, items: ["a", "b", "c"] }],
    ["open content", { ...valid, $any: [{ ns: "urn:own", name: "b" }] }],
    ["anything in an unchecked property", { ...valid, anything: { x: 1 } }],
  ])("reports what the object form reports: %s", (_, value) => {
    expect(run(table, value)).toEqual(found(value));
  });

  it("carries the xsi:type rule of a family member", () => {
    const member = xsdRecordRules("address", [["latitude", 1, "checkXsdNumber"]], lookup, "required");
    expect(run(member, { latitude: 1 })).toEqual(['/$type type: must be "address"']);
    expect(run(member, { $type: "address", latitude: "x" })).toEqual(["/latitude type: expected a number"]);
  });
});
