import { describe, expect, it } from "vitest";
import { KeptInstance } from "../../../src/runtime/xml/kept-instance.js";
import { XmlPullReader } from "../../../src/runtime/index.js";

describe("KeptInstance", () => {
  it("makes one instance, once the class has had its first instances, and keeps it", () => {
    let made = 0;
    const keeper = new KeptInstance(() => ({ made: ++made }));
    for (let i = 0; i < 31; i++) keeper.constructed();
    expect(keeper.instance).toBeUndefined();
    keeper.constructed();
    expect(keeper.instance).toEqual({ made: 1 });
    for (let i = 0; i < 100; i++) keeper.constructed();
    expect(made).toBe(1);
  });

  it("does not disturb the readers that make it (the kept reader is made from inside a reader's constructor)", () => {
    for (let i = 0; i < 40; i++) {
      const r = XmlPullReader.document(`<r><a>${i}</a></r>`);
      expect(r.nextChild()).toBe(true);
      expect(r.readText()).toBe(String(i));
      expect(r.nextChild()).toBe(false);
      r.end();
    }
  });
});
