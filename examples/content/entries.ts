import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { decodeResponse, type Entry } from "../../generated/content/index.js";

/** The spinn3r payloads of the shared corpus: real content-feed Response messages (100 entries each). */
export const DEFAULT_DATA_DIR = path.resolve(import.meta.dirname, "../../../shared/corpus/data");

/** Files the emulator reads from a data directory: protobuf-encoded Response messages, named *.protobuf or *.pb. */
export function responseFiles(dataDir: string): string[] {
  return readdirSync(dataDir)
    .filter((name) => /\.(protobuf|pb)$/.test(name) && !name.startsWith("."))
    .sort()
    .map((name) => path.join(dataDir, name));
}

/** Every entry of every Response file, in file order (files sorted by name). */
export function loadEntries(files: readonly string[]): Entry[] {
  return files.flatMap((file) => decodeResponse(readFileSync(file)).entry ?? []);
}
