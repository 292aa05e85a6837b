/**
 * One output module per input file. The layout function (planModules) decides, for a whole run, which output
 * folder each input file's generated code lives in; a spec then emits only what its own file declares and imports
 * the rest from the folders of the files it imports (linkModules), so a file imported by several specs is generated
 * once and two specs importing one message share one TypeScript type. See docs/cli/output-folders.md.
 *
 * This covers .proto specs (the measured case: content-stream.proto re-emitted all of content.proto) and OpenAPI
 * documents that `$ref` schemas of shared files (a components file). WSDLs sharing XSDs are still generated
 * self-contained (docs/cli/output-folders.md says why).
 */
import path from "node:path";
import YAML from "yaml";
import type { IrDocument, Origin, TypeId } from "../ir/model.js";
import { assignNames, type Names } from "../naming/assign-names.js";
import type { EmitModules, ForeignModule } from "../emitters/artifact.js";
import type { SpecHost } from "../parsers/host.js";
import { loadProtoFiles } from "../parsers/proto/load.js";
import type { SpecInput } from "./generate-files.js";
import { isSpecError, loadSpec } from "./load-spec.js";
import type { OpenApiOptions } from "../parsers/openapi/index.js";
import { outputDirFor } from "./output-dir.js";
import { specKindByExtension } from "./spec-kind.js";

/**
 * The layout of a run: every spec of the run, plus one implicit spec (`importedOnly`) per imported file that is not a
 * spec itself and gets a module (so it gets a folder, a manifest and events like any spec), each spec that takes
 * part carrying the run's module map (`SpecInput.modules`: absolute input file -> output folder). A .proto gets a
 * module whenever a spec imports it; an OpenAPI file when two specs or modules take types from it (otherwise it
 * stays part of the one document that reads it) and it generates alone, declaring every type they take from it.
 *
 * Rules, all deterministic and independent of the working folder:
 * - A spec keeps its folder (its `out`, else outputDirFor). An imported file that is not a spec gets outputDirFor
 *   of its name; when that folder is taken, its path relative to the project folder (separators as `-`), then
 *   `_2`, `_3`, ... Specs are placed in config order, then imported files in the order the specs first import them.
 * - An imported-only file's module takes the settings (int64, dates, artifacts, runtime module; OpenAPI formats,
 *   jsonSchema and version) of the first spec importing it. A spec shares modules only when every file it reads has one with its own settings; otherwise
 *   (and when its imports cannot be read: its own generation reports that) it is generated self-contained as before.
 * - A run in which no spec imports another file is left as it is; in a run where some do, a spec that neither
 *   imports a file nor is imported is too (no module exports its helpers).
 */
