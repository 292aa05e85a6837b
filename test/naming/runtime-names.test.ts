import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { AREAS, RUNTIME_AREAS_FILE, RUNTIME_NAMES_FILE, runtimeAreaExports, runtimeAreasSource, runtimeExportNames, runtimeNamesSource } from "../../scripts/lib/runtime-exports.js";

describe("src/naming/runtime-names.ts", () => {
  it("lists exactly what specforge/runtime exports (run `npm run names:runtime` after changing the runtime)", () => {
    const names = runtimeExportNames();
    expect(names).toContain("ValidationError");
    expect(names).toContain("RestClientOptions"); // type-only exports count: generated files import them too
    expect(readFileSync(RUNTIME_NAMES_FILE, "utf8")).toBe(runtimeNamesSource(names));
  });

  it("src/codegen/runtime-areas.ts lists what each area entry exports, and every runtime export is in an area", () => {
    const areas = runtimeAreaExports();
    expect(readFileSync(RUNTIME_AREAS_FILE, "utf8")).toBe(runtimeAreasSource(areas));
    const inSomeArea = new Set(AREAS.flatMap((a) => areas[a]));
    expect(runtimeExportNames().filter((n) => !inSomeArea.has(n))).toEqual([]);
    // Each area carries the API version check and its own directory's exports.
    for (const a of AREAS) expect(areas[a]).toContain("RuntimeApi1");
    expect(areas.protobuf).toContain("pbReader");
    expect(areas.json).toContain("jsonIsUri");
    expect(areas.xml).toContain("XmlCodecs");
    expect(areas.soap).toContain("createSoapConnection");
    expect(areas.rest).toContain("restSend");
    expect(areas.rpc).toContain("rpcClient");
    // An area does not drag in another format's runtime: no XML in the JSON or protobuf areas.
    expect(areas.json).not.toContain("XmlCodecs");
    expect(areas.protobuf).not.toContain("XmlCodecs");
  });
});
