/**
 * One output module per input file: what emitters need when a spec imports files that have modules of their own
 * (EmitContext.modules, planned by src/pipeline/module-layout.ts).
 *
 * - A module declares only the types, services and extensions of its own file. A type of another file is imported
 *   from that file's module: types.ts imports and re-exports it (so `./types.js` still names every type the other
 *   files of the folder use, and the TypeScript type is the one declaration), and every other file imports the
 *   helper it needs from the same-named file of that module.
 * - A helper another module may need (a message's binary reader and writer, its ProtoJSON reader and enum tables,
 *   its text-format table, its validator's checker) is exported under the naming pass's shared name
 *   (`names.shared(id, role)`: `$readEntry`): no other name starts with `$` (identifier.ts), so these cannot clash
 *   with anything a spec names, and the importing module gets the same name from its own naming pass, without
 *   knowing which local name the helper got.
 */
import type { GeneratedFile } from "../codegen/generated-file.js";
import type { NamedType, TypeId } from "../ir/model.js";
import type { EmitContext, EmitModules, ForeignModule } from "./artifact.js";

/** The module that declares `id` when it is not this one. */
export function foreignModule(ctx: EmitContext, id: TypeId): ForeignModule | undefined {
  return ctx.modules?.foreign(id);
}

/** Whether this module declares `id` (always, unless the output is one module per input file). */
export function isOwnType(ctx: EmitContext, id: TypeId): boolean {
  return ctx.modules?.foreign(id) === undefined;
}

/** The types this module declares. */
export function ownTypes(ctx: EmitContext): NamedType[] {
  return ctx.doc.types.filter((t) => isOwnType(ctx, t.id));
}

export { moduleTableName } from "../naming/derived.js";

/** The modules of other input files that declare some of `ids`, in order of first appearance. */
export function foreignModules(ctx: EmitContext, ids: readonly TypeId[]): ForeignModule[] {
  const seen = new Set<ForeignModule>();
  for (const id of ids) {
    const home = foreignModule(ctx, id);
    if (home) seen.add(home);
  }
  return [...seen];
}

/**
 * A helper another module exports under `shared` (a name the naming pass gave: `names.shared(id, role)` or
 * moduleTableName), imported from that module's `file` ("protobuf" for protobuf.ts): the local name to print (the
 * import is added to `f`).
 */
export function importShared(f: GeneratedFile, home: ForeignModule, file: string, shared: string): string {
  return f.use(f.import(shared, `${home.specifier}/${file}.js`));
}

/** A public export of another module's `file` (e.g. `encodeEntry` from its protobuf.ts), as an import token. */
export function importPublic(f: GeneratedFile, home: ForeignModule, file: string, name: string, typeOnly = false) {
  return f.import(name, `${home.specifier}/${file}.js`, { typeOnly });
}

/**
 * The closing `export { readEntry as $readEntry, ... };` of a module whose output others may import: `helpers` maps
 * each shared name (as the naming pass gave it) to the local name the helper got. Nothing when the output is not
 * laid out per file.
 */
export function printSharedExports(f: GeneratedFile, ctx: EmitContext, helpers: readonly (readonly [shared: string, local: string])[]): void {
  if (ctx.modules === undefined || helpers.length === 0) return;
  if (!f.endsWithBlankLine()) f.print();
  f.jsdoc("", ["Helpers of this file's types for the generated modules that import this one (not part of the API)."]);
  f.print("export {");
  for (const [shared, local] of helpers) f.print(`  ${local} as ${shared},`);
  f.print("};");
}

/**
 * Same-shape types (types/same-shape.ts: a type whose functions are an earlier type's) kept to pairs of this module's
 * own types: a type of another module is checked and written by that module's functions, and an own type is never
 * made an alias of them (the validators and serializers of one module must agree, and an import would be needed).
 */
export function ownSameShape(modules: EmitModules | undefined, sameShape: ReadonlyMap<TypeId, TypeId>): ReadonlyMap<TypeId, TypeId> {
  if (modules === undefined) return sameShape;
  return new Map([...sameShape].filter(([t, first]) => modules.foreign(t) === undefined && modules.foreign(first) === undefined));
}

/**
 * A public function of named type `id` (`validateMoney`, `encodeMoneyJson`) from the artifact file that declares it:
 * this folder's `./<file>.js`, or for another input file's type, that file's module's.
 */
export function importTypeFunction(f: GeneratedFile, modules: EmitModules | undefined, id: TypeId, name: string, file: string) {
  const home = modules?.foreign(id);
  return home !== undefined ? importPublic(f, home, file, name) : f.import(name, `./${file}.js`);
}
