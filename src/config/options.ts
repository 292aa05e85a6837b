/**
 * The option table: every option specforge takes, described once. From it come the commander flags
 * (src/cli/flags.ts), the JSON Schema of specforge.config.json (config-schema.ts, written to specforge.schema.json
 * by `npm run schema`), the config validation (validate-config.ts) and the library option types below. Add an
 * option here and every one of those picks it up.
 */

/** The artifact groups a spec entry can ask for; src/pipeline/artifact-groups.ts maps them to emitters. */
export const ARTIFACT_GROUPS = ["types", "validators", "serializers", "client", "server", "openapi"] as const;
export type ArtifactGroup = (typeof ARTIFACT_GROUPS)[number];
/** What a spec gets without `artifacts`: every group but openapi (an OpenAPI document of a proto's REST routes). */
export const DEFAULT_ARTIFACT_GROUPS: readonly ArtifactGroup[] = ["types", "validators", "serializers", "client", "server"];

export type CommandName = "generate" | "check" | "init" | "inspect";

export interface OptionDef {
  /** The property name in specforge.config.json and in the library options. */
  readonly name: string;
  /** global: top level of the config; spec: a spec entry (and, when `inherit`, the top level as every spec's default). */
  readonly scope: "global" | "spec";
  readonly type: "string" | "boolean" | "string[]" | "enum" | "enum[]" | "specs";
  readonly values?: readonly string[];
  readonly description: string;
  /** The default as a value (in the schema) ... */
  readonly default?: string | boolean | readonly string[];
  /** ... or in words, when it depends on the spec. */
  readonly defaultText?: string;
  /** Commander flags, e.g. "-o, --out <dir>"; none: config only. */
  readonly flag?: string;
  /** Commands that offer the flag. */
  readonly commands?: readonly CommandName[];
  /** Whether the option may appear in the config file (and its schema). Presentation flags may not. */
  readonly inConfig: boolean;
  readonly required?: boolean;
  readonly inherit?: boolean;
  /** What a wrong value is told it should be, when the type's own wording is too vague ("a list of folders"). */
  readonly expected?: string;
}

const RUN: readonly CommandName[] = ["generate", "check"];

