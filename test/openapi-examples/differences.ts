/**
 * The deliberate differences between the generated validators and ajv, as docs/validators.md lists them (the table
 * under "Where we differ from ajv on real documents"). Each is an `Adjustment` of the ajv reference that makes ajv
 * agree with us, and names the corpus documents whose examples (or their variants) show it. The agreement test
 * explains every disagreement by one of these, and fails on a listed difference a document no longer shows.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { REPO } from "../helpers/seeds.js";
import type { Adjustment } from "./ajv-reference.js";

export const DIFFERENCES: Readonly<Record<Adjustment, { readonly seenIn: readonly string[] }>> = {
  "discriminator": { seenIn: ["digitalocean/DigitalOcean-public.v2.yaml"] },
  "untyped-object": { seenIn: ["digitalocean/DigitalOcean-public.v2.yaml"] },
  "untyped-array": { seenIn: ["digitalocean/DigitalOcean-public.v2.yaml"] },
  "unchecked-formats": { seenIn: ["digitalocean/DigitalOcean-public.v2.yaml"] },
  "int64-safe-integer": { seenIn: ["digitalocean/DigitalOcean-public.v2.yaml"] },
  "email-format": { seenIn: ["digitalocean/DigitalOcean-public.v2.yaml"] },
};

export const DOCS_FILE = path.join(REPO, "docs/validators.md");
const SECTION = "## Where we differ from ajv on real documents";

/** The difference ids of the docs table: the backquoted first cell of each row of that section. */
export function documentedDifferences(text = readFileSync(DOCS_FILE, "utf8")): string[] {
  const start = text.indexOf(SECTION);
  if (start < 0) throw new Error(`docs/validators.md has no "${SECTION}" section`);
  const rest = text.slice(start + SECTION.length);
  const end = rest.search(/\n## /);
  const section = end < 0 ? rest : rest.slice(0, end);
  return [...section.matchAll(/^\| `([a-z0-9-]+)` \|/gm)].map((m) => m[1]!);
}
