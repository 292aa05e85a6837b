/** `npm run names:runtime`: rewrite src/naming/runtime-names.ts from the runtime's current exports. */
import { writeFileSync } from "node:fs";
import { RUNTIME_NAMES_FILE, runtimeExportNames, runtimeNamesSource } from "./lib/runtime-exports.js";

const names = runtimeExportNames();
writeFileSync(RUNTIME_NAMES_FILE, runtimeNamesSource(names));
console.log(`wrote ${names.length} runtime names to ${RUNTIME_NAMES_FILE}`);
