import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** package.json of the specforge that is running: two folders up from src/cli/ and from dist/cli/ alike. */
const PACKAGE_JSON = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../package.json");

/** The version `specforge --version` prints: package.json's, read when asked so it can never drift from it. */
export function packageVersion(): string {
  const { version } = JSON.parse(readFileSync(PACKAGE_JSON, "utf8")) as { version?: unknown };
  if (typeof version !== "string") throw new Error(`${PACKAGE_JSON} has no version`);
  return version;
}
