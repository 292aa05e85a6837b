import { GeneratedFile } from "../../codegen/generated-file.js";
import type { IrDocument } from "../../ir/model.js";
import type { Names } from "../../naming/assign-names.js";
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
  // OpenAPI documents declare the same inline schema over and over (Stripe: the `maxLength: 5000` string 727 times):
  // an inline schema whose declaration would read exactly like an earlier type's is declared as that type.
  const sameAs = doc.format === "openapi" ? sameShapeTypes(ctx, { docs: true }) : new Map<string, string>();
  for (const t of doc.types) {
    const earlier = t.anonymous ? sameAs.get(t.id) : undefined;
    if (earlier !== undefined) emitSameShapeAlias(f, t, earlier, ctx);
    else emitDeclaration(f, t, ctx);
    f.print();
  }
  emitExtensions(f, ctx);
  doc.services.forEach((s, i) => {
    emitService(f, s, names.service(i), ctx);
    f.print();
  });
  return f;
}
