import path from "node:path";
import { generatedHeader, type GeneratedFile } from "../codegen/generated-file.js";
import { artifactArea, RUNTIME_API, RUNTIME_API_EXPORT, runtimeAreaModule, runtimeAreaOf, type RuntimeArea } from "../codegen/runtime-imports.js";
import { ARTIFACTS, type EmitContext } from "../emitters/index.js";
import type { DatesMode, Int64Mode } from "../emitters/types/context.js";
import type { FormatsMode } from "../emitters/artifact.js";
import type { JsonSchemaMode } from "../parsers/openapi/index.js";
import type { ArtifactGroup } from "../config/options.js";
import { selectArtifacts, selectArtifactsByName } from "./artifact-groups.js";
import { packageReadme } from "./package-readme.js";
import { DEFAULT_TEMPLATES, specContext, type TemplateName, type Templates } from "./templates.js";
import type { IrDocument, Origin, SpecWarning } from "../ir/model.js";
import { assignNames } from "../naming/assign-names.js";
import type { SpecHost } from "../parsers/host.js";
import { loadSpec } from "./load-spec.js";
import { outputDirFor } from "./output-dir.js";
import { manifestFile } from "./output-manifest.js";
import { linkModules, openApiOptions, type ModuleLinks } from "./module-layout.js";
import { runPlugins, type LoadedPlugin } from "./user-plugins.js";

/** One spec to generate from, as the config file or the command line gives it. */
export interface SpecInput {
  /** Absolute path of the spec. */
  readonly file: string;
  /** How the spec is named in messages: the path as the user sees it (relative to the working folder), forward slashes. */
  readonly display: string;
  /**
   * How generated files name the spec (headers, index.ts): relative to the project folder (the config's folder, or
   * the output root's parent), so that output does not depend on where the command runs. Default: `display`.
   */
  readonly source?: string;
  /** Folder under the output root; defaults to the spec's base name. */
  readonly outDir?: string;
  readonly int64?: Int64Mode;
  /** OpenAPI date-time values as strings (default) or Date objects. */
  readonly dates?: DatesMode;
  /** OpenAPI string formats checked by the validators (default) or annotations only (options.ts, `formats`). */
  readonly formats?: FormatsMode;
  /** OpenAPI schemas read as OpenAPI practice has them (default) or exactly as JSON Schema (options.ts, `jsonSchema`). */
  readonly jsonSchema?: JsonSchemaMode;
  /** Module specifier generated code imports the runtime from (default "specforge/runtime"). */
  readonly runtimeModule?: string;
  /** Artifact groups to emit (with what they need); default all. */
  readonly artifacts?: readonly ArtifactGroup[];
  /** Individual artifacts to emit by name (e.g. "protobuf"), with what they need; when set, replaces `artifacts`. */
  readonly artifactNames?: readonly string[];
  /**
   * The run's module layout (module-layout.ts, planModules): absolute input file -> its output folder. Set, the spec
   * emits only what its own file declares and imports the rest from those folders; unset, it is self-contained.
   */
  readonly modules?: Readonly<Record<string, string>>;
  /**
   * OpenAPI, set when the run is laid out per file: the version the spec's schemas are read by (its own `openapi`,
   * or for a shared components file without one, the first importing document's).
   */
  readonly openApiVersion?: "3.0" | "3.1";
  /** An input file no spec names, given a folder because specs import it (planModules). */
  readonly importedOnly?: boolean;
}

/** How generateSpec renders: which template shells, and whether to add the package README. */
export interface RenderOptions {
  /** Template shells (default: the built-in ones in templates/). */
  readonly templates?: Templates;
  /**
   * Add `<dir>/README.md` (templates/package-readme.hbs); `importPath` is how the README shows importing the
   * spec's index, e.g. "./generated/partner/index.js". generate/check add it; library callers of generateSpec
   * that only want code leave it out.
   */
  readonly readme?: { readonly importPath: string };
  /**
   * Add `<dir>/.specforge-manifest.json`, the list of files specforge owns in the folder (output-manifest.ts):
   * generate, check and watch add it, since only listed files are ever replaced or removed.
   */
  readonly manifest?: boolean;
  /** User plugins (the config's `plugins`, loaded): their files join the folder's (see user-plugins.ts). */
  readonly plugins?: readonly LoadedPlugin[];
}

/** A file ready to be written: path relative to the output root. */
export interface OutputFile {
  readonly path: string;
  readonly content: string;
}

export interface SpecOutput {
  readonly spec: SpecInput;
  readonly dir: string;
  readonly doc: IrDocument;
  readonly files: readonly OutputFile[];
  /** The parser's warnings (doc.warnings) and the emitters', located as the user sees the files. */
  readonly warnings: readonly SpecWarning[];
}

/** read -> lower -> passes -> names -> emit, entirely in memory. Throws SpecError on bad input. */
export function generateSpec(spec: SpecInput, host: SpecHost, render: RenderOptions = {}): SpecOutput {
  const doc = loadSpec(spec.file, host, openApiOptions(spec));
  return generateFromDocument(doc, spec, render, linkModules(spec, doc, host));
}

