import { GeneratedFile } from "../../codegen/generated-file.js";
import type { Artifact, EmitContext } from "../artifact.js";
import { typesContext } from "../types/context.js";
import { typesReachingCycles } from "./analysis.js";
import { Lines } from "./code.js";
import { ValidatorContext } from "./context.js";
import { emitSameShapeAliases, emitTypeValidators } from "./declarations.js";
import { sameShapeTypes } from "../types/same-shape.js";
import { ownSameShape, ownTypes, printSharedExports } from "../modules.js";

/**
 * The JSON validators artifact (OpenAPI): `validate.ts` with `is<T>`, `validate<T>` and `assert<T>` for every named
 * type, as straight-line code specialised per type. Validators check the in-memory value (the TypeScript shape, so
 * Date and bigint in those modes); decoders in json.ts convert wire JSON to that shape first.
 */
export function emitValidators(ctx: EmitContext): GeneratedFile {
  const types = typesContext(ctx.doc, ctx.names, { int64: ctx.int64, dates: ctx.dates ?? "string" });
  const f = new GeneratedFile(`${ctx.dir}/validate.ts`, ctx.source);
  const sameShape = ownSameShape(ctx.modules, sameShapeTypes(types));
  const v = new ValidatorContext(f, types, ctx.runtimeModule, typesReachingCycles(types), sameShape, ctx.formats ?? "assert", ctx.modules);
  const bodies = new Lines();
  // One module per input file: only this file's types; the others' functions are imported where used.
  const own = ownTypes(ctx);
  own.forEach((t, i) => {
    const sameAs = v.sameShape.get(t.id);
    if (sameAs === undefined) {
      bodies.append(emitTypeValidators(v, t));
      bodies.add("");
      return;
    }
    bodies.append(emitSameShapeAliases(v, t, sameAs));
    // Aliases are three lines under one comment: no blank line between consecutive ones.
    const next = own[i + 1];
    if (next === undefined || !v.sameShape.has(next.id)) bodies.add("");
  });
  f.jsdoc("", [
    `JSON validators for ${ctx.doc.info.title ?? ctx.source}: is<T> (fast boolean), validate<T> (every issue, with JSON pointer paths) and assert<T> for each type.`,
    "@packageDocumentation",
  ]);
  f.print();
  if (v.constants.lines.length > 0) {
    for (const line of v.constants.lines) f.print(...line);
    f.print();
  }
  for (const line of bodies.lines) f.print(...line);
  // The checks other modules call for this file's types (`$isMoney`, `$collectMoney`).
  printSharedExports(
    f,
    ctx,
    own.flatMap((t) => [
      [ctx.names.shared(t.id, "is"), v.isFn(t.id)] as const,
      [ctx.names.shared(t.id, "collect"), v.collectFn(t.id)] as const,
    ]),
  );
  return f;
}

export const jsonValidatorsArtifact: Artifact = {
  name: "json-validators",
  applies: (doc) => doc.format === "openapi",
  emit: (ctx) => [emitValidators(ctx)],
};
