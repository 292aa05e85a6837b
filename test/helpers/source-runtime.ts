import path from "node:path";
import { runtimeAreaModule, type RuntimeArea } from "../../src/codegen/runtime-imports.js";
import { RUNTIME_AREA_EXPORTS } from "../../src/codegen/runtime-areas.js";

/** The runtime's source entry (src/runtime/index.ts); its areas are src/runtime/areas/<area>.ts. */
export const SOURCE_RUNTIME = path.resolve(import.meta.dirname, "../../src/runtime/index.ts");

/**
 * Generated text with its runtime imports ("specforge/runtime" and the area entries "specforge/runtime/<area>")
 * pointed at the runtime entry `entry` (a path or URL ending in runtime/index.ts or .js) and its areas beside it,
 * so generated files written to a temporary folder import the repo's runtime.
 */
export function pointRuntimeAt(text: string, entry: string = SOURCE_RUNTIME): string {
  return text.replace(/"specforge\/runtime(?:\/([a-z]+))?"/g, (whole, area: string | undefined) => {
    if (area === undefined) return JSON.stringify(entry);
    if (!Object.hasOwn(RUNTIME_AREA_EXPORTS, area)) return whole;
    return JSON.stringify(runtimeAreaModule(entry, area as RuntimeArea) ?? entry);
  });
}
