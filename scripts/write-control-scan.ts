/**
 * Writes src/runtime/xml/control-scan-wasm.ts from src/runtime/xml/control-scan.wat: the bytes of the assembled
 * module as a constant, so the runtime needs no assembler and no file access. Run after editing the .wat
 * (`npm run wasm:control-scan`); test/runtime/xml/control-scan.test.ts fails while the two disagree.
 */
import { writeFileSync } from "node:fs";
import path from "node:path";
import { assembleWat } from "./lib/assemble-wat.js";

const dir = path.resolve(import.meta.dirname, "../src/runtime/xml");
const bytes = await assembleWat(path.join(dir, "control-scan.wat"));
const rows: string[] = [];
for (let i = 0; i < bytes.length; i += 24) rows.push(`  ${Array.from(bytes.subarray(i, i + 24)).join(", ")},`);
writeFileSync(
  path.join(dir, "control-scan-wasm.ts"),
  `// Written by scripts/write-control-scan.ts from control-scan.wat (the source): do not edit by hand.
/** The WebAssembly module of control-scan.wat. */
export const CONTROL_SCAN_WASM = new Uint8Array([
${rows.join("\n")}
]);
`,
);
console.log(`control-scan-wasm.ts: ${bytes.length} bytes`);