export const OPTIONS = [
  {
    name: "out", scope: "global", type: "string", flag: "-o, --out <dir>", commands: ["generate", "check", "init", "inspect"], inConfig: true,
    default: "generated", description: "Output root folder; each spec gets a folder under it.",
  },
  {
    name: "specs", scope: "global", type: "specs", inConfig: true, default: ["specs"], expected: "a folder or a list of specs",
    description: "Spec files, or folders to scan for spec files (.wsdl, .xsd, .proto, .yaml, .yml, .json, and .xml files that are WSDLs or schemas), each a path or an object with per-spec options. On the command line: the positional arguments.",
  },
  {
    name: "protoPaths", scope: "global", type: "string[]", flag: "-I, --proto-path <dir...>", commands: [...RUN, "inspect"], inConfig: true,
    default: [], expected: "a list of folders", description: "Folders searched for proto imports, like protoc -I; without any, the working directory (as protoc). The spec's own folder is searched last.",
  },
  {
    name: "catalog", scope: "global", type: "string", flag: "--catalog <file>", commands: [...RUN, "inspect"], inConfig: true, expected: "a path",
    description: "An OASIS XML catalog (as xmllint --catalogs reads one: uri, rewriteURI, system, rewriteSystem, delegate*, nextCatalog) mapping remote or missing schemaLocation and WSDL import locations to local files; specforge never fetches. See docs/wsdl.md.",
  },
  {
    name: "roots", scope: "global", type: "string[]", flag: "--root <dir...>", commands: RUN, inConfig: true,
    default: [], expected: "a list of folders",
    description: "More folders spec files may be read from. Imports, $refs and includes are read only from the working folder, the config's folder, each spec's folder, the proto paths and these; anything else is refused before it is opened.",
  },
  {
    name: "maxSpecBytes", scope: "global", type: "string", flag: "--max-spec-bytes <n>", commands: RUN, inConfig: true,
    default: "268435456", expected: "a number of bytes",
    description: "The largest spec file (or imported file) read, in bytes; larger ones are refused before they are read.",
  },
  {
    name: "templates", scope: "global", type: "string", flag: "--templates <dir>", commands: RUN, inConfig: true,
    description: "Folder of handlebars shells overriding the built-in ones (client.hbs, server.hbs, package-readme.hbs); see docs/templates.md.",
  },
  {
    name: "plugins", scope: "global", type: "string[]", inConfig: true, default: [], expected: "a list of module paths or package names",
    description: "Plugin modules (a path relative to the config, or a package name) that write files of their own into every spec's output folder, with the same ownership and check as built-in files; see docs/plugins.md.",
  },
  {
    name: "input", scope: "spec", type: "string", inConfig: true, required: true, expected: "a path",
    description: "The spec file (or a folder of spec files), relative to the config file.",
  },
  {
    name: "out", scope: "spec", type: "string", inConfig: true, defaultText: "the spec's base name, e.g. partner for partner.wsdl",
    description: "Folder under the output root for this spec.",
  },
  {
    name: "artifacts", scope: "spec", type: "enum[]", values: ARTIFACT_GROUPS, flag: "--artifacts <list>", commands: [...RUN, "inspect"], inConfig: true,
    inherit: true, default: [...DEFAULT_ARTIFACT_GROUPS],
    description: "Which artifacts to emit (comma-separated on the command line); what they need comes along (a client needs the types and codecs).",
  },
  {
    name: "int64", scope: "spec", type: "enum", values: ["bigint", "string", "number"], flag: "--int64 <mode>", commands: RUN, inConfig: true,
    inherit: true, defaultText: "bigint for proto and XSD, number for OpenAPI", description: "How 64-bit integers appear in TypeScript.",
  },
  {
    name: "dates", scope: "spec", type: "enum", values: ["string", "Date"], flag: "--dates <mode>", commands: RUN, inConfig: true,
    inherit: true, default: "string", description: "Date-times as RFC 3339 strings or Date objects: OpenAPI date-time and XSD dateTime values; for a proto spec, google.protobuf.Timestamp fields (Date keeps milliseconds; Duration stays a message).",
  },
  {
    name: "formats", scope: "spec", type: "enum", values: ["assert", "annotate"], flag: "--formats <mode>", commands: RUN, inConfig: true,
    inherit: true, default: "assert",
    description: "OpenAPI/JSON Schema string formats (date-time, email, uri, uuid...): checked by the generated validators (assert, as ajv's validateFormats) or annotations only (annotate, JSON Schema 2020-12's default). See docs/validators.md.",
  },
  {
    name: "jsonSchema", scope: "spec", type: "enum", values: ["openapi", "exact"], flag: "--json-schema <mode>", commands: RUN, inConfig: true,
    inherit: true, default: "openapi",
    description: "How OpenAPI schemas are read where OpenAPI practice and JSON Schema differ: openapi (a schema with properties or items but no type is an object or array; in 3.0, additionalProperties beside allOf sees the parts' properties) or exact (JSON Schema: such a schema admits every other JSON type too, and its type says so). See docs/validators.md.",
  },
  {
    name: "config", scope: "global", type: "string", flag: "-c, --config <file>", commands: [...RUN, "inspect"], inConfig: false,
    defaultText: "specforge.config.json, .ts, .mts, .mjs or .js in the working folder", description: "The config file.",
  },
  {
    name: "strict", scope: "global", type: "boolean", flag: "--strict", commands: RUN, inConfig: true, default: false,
    description: "Treat warnings as errors: a spec that generated with warnings (constructs kept in a degraded form, see docs/cli.md) fails the run.",
  },
  {
    name: "watch", scope: "global", type: "boolean", flag: "-w, --watch", commands: ["generate"], inConfig: false, default: false,
    description: "Keep running: regenerate the specs whose files change (debounced); a broken spec keeps its last good output.",
  },
  {
    name: "jobs", scope: "global", type: "string", flag: "-j, --jobs <n>", commands: ["generate"], inConfig: false, default: "1",
    description: "Generate specs in this many worker threads: a number, or auto for one per available core (os.availableParallelism()). The output is byte-identical to --jobs 1; see docs/build-systems.md.",
  },
  {
    name: "force", scope: "global", type: "boolean", flag: "-f, --force", commands: ["generate", "init"], inConfig: false, default: false,
    description: "generate: replace files specforge did not write where it writes a generated file (other files in output folders are kept anyway); init: overwrite an existing config file.",
  },
  {
    name: "quiet", scope: "global", type: "boolean", flag: "-q, --quiet", commands: [...RUN, "init"], inConfig: false, default: false,
    description: "Print nothing but errors (and, for check, the differences).",
  },
  {
    name: "json", scope: "global", type: "boolean", flag: "--json", commands: [...RUN, "init"], inConfig: false, default: false,
    description: "Print one JSON object per line on stdout for each event, for machines (see README: Progress and --json).",
  },
] as const satisfies readonly OptionDef[];