/**
 * passes -> names -> emit for an IR another front end already built (e.g. protoc-gen-specforge from descriptors).
 * `links`: the other input files' modules this one imports from (module-layout.ts); without, self-contained.
 */
export function generateFromDocument(full: IrDocument, spec: SpecInput, render: RenderOptions = {}, links?: ModuleLinks): SpecOutput {
  const doc = links?.doc ?? full;
  const names = links?.names ?? assignNames(doc);
  const dir = spec.outDir ?? outputDirFor(spec.file);
  const emitterWarnings: SpecWarning[] = [];
  const ctx: EmitContext = {
    warn: (origin, detail) => emitterWarnings.push(warningAt(spec, origin, detail)),
    doc,
    names,
    dir,
    source: spec.source ?? spec.display,
    int64: spec.int64 ?? (doc.format === "openapi" ? "number" : "bigint"),
    dates: spec.dates ?? "string",
    ...(spec.formats ? { formats: spec.formats } : {}),
    runtimeModule: spec.runtimeModule ?? "specforge/runtime",
    ...(links ? { modules: links.modules } : {}),
  };
  const templates = render.templates ?? DEFAULT_TEMPLATES;
  const selected = spec.artifactNames ? selectArtifactsByName(ARTIFACTS, spec.artifactNames) : selectArtifacts(ARTIFACTS, spec.artifacts);
  const emitted = selected
    .filter((a) => a.applies(doc))
    .flatMap((a) => a.emit(ctx).map((file) => ({ artifact: a.name, file })));
  for (const e of emitted) routeRuntime(e.file, ctx.runtimeModule, artifactArea(e.artifact, doc.format));
  const generated: GeneratedFile[] = emitted.map((e) => e.file);
  const files = generated.map((g) => ({ path: g.path, content: renderFile(g, ctx, templates) }));
  files.push({ path: `${dir}/index.ts`, content: indexFile(spec.source ?? spec.display, generated.map((g) => g.path).filter((p) => p.endsWith(".ts")), dir) });
  if (render.readme) {
    const listed = emitted.map((e, i) => ({ artifact: e.artifact, path: e.file.path, content: files[i]!.content }));
    files.push({ path: `${dir}/README.md`, content: packageReadme(ctx, listed, render.readme.importPath, templates) });
  }
  if (render.plugins && render.plugins.length > 0) {
    const input = { doc, names, dir, source: ctx.source, runtimeModule: ctx.runtimeModule, int64: ctx.int64, dates: ctx.dates ?? "string", warn: ctx.warn! };
    const builtIn = new Set(generated.map((g) => g.path));
    files.push(...runPlugins(render.plugins, input, builtIn));
  }
  if (render.manifest) files.push(manifestFile(dir, files));
  return { spec, dir, doc, files, warnings: [...(doc.warnings ?? []), ...emitterWarnings] };
}

/** An emitter's warning, located in the file as the user names it (origins are relative to the entry's folder). */
function warningAt(spec: SpecInput, origin: Origin, detail: string): SpecWarning {
  const file = path.posix.normalize(path.posix.join(path.posix.dirname(spec.display), origin.file));
  return { file, line: origin.line, column: origin.column, detail };
}

/**
 * Runtime imports from the area entries of specforge's runtime (`specforge/runtime/<area>`), the artifact's own area
 * first, plus the runtime API check; a runtime module that is not specforge's is left as is (runtime-imports.ts).
 */
function routeRuntime(file: GeneratedFile, runtimeModule: string, preferred: RuntimeArea): void {
  const own = runtimeAreaModule(runtimeModule, preferred);
  if (own === undefined) return;
  file.routeRuntimeImports({
    from: runtimeModule,
    to: (name) => {
      const area = runtimeAreaOf(name, preferred);
      return area === undefined ? runtimeModule : runtimeAreaModule(runtimeModule, area)!;
    },
    check: {
      name: `RuntimeApi${RUNTIME_API}`,
      as: RUNTIME_API_EXPORT,
      from: own,
      comment: `Needs a specforge runtime serving API ${RUNTIME_API}: a compile error on the next line means the installed specforge is older than the one that generated this file.`,
    },
  });
}

/** A file through its handlebars shell when its emitter asks for one (see GeneratedFile.shell), else as is. */
function renderFile(g: GeneratedFile, ctx: EmitContext, templates: Templates): string {
  if (!g.shell) return g.render();
  return templates.render(g.shell.template as TemplateName, { ...g.parts(), ...specContext(ctx), ...g.shell.context });
}

function indexFile(source: string, paths: readonly string[], dir: string): string {
  const lines = [generatedHeader(source), ""];
  for (const p of paths) {
    const rel = `./${path.posix.relative(dir, p).replace(/\.ts$/, ".js")}`;
    lines.push(`export * from ${JSON.stringify(rel)};`);
  }
  return lines.join("\n") + "\n";
}
