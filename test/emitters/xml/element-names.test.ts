import { describe, expect, it } from "vitest";
import type { ElementDecl } from "../../../src/ir/model.js";
import { elementCodecNames } from "../../../src/emitters/xml/element-names.js";
import { at, doc } from "../../helpers/ir.js";

const element = (ns: string, local: string): ElementDecl => ({
  id: `xsd-element:{${ns}}${local}`, name: { ns, local }, type: { kind: "scalar", scalar: "string" }, nullable: false, origin: at(),
});

describe("element codec names", () => {
  it("PascalCases local names and resolves clashes in declaration order", () => {
    const d = doc([], { elements: [element("urn:a", "login"), element("urn:b", "login"), element("urn:a", "Login"), element("urn:a", "class"), element("urn:a", "my-el")] });
    expect([...elementCodecNames(d).values()].map((n) => n.stem)).toEqual(["Login", "Login_2", "Login_3", "Class", "MyEl"]);
  });
});
