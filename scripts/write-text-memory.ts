/**
 * Writes src/runtime/xml/text-memory-wasm.ts from src/runtime/xml/text-memory.wat: the bytes of the assembled module
 * as a constant, so the runtime needs no assembler and no file access. Run after editing the .wat
 * (`npm run wasm:text-memory`); test/runtime/xml/text-memory.test.ts fails while the two disagree.
 */
import { writeFileSync } from "node:fs";
import path from "node:path";
import { assembleWat } from "./lib/assemble-wat.js";

const dir = path.resolve(import.meta.dirname, "../src/runtime/xml");
const bytes = await assembleWat(path.join(dir, "text-memory.wat"));
const rows: string[] = [];
for (let i = 0; i < bytes.length; i += 24) rows.push(`  ${Array.from(bytes.subarray(i, i + 24)).join(", ")},`);
writeFileSync(
  path.join(dir, "text-memory-wasm.ts"),
  `// Written by scripts/write-text-memory.ts from text-memory.wat (the source): do not edit by hand.
/** The WebAssembly module of text-memory.wat. */
export const TEXT_MEMORY_WASM = /* @__PURE__ */ new Uint8Array([
${rows.join("\n")}
]);
`,
);
console.log(`text-memory-wasm.ts: ${bytes.length} bytes`);
