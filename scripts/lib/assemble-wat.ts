import { readFileSync } from "node:fs";
import wabtModule from "wabt";

/** The WebAssembly binary of a .wat file (SIMD on), assembled by WABT's own assembler (the `wabt` package). */
export async function assembleWat(file: string): Promise<Uint8Array> {
  const wabt = await wabtModule();
  const module = wabt.parseWat(file, readFileSync(file, "utf8"), { simd: true });
  try {
    module.resolveNames();
    module.validate();
    return new Uint8Array(module.toBinary({}).buffer);
  } finally {
    module.destroy();
  }
}