// ---------------------------------------------------------------------------------------------------------------
// Types derived from the table
// ---------------------------------------------------------------------------------------------------------------

type Def = (typeof OPTIONS)[number];
type ValueOf<D> = D extends { type: "string" }
  ? string
  : D extends { type: "boolean" }
    ? boolean
    : D extends { type: "string[]" }
      ? readonly string[]
      : D extends { type: "enum"; values: readonly (infer V)[] }
        ? V
        : D extends { type: "enum[]"; values: readonly (infer V)[] }
          ? readonly V[]
          : D extends { type: "specs" }
            ? string | readonly SpecEntry[]
            : never;

type Optional<D> = { readonly [K in D extends { name: infer N extends string } ? N : never]?: ValueOf<Extract<D, { name: K }>> };

type SpecDef = Extract<Def, { scope: "spec" }>;
type InheritedDef = Extract<SpecDef, { inherit: true }>;
type ConfigGlobalDef = Extract<Def, { scope: "global"; inConfig: true }>;

/** The options one spec can have: `input` plus the per-spec options of the table. */
export type SpecOptions = { readonly input: string } & Optional<Exclude<SpecDef, { name: "input" }>>;
/** One entry of `specs`: a path, or a path with per-spec options. */
export type SpecEntry = string | SpecOptions;
/** The per-spec options that may also be given once for every spec (config top level, CLI flags). */
export type SpecDefaults = Optional<InheritedDef>;
/** specforge.config.json (or the default export of specforge.config.ts), as written by the user. */
export type ConfigFile = Optional<ConfigGlobalDef> & SpecDefaults & { readonly $schema?: string };

/**
 * What the library's generate/check/watch take: the config's global options and per-spec defaults, plus `config`
 * (a config file to read) and `specs` (when given, the config file is only read if `config` names it).
 */
export type RunOptionsFromTable = Optional<Exclude<ConfigGlobalDef, { name: "specs" }>> &
  SpecDefaults &
  Optional<Extract<Def, { name: "config" }>> & { readonly specs?: readonly SpecEntry[] };

/** The option names of one scope that the config file accepts. */
export function configOptions(scope: "global" | "spec"): readonly OptionDef[] {
  return (OPTIONS as readonly OptionDef[]).filter((o) => o.scope === scope && o.inConfig);
}

/** Options offered as flags by one command, in table order. */
export function commandOptions(command: CommandName): readonly OptionDef[] {
  return (OPTIONS as readonly OptionDef[]).filter((o) => o.flag !== undefined && (o.commands ?? []).includes(command));
}

/** A config file for typed specforge.config.ts files: `export default defineConfig({ ... })`. */
export function defineConfig(config: ConfigFile): ConfigFile {
  return config;
}
