import { existsSync, realpathSync, statSync } from "node:fs";
import path from "node:path";
import { UsageError } from "../errors.js";
import { catalogRoots } from "../parsers/xml/catalog.js";
import { nodeSpecHost, type SpecHost } from "../parsers/host.js";
import type { SpecInput } from "../pipeline/generate-files.js";
import { outputDirFor } from "../pipeline/output-dir.js";
import { ConfigPositions } from "./config-positions.js";
import { checkDistinctFolders, outputFolderOf, type FolderOrigin } from "./output-folders.js";
import { findConfig, loadConfigFile, readConfigFile, specsInFolder, type LoadedConfig } from "./config-file.js";
import type { ConfigFile, RunOptionsFromTable, SpecEntry } from "./options.js";
import { isBuiltinPlugin, resolvePluginSpecifier } from "../pipeline/user-plugins.js";
import { planModules } from "../pipeline/module-layout.js";

/**
 * What `generate`, `check` and `watch` take (the option table's global options and per-spec defaults): spec paths
 * (files or folders) or, when none are given, the config file.
 */
export interface RunOptions extends RunOptionsFromTable {
  /** Folder paths are relative to; default process.cwd(). */
  readonly cwd?: string;
  /** A config already loaded (module configs load asynchronously: see loadRunConfig). */
  readonly loadedConfig?: LoadedConfig;
  /** generate: replace files specforge did not write that are where a generated file goes (see write-output.ts). */
  readonly force?: boolean;
}

export interface ResolvedRun {
  readonly outRoot: string;
  readonly specs: readonly SpecInput[];
  readonly host: SpecHost;
  /** Absolute folder of template overrides, if any. */
  readonly templates?: string;
  /** The config file that was read, if any. */
  readonly configFile?: string;
  /** The folder relative paths of the config resolve against (the config's folder, or cwd). */
  readonly base: string;
  /**
   * The folder generated files name paths from (spec paths in headers, the README's import path): the config's
   * folder, or without a config the output root's parent; never the working folder, so output is the same wherever
   * the command runs.
   */
  readonly project: string;
  /** Warnings fail the run (`--strict`, or `strict: true` in the config). */
  readonly strict: boolean;
  /** Absolute files of the user plugins (the config's `plugins`, see docs/plugins.md), in order. */
  readonly plugins: readonly string[];
}

/** The config file this run would read, or undefined (spec paths given without --config, or no config found). */
export function configFileFor(options: RunOptions): string | undefined {
  const cwd = path.resolve(options.cwd ?? process.cwd());
  if (options.config) return path.resolve(cwd, options.config);
  return !options.specs || options.specs.length === 0 ? findConfig(cwd) : undefined;
}

/** Load the run's config (any kind, including specforge.config.ts) so that resolveRun can stay synchronous. */
export async function loadRunConfig(options: RunOptions): Promise<RunOptions> {
  if (options.loadedConfig) return options;
  const file = configFileFor(options);
  return file ? { ...options, loadedConfig: await loadConfigFile(file) } : options;
}

