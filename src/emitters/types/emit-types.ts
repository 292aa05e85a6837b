import { stringLiteral } from "../../codegen/escape.js";
import { GeneratedFile } from "../../codegen/generated-file.js";
import type { IrDocument, TypeId } from "../../ir/model.js";
import type { Names } from "../../naming/assign-names.js";
import type { EmitModules, ForeignModule } from "../artifact.js";
import { typesContext, type TypesOptions } from "./context.js";
import { emitDeclaration, emitSameShapeAlias } from "./declarations.js";
import { emitExtensions } from "./extensions.js";
import { sameShapeTypes } from "./same-shape.js";
import { emitService } from "./services.js";

/**
 * The types artifact: one `types.ts` per spec with a declaration for every named type and an operations interface
 * per service. It imports nothing, so it can be used alone.
 */
export function emitTypes(
  doc: IrDocument,
  names: Names,
  options: Partial<TypesOptions> & { readonly dir: string; readonly source: string; readonly modules?: EmitModules },
): GeneratedFile {
  const modules = options.modules;
  const own = (id: TypeId) => modules?.foreign(id) === undefined;
  /** A service or extension of this module's own file (every one, unless the output is one module per input file). */
  const ownDecl = (origin: { readonly file: string }) => modules === undefined || origin.file === doc.entry;
  const ctx = typesContext(doc, names, options);
  const f = new GeneratedFile(`${options.dir}/types.ts`, options.source);
  f.jsdoc("", [
    `Types for ${doc.info.title ?? options.source}${doc.info.version ? ` (version ${doc.info.version})` : ""}.`,
    doc.info.doc,
    "@packageDocumentation",
  ]);
  f.print();
  if (modules) reexportForeignTypes(f, doc, names, modules);
  // OpenAPI documents declare the same inline schema over and over (Stripe: the `maxLength: 5000` string 727 times):
  // an inline schema whose declaration would read exactly like an earlier type's is declared as that type.
  const sameAs = doc.format === "openapi" ? sameShapeTypes(ctx, { docs: true }) : new Map<string, string>();
  for (const t of doc.types) {
    if (!own(t.id)) continue;
    const earlier = t.anonymous ? sameAs.get(t.id) : undefined;
    if (earlier !== undefined) emitSameShapeAlias(f, t, earlier, ctx);
    else emitDeclaration(f, t, ctx);
    f.print();
  }
  emitExtensions(f, ctx, (e) => own(e.extendee) && ownDecl(e.origin));
  doc.services.forEach((s, i) => {
    if (!ownDecl(s.origin)) return;
    emitService(f, s, names.service(i), ctx);
    f.print();
  });
  return f;
}

/**
 * The types of other input files, imported from their modules and exported again: the other files of this folder
 * import every type from `./types.js`, and users of this module keep finding them here. Each is the one declaration
 * of its home module, so values pass between modules that share it.
 */
function reexportForeignTypes(f: GeneratedFile, doc: IrDocument, names: Names, modules: EmitModules): void {
  const byHome = new Map<ForeignModule, { types: string[]; values: string[] }>();
  for (const t of doc.types) {
    const home = modules.foreign(t.id);
    if (home === undefined) continue;
    const entry = byHome.get(home) ?? { types: [], values: [] };
    byHome.set(home, entry);
    entry.types.push(names.type(t.id));
    const family = names.family(t.id);
    if (family !== undefined) entry.types.push(family);
    if (t.kind === "enum") entry.values.push(names.enumValues(t.id));
  }
  if (byHome.size === 0) return;
  f.jsdoc("", ["Types of the files this one imports: declared once, in their own modules."]);
  for (const [home, { types, values }] of byHome) {
    const from = `${home.specifier}/types.js`;
    const local = types.map((n) => f.use(f.import(n, from, { typeOnly: true })));
    f.print(`export type { ${local.join(", ")} };`);
    if (values.length > 0) f.print(`export { ${values.join(", ")} } from ${stringLiteral(from)};`);
  }
  f.print();
}