export function planModules(specs: readonly SpecInput[], host: SpecHost, project: string): SpecInput[] {
  const closures = new Map<SpecInput, string[] | undefined>();
  /** OpenAPI: for each file documents take types from, those types' ids in the file's own document. */
  const needs = new Map<string, Set<TypeId>>();
  for (const spec of specs) closures.set(spec, closureOf(spec, host, needs));
  if (![...closures.values()].some((c) => c !== undefined && c.length > 1)) return [...specs];
  // OpenAPI: the version a document's schemas are read by is one of the settings modules must agree on.
  specs = specs.map((spec) => {
    if (specKindByExtension(spec.file) !== "openapi") return spec;
    const version = openApiVersionOf(path.resolve(spec.file), host);
    if (version === undefined) return spec;
    const versioned = { ...spec, openApiVersion: version };
    closures.set(versioned, closures.get(spec));
    return versioned;
  });

  const taken = new Set<string>();
  const owner = new Map<string, SpecInput>();
  const dirs = new Map<string, string>();
  for (const spec of specs) {
    const dir = spec.outDir ?? outputDirFor(spec.file);
    taken.add(dir);
    const file = path.resolve(spec.file);
    if (closures.get(spec) === undefined || owner.has(file)) continue;
    owner.set(file, spec);
    dirs.set(file, dir);
  }
  const implicit: SpecInput[] = [];
  const unshared = new Set<string>();
  /** Every spec and module, with the files it reads types from (not its own). */
  const holders = (): SpecInput[] => [...specs, ...implicit].filter((h) => closures.get(h) !== undefined);
  /**
   * Whether an imported file gets a module of its own: a .proto always; an OpenAPI file only when two specs or
   * modules take types from it (a file only one document reads stays in that document's folder, so a document split
   * over many files, DigitalOcean's hundreds, is one folder as before).
   */
  const wantsModule = (file: string): boolean =>
    specKindByExtension(file) !== "openapi" || holders().filter((h) => path.resolve(h.file) !== file && closures.get(h)!.includes(file)).length >= 2;
  // Passes until no file gains a module: a new module's own imports may make another file shared.
  for (let changed = true; changed; ) {
    changed = false;
    for (const spec of holders()) {
      for (const file of closures.get(spec) ?? []) {
        if (owner.has(file) || unshared.has(file) || !wantsModule(file)) continue;
        // A shared OpenAPI file must generate on its own and declare every type the documents take from it;
        // otherwise it gets no module (so an error in a schema no document uses does not fail the run) and the
        // documents that read it stay self-contained.
        if (specKindByExtension(file) === "openapi" && !declaresAlone(file, { ...settingsOf(spec), file, display: file }, needs.get(file), host)) {
          unshared.add(file);
          continue;
        }
        const dir = freeFolder(file, project, taken);
        taken.add(dir);
        dirs.set(file, dir);
        const source = path.relative(project, file).split(path.sep).join("/");
        const display = host.displayPath(file);
        // A shared OpenAPI file that is a document itself is read by its own version, a components file by the importer's.
        const version = specKindByExtension(file) === "openapi" ? openApiVersionOf(file, host) : undefined;
        const module: SpecInput = { ...settingsOf(spec), ...(version ? { openApiVersion: version } : {}), file, display, source, outDir: dir, importedOnly: true };
        owner.set(file, module);
        implicit.push(module);
        closures.set(module, closureOf(module, host, needs));
        changed = true;
      }
    }
  }
  const modules: Record<string, string> = Object.fromEntries([...dirs].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  /** An OpenAPI file without a module is part of the one document (or module) that reads it. */
  const folded = (f: string) => !owner.has(f) && !unshared.has(f) && specKindByExtension(f) === "openapi";
  const shares = (spec: SpecInput, closure: readonly string[]) =>
    owner.get(path.resolve(spec.file)) === spec && closure.every((f) => (owner.has(f) ? sameSettings(owner.get(f)!, spec) : folded(f)));
  // Only specs that import a module or are imported take part: the others stay as they were (no `$` helper exports).
  const imported = new Set([...closures.values()].flatMap((c) => c?.slice(1) ?? []));
  const planned = (spec: SpecInput): SpecInput => {
    const closure = closures.get(spec);
    const self = path.resolve(spec.file);
    const takesPart = closure !== undefined && (closure.some((f) => f !== self && owner.has(f)) || (imported.has(self) && owner.get(self) === spec));
    return takesPart && shares(spec, closure) ? { ...spec, modules } : spec;
  };
  return [...specs, ...implicit].map(planned);
}

/** The input files a spec's types come from (itself first), or undefined when it is not laid out per file. */
function closureOf(spec: SpecInput, host: SpecHost, needs?: Map<string, Set<TypeId>>): string[] | undefined {
  const kind = specKindByExtension(spec.file);
  if (kind === "proto") return protoClosure(spec.file, host);
  if (kind === "openapi") return openApiClosure(spec, host, needs);
  // WSDL/XSD: generated self-contained (an XSD's codecs live in one table per output; see the docs).
  return undefined;
}

/** A `$ref` to another file (not `#/...` inside the same one), as YAML or JSON spell it. */
const EXTERNAL_REF = /["']?\$ref["']?\s*:\s*["']?(?!#)[^\s"'#]/;

/**
 * The files an OpenAPI document's types are declared in (itself first, then the others in the order the parser read
 * them), or undefined when it cannot be read. A file the document reads for no type (an `info.description` kept
 * elsewhere) is not one. Documents without a `$ref` to another file are not loaded here (most are: Stripe's is one
 * file of 7 MB), so laying out a run costs nothing for them.
 */
function openApiClosure(spec: SpecInput, host: SpecHost, needs?: Map<string, Set<TypeId>>): string[] | undefined {
  const file = path.resolve(spec.file);
  try {
    if (!EXTERNAL_REF.test(host.readFile(file))) return [file];
    const doc = loadSpec(file, host, openApiOptions(spec));
    const files = new Set([file]);
    for (const t of doc.types) {
      const home = path.resolve(path.dirname(file), t.origin.file);
      files.add(home);
      if (needs === undefined || home === file) continue;
      const ids = needs.get(home) ?? new Set<TypeId>();
      needs.set(home, ids.add(openApiHomeId(t.id, home)));
    }
    return [...files];
  } catch {
    return undefined;
  }
}

/**
 * An OpenAPI type's id in the document of the file that declares it. Ids name the file relative to the entry that
 * read it (`openapi:api/common.yaml#/components/...`); in the file's own document it is the entry
 * (`openapi:common.yaml#/components/...`).
 */
function openApiHomeId(id: TypeId, file: string): TypeId {
  const hash = id.indexOf("#");
  return `openapi:${path.basename(file)}${hash < 0 ? "" : id.slice(hash)}`;
}

/** Whether a shared OpenAPI file generates on its own (as `module` reads it) and declares every type in `needed`. */
function declaresAlone(file: string, module: SpecInput, needed: ReadonlySet<TypeId> | undefined, host: SpecHost): boolean {
  const version = openApiVersionOf(file, host) ?? module.openApiVersion;
  try {
    const doc = loadSpec(file, host, openApiOptions({ ...module, ...(version ? { openApiVersion: version } : {}) }));
    const ids = new Set(doc.types.map((t) => t.id));
    return [...(needed ?? [])].every((id) => ids.has(id));
  } catch (e) {
    if (isSpecError(e)) return false;
    throw e;
  }
}

/** The OpenAPI version of a document (Swagger 2.0 is read as its 3.0 conversion), undefined for a file that has none. */
function openApiVersionOf(file: string, host: SpecHost): "3.0" | "3.1" | undefined {
  try {
    const root: unknown = YAML.parse(host.readFile(file), { maxAliasCount: 100 });
    if (root === null || typeof root !== "object") return undefined;
    const { openapi, swagger } = root as { openapi?: unknown; swagger?: unknown };
    if (typeof openapi === "string") return openapi.startsWith("3.1.") ? "3.1" : "3.0";
    return swagger !== undefined ? "3.0" : undefined;
  } catch {
    return undefined;
  }
}

/** How a spec's OpenAPI files are read: the spec's `jsonSchema`, and a shared components file's version. */
export function openApiOptions(spec: SpecInput): OpenApiOptions {
  return {
    ...(spec.jsonSchema ? { jsonSchema: spec.jsonSchema } : {}),
    ...(spec.openApiVersion ? { sharedComponents: spec.openApiVersion } : {}),
  };
}

/** Every file a .proto reads (itself first, then its imports, transitively), or undefined when they cannot be read. */
function protoClosure(file: string, host: SpecHost): string[] | undefined {
  try {
    // Only the files are wanted: parsing is cheap next to generation, and errors surface when the spec generates.
    return loadProtoFiles(file, host).map((f) => path.resolve(f.ast.path));
  } catch {
    return undefined;
  }
}

function settingsOf(spec: SpecInput): Partial<SpecInput> {
  const { int64, dates, runtimeModule, artifacts, artifactNames, formats, jsonSchema, openApiVersion } = spec;
  return {
    ...(int64 !== undefined ? { int64 } : {}),
    ...(dates !== undefined ? { dates } : {}),
    ...(formats !== undefined ? { formats } : {}),
    ...(jsonSchema !== undefined ? { jsonSchema } : {}),
    ...(openApiVersion !== undefined ? { openApiVersion } : {}),
    ...(runtimeModule !== undefined ? { runtimeModule } : {}),
    ...(artifacts !== undefined ? { artifacts } : {}),
    ...(artifactNames !== undefined ? { artifactNames } : {}),
  };
}

function sameSettings(a: SpecInput, b: SpecInput): boolean {
  return JSON.stringify(settingsOf(a)) === JSON.stringify(settingsOf(b));
}

/**
 * A folder for an imported file's module that no other module's folder is, contains or is inside of (a spec's `out`
 * may be nested, `api/v2`): each folder is replaced as the set of files its module owns.
 */
function freeFolder(file: string, project: string, taken: ReadonlySet<string>): string {
  const clashes = (dir: string) => [...taken].some((t) => t === dir || t.startsWith(`${dir}/`) || dir.startsWith(`${t}/`));
  const byName = outputDirFor(file);
  if (!clashes(byName)) return byName;
  const rel = path.relative(project, file).split(path.sep).filter((s) => s !== "..");
  const byPath = [...rel.slice(0, -1), outputDirFor(file)].join("-").replace(/[^A-Za-z0-9._-]+/g, "-").replace(/^[.-]+/, "") || "spec";
  let dir = byPath;
  for (let i = 2; clashes(dir); i++) dir = `${byPath}_${i}`;
  return dir;
}

/**
 * Two imported files whose modules gave a type the same name (`a.Id` and `b.Id`, in different packages): both would
 * be imported under one name. Generated code does not alias imports yet (issue 28 item 1), so such a spec stays
 * self-contained, where the naming pass tells them apart (`Id`, `Id_2`).
 */
function importedNamesClash(doc: IrDocument, typeFile: ReadonlyMap<TypeId, string>, self: string, moduleOf: (file: string) => { names: Names }): boolean {
  const homeOfName = new Map<string, string>();
  for (const t of doc.types) {
    const file = typeFile.get(t.id);
    if (file === undefined || file === self) continue;
    const names = moduleOf(file).names;
    const declared = [names.type(t.id), names.family(t.id), t.kind === "enum" ? names.enumValues(t.id) : undefined];
    for (const n of declared) {
      if (n === undefined) continue;
      const other = homeOfName.get(n);
      if (other !== undefined && other !== file) return true;
      homeOfName.set(n, file);
    }
  }
  return false;
}

/** What linkModules gives generation: the document as this module emits it, its names, and the other modules. */
export interface ModuleLinks {
  readonly doc: IrDocument;
  readonly names: Names;
  readonly modules: EmitModules;
}

/**
 * Link a spec (proto, OpenAPI) to the modules of the files it imports (SpecInput.modules): the names of their types
 * (as their own generation gives them, computed here the same way) and where to import them from. Undefined when the
 * spec is generated self-contained: not laid out per file, a file it reads has no module, or an extension declared
 * in one file extends a message of another (that message's codec lives in the other module, which cannot know it),
 * or (OpenAPI) a type it reads from another file is not one that file's module declares (a schema outside
 * `components.schemas`, say a response's inline schema in a shared file).
 */
export function linkModules(spec: SpecInput, doc: IrDocument, host: SpecHost): ModuleLinks | undefined {
  const layout = spec.modules;
  if (layout === undefined || (doc.format !== "proto" && doc.format !== "openapi")) return undefined;
  const self = path.resolve(spec.file);
  const dir = layout[self];
  if (dir === undefined) return undefined;
  const openapi = doc.format === "openapi";
  const docs = new Map<string, { doc: IrDocument; names: Names; ids: ReadonlySet<TypeId> }>();
  /**
   * The file whose module declares what `origin` is in: its own file, or for OpenAPI, when that file has no module
   * (only this document reads it, planModules), the entry itself.
   */
  const fileOf = (entry: string, origin: Origin) => {
    const file = path.resolve(path.dirname(entry), origin.file);
    return openapi && layout[file] === undefined ? entry : file;
  };
  const shareable = (entry: string, d: IrDocument) => {
    const typeFile = new Map(d.types.map((t) => [t.id, fileOf(entry, t.origin)]));
    // A proto module needs every file it reads laid out (an OpenAPI one's files without a module are its own).
    if (!openapi && !d.files.every((f) => layout[path.resolve(path.dirname(entry), f)] !== undefined)) return false;
    return d.extensions.every((e) => typeFile.get(e.extendee) === undefined || typeFile.get(e.extendee) === fileOf(entry, e.origin));
  };
  if (!shareable(self, doc)) return undefined;

  /**
   * A type's id in the document of the file that declares it. Proto ids are full names, the same everywhere;
   * OpenAPI ids name the file relative to the entry that read it (`openapi:api/common.yaml#/components/...`), and
   * in the file's own module it is the entry (`openapi:common.yaml#/components/...`).
   */
  const homeId = (id: TypeId, file: string): TypeId => (openapi ? openApiHomeId(id, file) : id);
  /** A module's names, asked with the ids of a document that imports it. */
  const namesFor = (file: string): Names => {
    const home = moduleOf(file).names;
    return openapi ? translatedNames(home, (id) => homeId(id, file)) : home;
  };

  /** The names of a module's document: its imports' types keep their modules' names. */
  const namesOf = (entry: string, d: IrDocument): Names => {
    const typeFile = new Map(d.types.map((t) => [t.id, fileOf(entry, t.origin)]));
    return assignNames(d, {
      homeOf: (id) => {
        const file = typeFile.get(id);
        return file === undefined || file === entry ? undefined : namesFor(file);
      },
    });
  };
  const moduleOf = (file: string): { doc: IrDocument; names: Names; ids: ReadonlySet<TypeId> } => {
    let known = docs.get(file);
    if (known === undefined) {
      const d = loadSpec(file, host, openApiOptions(spec));
      known = { doc: d, names: namesOf(file, d), ids: new Set(d.types.map((t) => t.id)) };
      docs.set(file, known);
    }
    return known;
  };

  const foreign = new Map<string, ForeignModule>();
  const typeFile = new Map<TypeId, string>(doc.types.map((t) => [t.id, fileOf(self, t.origin)]));
  const modules: EmitModules = {
    foreign: (id) => {
      const file = typeFile.get(id);
      if (file === undefined || file === self) return undefined;
      let home = foreign.get(file);
      if (home === undefined) {
        const rel = path.posix.relative(dir, layout[file]!);
        home = { specifier: rel.startsWith(".") ? rel : `./${rel}`, dir: layout[file]!, doc: moduleOf(file).doc, names: namesFor(file) };
        foreign.set(file, home);
      }
      return home;
    },
  };
  let names: Names;
  try {
    // Every type read from another file must be one its module declares (and names).
    for (const [id, file] of typeFile) if (file !== self && !moduleOf(file).ids.has(homeId(id, file))) return undefined;
    names = namesOf(self, doc);
    if (importedNamesClash(doc, typeFile, self, (file) => ({ names: namesFor(file) }))) return undefined;
  } catch (e) {
    // An imported file that does not generate on its own (its own module reports why): this spec stays whole.
    if (isSpecError(e)) return undefined;
    throw e;
  }
  // A service is declared by its own file's module (types.ts's operations interface, connect.ts).
  const own = { ...doc, services: doc.services.filter((s) => fileOf(self, s.origin) === self) };
  return { doc: own, names, modules };
}

/** Names asked with another document's type ids: each id is translated to the one the names were made with. */
function translatedNames(names: Names, id: (id: TypeId) => TypeId): Names {
  return {
    ...names,
    type: (t) => names.type(id(t)),
    family: (t) => names.family(id(t)),
    enumValues: (t) => names.enumValues(id(t)),
    standardSchema: (t) => names.standardSchema(id(t)),
    derived: (t, role) => names.derived(id(t), role),
    extensions: (t) => names.extensions(id(t)),
  };
}
