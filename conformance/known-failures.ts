import { readFileSync } from "node:fs";
import path from "node:path";

/** The binary+JSON suite's expected failures (the runner's --failure_list). */
export const KNOWN_FAILURES = path.join(import.meta.dirname, "known-failures.txt");
/** The text-format suite's expected failures (the runner's --text_format_failure_list). */
export const KNOWN_TEXT_FAILURES = path.join(import.meta.dirname, "known-failures-text.txt");

/** Test names expected to fail, one per line; "#" starts a comment (the reason). */
export function readKnownFailures(file = KNOWN_FAILURES): string[] {
  return readFileSync(file, "utf8")
    .split("\n")
    .map((l) => l.replace(/#.*/, "").trim())
    .filter((l) => l !== "");
}
