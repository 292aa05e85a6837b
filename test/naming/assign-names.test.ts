import { describe, expect, it } from "vitest";
import { assignNames } from "../../src/naming/assign-names.js";
import { doc, enumType, field, record, ref, scalar } from "../helpers/ir.js";

describe("assignNames", () => {
  it("resolves clashes deterministically, declaration order first", () => {
    const d = doc([record("xsd:{a}login", []), record("xsd:{b}Login", []), enumType("xsd:{a}Status", ["x"])]);
    const names = assignNames(d);
    expect(names.type("xsd:{a}login")).toBe("Login");
    expect(names.type("xsd:{b}Login")).toBe("Login_2");
    expect(names.enumValues("xsd:{a}Status")).toBe("StatusValues");
  });

  it("names polymorphic families and keeps derived names from stealing declared ones", () => {
    const d = doc([
      record("xsd:{a}AnyEmail", []),
      record("xsd:{a}Email", [field("subject", scalar("string"))]),
      record("xsd:{a}Single", [], { base: { id: "xsd:{a}Email", derivation: "extension" } }),
    ]);
    const names = assignNames(d);
    expect(names.type("xsd:{a}AnyEmail")).toBe("AnyEmail");
    expect(names.family("xsd:{a}Email")).toBe("AnyEmail_2");
    expect(names.family("xsd:{a}Single")).toBeUndefined();
  });

  it("names proto nested types by their path in the package", () => {
    const outer = { ...record("proto:.pkg.Outer", []), scope: "pkg", name: "Outer" };
    const inner = { ...record("proto:.pkg.Outer.inner", [field("x", ref("proto:.pkg.Outer"))]), scope: "pkg", name: "inner" };
    const names = assignNames(doc([outer, inner], { format: "proto" }));
    expect(names.type("proto:.pkg.Outer.inner")).toBe("Outer_Inner");
  });
});