export function resolveRun(options: RunOptions): ResolvedRun {
  const cwd = path.resolve(options.cwd ?? process.cwd());
  const configFile = options.loadedConfig?.file ?? configFileFor(options);
  const config: ConfigFile = options.loadedConfig?.config ?? (configFile ? readConfigFile(configFile) : {});
  const base = configFile ? path.dirname(configFile) : cwd;

  const fromArgs = options.specs !== undefined && options.specs.length > 0;
  const entries: readonly SpecEntry[] = fromArgs
    ? options.specs!
    : typeof config.specs === "string"
      ? [config.specs]
      : (config.specs ?? ["specs"]);
  const entryBase = fromArgs ? cwd : base;

  const specs: SpecInput[] = [];
  const outRoot = path.resolve(options.out !== undefined ? cwd : base, options.out ?? config.out ?? "generated");
  const project = configFile ? base : path.dirname(outRoot);
  const shown = (file: string) => path.relative(cwd, file).split(path.sep).join("/");
  const positions = new ConfigPositions(fromArgs ? undefined : configFile, configFile ? shown(configFile) : "options");
  const folders: { dir: string; origin: FolderOrigin }[] = [];
  for (const [index, entry] of entries.entries()) {
    const own = typeof entry === "string" ? { input: entry } : entry;
    // Where this entry is in the config (specs given as arguments have no place but their own name).
    const keys = fromArgs ? undefined : typeof config.specs === "string" ? ["specs"] : config.specs ? ["specs", index] : [];
    const inArray = keys?.length === 2;
    const outPlace = keys ? positions.place([...keys, "out"]) : { where: own.input, short: "" };
    const outDir = own.out === undefined ? undefined : outputFolderOf(own.out, outPlace, inArray ? `specs[${index}].out` : "out");
    const abs = path.resolve(entryBase, own.input);
    if (!existsSync(abs)) throw new UsageError(`${own.input}: no such spec file or folder`);
    const files = statSync(abs).isDirectory() ? specsInFolder(abs) : [abs];
    for (const file of files) {
      const display = shown(file);
      const place = keys ? positions.place(own.out === undefined ? keys : [...keys, "out"]) : { where: display, short: "" };
      const name = inArray ? `specs[${index}] (${display})` : display;
      folders.push({ dir: outDir ?? outputDirFor(file), origin: { place, name } });
      specs.push({
        file,
        display,
        source: path.relative(project, file).split(path.sep).join("/"),
        outDir,
        // A spec entry's own setting wins, then the command line / library option, then the config's top level.
        int64: own.int64 ?? options.int64 ?? config.int64,
        dates: own.dates ?? options.dates ?? config.dates,
        formats: own.formats ?? options.formats ?? config.formats,
        jsonSchema: own.jsonSchema ?? options.jsonSchema ?? config.jsonSchema,
        artifacts: own.artifacts ?? options.artifacts ?? config.artifacts,
      });
    }
  }
  if (specs.length === 0) throw new UsageError("no spec files found (give spec paths or a specforge.config.json)");
  checkDistinctFolders(folders);
  const protoPaths = [...(options.protoPaths ?? []).map((p) => path.resolve(cwd, p)), ...(config.protoPaths ?? []).map((p) => path.resolve(base, p))];
  const templates =
    options.templates !== undefined ? path.resolve(cwd, options.templates) : config.templates !== undefined ? path.resolve(base, config.templates) : undefined;
  if (templates !== undefined && !(existsSync(templates) && statSync(templates).isDirectory())) {
    throw new UsageError(`${templates}: the templates folder does not exist`);
  }
  const strict = options.strict ?? config.strict ?? false;
  // Where spec files may be read from (see NodeHostOptions.roots): the working folder, the config's folder, each
  // spec's folder, the proto paths, and the folders the user adds.
  const catalog = catalogFile(options.catalog !== undefined ? path.resolve(cwd, options.catalog) : config.catalog !== undefined ? path.resolve(base, config.catalog) : undefined);
  const roots = [
    ...new Set([
      cwd,
      base,
      ...specs.map((s) => path.dirname(s.file)),
      // A spec named on the command line or in the config may be a symlink (Bazel's sandbox links every input in):
      // the folder it really lives in is the user's choice too.
      ...specs.map((s) => path.dirname(realpathOrSelf(s.file))),
      ...protoPaths,
      ...(options.roots ?? []).map((r) => path.resolve(cwd, r)),
      ...(config.roots ?? []).map((r) => path.resolve(base, r)),
      // The catalog's folder and the folders it maps locations into: the user chose them by writing the catalog.
      ...(catalog !== undefined ? catalogRoots(catalog) : []),
    ]),
  ];
  const maxFileBytes = parseByteCount(options.maxSpecBytes ?? config.maxSpecBytes);
  const plugins = [
    ...(options.plugins ?? []).map((p) => resolvePluginSpecifier(p, cwd)),
    ...(config.plugins ?? []).map((p) => resolvePluginSpecifier(p, base)),
  ];
  for (const p of plugins) if (!isBuiltinPlugin(p) && !(existsSync(p) && statSync(p).isFile())) throw new UsageError(`${p}: the plugin module does not exist`);
  const host = nodeSpecHost({ cwd, includeDirs: protoPaths, roots, maxFileBytes, catalog });
  // One output module per input file: imported files get their folders, specs the layout (module-layout.ts).
  let planned = planModules(specs, host, project);
  if (fromArgs && configFile !== undefined && config.specs !== undefined) {
    planned = asInFullRun(planned, options, configFile, config);
  }
  return { outRoot, specs: planned, host, templates, configFile, base, project, strict, plugins };
}

/**
 * Specs named on the command line beside a config that lists them all: laid out as the config's whole run lays
 * them out, so that regenerating one spec writes what the full run writes (a shared module stays shared, with the
 * settings of the spec that comes first in the config) and never re-emits a shared file into the named spec's
 * folder. The named specs (with their config entries' settings) and the modules of the run's imported files are
 * generated; when a named spec is not one of the config's, the named specs are laid out alone.
 */
function asInFullRun(alone: SpecInput[], options: RunOptions, configFile: string, config: ConfigFile): SpecInput[] {
  const full = resolveRun({ ...options, specs: undefined, loadedConfig: { file: configFile, config } });
  const named = new Set(alone.filter((s) => !s.importedOnly).map((s) => path.resolve(s.file)));
  const listed = new Set(full.specs.filter((s) => !s.importedOnly).map((s) => path.resolve(s.file)));
  if (![...named].every((f) => listed.has(f))) return alone;
  return full.specs.filter((s) => s.importedOnly || named.has(path.resolve(s.file)));
}

function realpathOrSelf(file: string): string {
  try {
    return realpathSync(file);
  } catch {
    return file;
  }
}

/** `--max-spec-bytes`: a whole number of bytes (absent: the host's default). */
function parseByteCount(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^[1-9][0-9]{0,15}$/.test(value.trim())) throw new UsageError(`--max-spec-bytes: expected a number of bytes, got ${JSON.stringify(value)}`);
  return Number(value.trim());
}

/** The XML catalog of a run: it must exist (a typo would otherwise show up as "remote import" errors). */
export function catalogFile(file: string | undefined): string | undefined {
  if (file !== undefined && !(existsSync(file) && statSync(file).isFile())) throw new UsageError(`${file}: the XML catalog does not exist`);
  return file;
}
