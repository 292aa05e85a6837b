/** `npm run names:runtime`: rewrite src/naming/runtime-names.ts and src/codegen/runtime-areas.ts from the runtime's current exports. */
import { writeFileSync } from "node:fs";
import { RUNTIME_AREAS_FILE, RUNTIME_NAMES_FILE, runtimeAreaExports, runtimeAreasSource, runtimeExportNames, runtimeNamesSource } from "./lib/runtime-exports.js";

const names = runtimeExportNames();
writeFileSync(RUNTIME_NAMES_FILE, runtimeNamesSource(names));
console.log(`wrote ${names.length} runtime names to ${RUNTIME_NAMES_FILE}`);
const areas = runtimeAreaExports();
writeFileSync(RUNTIME_AREAS_FILE, runtimeAreasSource(areas));
console.log(`wrote the exports of ${Object.keys(areas).length} runtime areas to ${RUNTIME_AREAS_FILE}`);
