import { GeneratedFile } from "../../codegen/generated-file.js";
import type { IrDocument } from "../../ir/model.js";
import type { Names } from "../../naming/assign-names.js";
import { typesContext, type TypesOptions } from "./context.js";
import { emitDeclaration } from "./declarations.js";
import { emitExtensions } from "./extensions.js";
import { emitService } from "./services.js";

/**
 * The types artifact: one `types.ts` per spec with a declaration for every named type and an operations interface
 * per service. It imports nothing, so it can be used alone.
 */
export function emitTypes(
  doc: IrDocument,
  names: Names,
  options: Partial<TypesOptions> & { readonly dir: string; readonly source: string },
): GeneratedFile {
  const ctx = typesContext(doc, names, options);
  const f = new GeneratedFile(`${options.dir}/types.ts`, options.source);
  f.jsdoc("", [
    `Types for ${doc.info.title ?? options.source}${doc.info.version ? ` (version ${doc.info.version})` : ""}.`,
    doc.info.doc,
    "@packageDocumentation",
  ]);
  f.print();
  for (const t of doc.types) {
    emitDeclaration(f, t, ctx);
    f.print();
  }
  emitExtensions(f, ctx);
  doc.services.forEach((s, i) => {
    emitService(f, s, names.service(i), ctx);
    f.print();
  });
  return f;
}
