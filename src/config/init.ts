import { existsSync, readdirSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { UsageError } from "../errors.js";
import { nodeSpecHost } from "../parsers/host.js";
import { isSpecError, loadSpec } from "../pipeline/load-spec.js";
import { specKindOnDisk } from "../pipeline/spec-kind.js";
import { recordingHost } from "../pipeline/run-spec.js";
import { CONFIG_FILE, findConfig } from "./config-file.js";

const PACKAGE_SCHEMA = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../specforge.schema.json");

export interface InitOptions {
  readonly cwd?: string;
  /** Overwrite an existing specforge.config.json. */
  readonly force?: boolean;
  /** Output root written into the config. Default "generated". */
  readonly out?: string;
}

export interface InitResult {
  /** The config file written. */
  readonly file: string;
  readonly config: { readonly $schema: string; readonly out: string; readonly specs: readonly string[] };
  /** Spec files left out, with why (imported by another spec), and specs listed although they do not parse yet. */
  readonly notes: readonly { readonly file: string; readonly note: string }[];
}

/**
 * `specforge init`: find the specs in the working folder (top level) and in specs/ (recursively), and write a
 * starter specforge.config.json listing them. YAML and JSON files count only when they are OpenAPI documents
 * (package.json is not a spec). A file another spec imports or includes is left out: it is generated as part of
 * that spec.
 */
export function initConfig(options: InitOptions = {}): InitResult {
  const cwd = path.resolve(options.cwd ?? process.cwd());
  const file = path.join(cwd, CONFIG_FILE);
  const existing = findConfig(cwd);
  if (existing && !(options.force && existing === file)) {
    const hint = existing === file ? " (use --force to overwrite it)" : "";
    throw new UsageError(`${path.basename(existing)} already exists${hint}`);
  }
  const out = options.out ?? "generated";
  const candidates = [...specFiles(cwd, false), ...(existsSync(path.join(cwd, "specs")) ? specFiles(path.join(cwd, "specs"), true) : [])].filter(
    (f) => !isInside(f, path.resolve(cwd, out)),
  );
  if (candidates.length === 0) throw new UsageError(`no spec files found in ${cwd} or its specs/ folder`);

  const notes: { file: string; note: string }[] = [];
  const rel = (f: string) => path.relative(cwd, f).split(path.sep).join("/");
  const reads = new Map<string, Set<string>>();
  for (const c of candidates) {
    const host = recordingHost(nodeSpecHost({ cwd }));
    try {
      loadSpec(c, host);
    } catch (e) {
      if (!isSpecError(e)) throw e;
      notes.push({ file: rel(c), note: `listed, but it does not parse yet: ${(e as Error).message}` });
    }
    reads.set(c, new Set([...host.inputs.keys()].filter((f) => f !== c)));
  }
  // Left out: files another candidate reads, unless they read each other (an include cycle keeps both).
  const specs = candidates.filter((c) => {
    const reader = candidates.find((o) => o !== c && reads.get(o)!.has(c) && !reads.get(c)!.has(o));
    if (reader) notes.push({ file: rel(c), note: `left out: ${rel(reader)} reads it` });
    return reader === undefined;
  });
  const config = { $schema: schemaReference(cwd), out, specs: specs.map(rel) };
  writeFileSync(file, JSON.stringify(config, null, 2) + "\n");
  return { file, config, notes };
}

/** Spec files of a folder, sorted; folders only when recursive, never hidden ones or node_modules. */
function specFiles(dir: string, recursive: boolean): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    if (name.startsWith(".") || name === "node_modules") continue;
    const full = path.join(dir, name);
    const stat = statSync(full);
    if (stat.isDirectory()) {
      if (recursive) out.push(...specFiles(full, true));
    } else if (stat.isFile() && looksLikeSpec(full)) out.push(full);
  }
  return out;
}

/** A format's extension (YAML and JSON only when they are OpenAPI documents), or an .xml WSDL or schema. */
function looksLikeSpec(file: string): boolean {
  return specKindOnDisk(file) !== undefined;
}

function isInside(file: string, dir: string): boolean {
  const rel = path.relative(dir, file);
  return rel !== "" && !rel.startsWith("..") && !path.isAbsolute(rel);
}

/** How the config points at the schema: the installed package's copy, relative to the project. */
function schemaReference(cwd: string): string {
  const rel = path.relative(cwd, PACKAGE_SCHEMA).split(path.sep).join("/");
  if (!rel.startsWith("../") && !path.isAbsolute(rel)) return `./${rel}`;
  return "./node_modules/specforge/specforge.schema.json";
}
