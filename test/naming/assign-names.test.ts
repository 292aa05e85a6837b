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

  it("numbers many types of one name in declaration order, and a later claim of another kind still gets the first free name", () => {
    // 300 records named Item in their own namespaces, then the enum ItemValues... and records named Item_2Values,
    // whose plain name ("name" kind) was never tried: the resumed search of one kind must not skip it for another.
    const items = Array.from({ length: 300 }, (_, k) => record(`xsd:{n${k}}Item`, []));
    const d = doc([...items, enumType("xsd:{e}Status", ["x"]), record("xsd:{z}Item", []), enumType("xsd:{y}Item_2", ["y"])]);
    const names = assignNames(d);
    expect(items.map((t) => names.type(t.id))).toEqual(["Item", ...Array.from({ length: 299 }, (_, k) => `Item_${k + 2}`)]);
    expect(names.type("xsd:{z}Item")).toBe("Item_301");
    // Item_2 is taken by the second record: the enum named Item_2 gets the next free one of its own name.
    expect(names.type("xsd:{y}Item_2")).toBe("Item_2_2");
    expect(names.enumValues("xsd:{e}Status")).toBe("StatusValues");
    expect(names.enumValues("xsd:{y}Item_2")).toBe("Item_2_2Values");
  });

  it("names proto nested types by their path in the package", () => {
    const outer = { ...record("proto:.pkg.Outer", []), scope: "pkg", name: "Outer" };
    const inner = { ...record("proto:.pkg.Outer.inner", [field("x", ref("proto:.pkg.Outer"))]), scope: "pkg", name: "inner" };
    const names = assignNames(doc([outer, inner], { format: "proto" }));
    expect(names.type("proto:.pkg.Outer.inner")).toBe("Outer_Inner");
  });
});
