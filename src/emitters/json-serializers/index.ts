import { GeneratedFile } from "../../codegen/generated-file.js";
import type { NamedType, TypeId } from "../../ir/model.js";
import type { Artifact, EmitContext } from "../artifact.js";
import { js, Lines, type Code } from "../json-validators/code.js";
import { typesContext } from "../types/context.js";
import { SerializerContext } from "./context.js";
import { reviverBody } from "./revivers.js";
import { writerBody } from "./writers.js";
import type { DerivedRole } from "../../naming/derived.js";
import { ownTypes, printSharedExports } from "../modules.js";

/**
 * The JSON serializers artifact (OpenAPI): `json.ts` with `encode<T>Json(value)` and `decode<T>Json(text, options)`
 * for every named type. Decoding parses strictly (duplicate keys, depth and number range are errors), converts to
 * the in-memory shape (Date / bigint modes) and validates with the type's validator, so a decoded value is a T.
 */
export function emitSerializers(ctx: EmitContext): GeneratedFile {
  const types = typesContext(ctx.doc, ctx.names, { int64: ctx.int64, dates: ctx.dates ?? "string" });
  const f = new GeneratedFile(`${ctx.dir}/json.ts`, ctx.source);
  const s = new SerializerContext(f, types, ctx.runtimeModule, ctx.modules);
  f.jsdoc("", [
    `JSON encoders and decoders for ${ctx.doc.info.title ?? ctx.source}.`,
    "Decoders reject malformed JSON and duplicate keys (JsonSyntaxError) and values that do not match the schema (ValidationError with every issue).",
    "@packageDocumentation",
  ]);
  f.print();
  // One module per input file: only this file's types; the others' functions are imported where used.
  const own = ownTypes(ctx);
  own.forEach((t, i) => {
    for (const line of typeFunctions(s, t).lines) f.print(...line);
    // Aliases of a same-shape type's codec are two lines under one comment: no blank line between consecutive ones.
    const next = own[i + 1];
    if (!s.sameShape.has(t.id) || next === undefined || !s.sameShape.has(next.id)) f.print();
  });
  // The revivers other modules call for this file's types (`$reviveMoney`).
  printSharedExports(f, ctx, own.flatMap((t) => (s.needsRevive.has(t.id) ? [[ctx.names.shared(t.id, "revive"), s.typeFn(t.id, "revive")] as const] : [])));
  return f;
}

function typeFunctions(ctx: SerializerContext, t: NamedType): Lines {
  const sameAs = ctx.sameShape.get(t.id);
  if (sameAs !== undefined) return sameShapeAliases(ctx, t, sameAs);
  ctx.beginType(t.id);
  const name = ctx.typeName(t.id);
  const fn = (role: DerivedRole) => ctx.types.names.derived(t.id, role);
  const declared = ctx.f.import(name, "./types.js", { typeOnly: true });
  // A nullable schema's own codecs take and give null too (see NamedType.nullable).
  const typeRef: Code = t.nullable ? js`${declared} | null` : declared;
  const out = new Lines();
  const what = t.kind === "record" ? ": declared properties in schema order, others only where the schema allows them" : "";
  out.add("", `/** JSON text of a {@link ${name}}${what}. */`);
  out.add("", js`export function ${fn("encodeJson")}(value: ${typeRef}): string {`);
  if (t.nullable) out.add("  ", 'if (value === null) return "null";');
  writerBody(ctx, t, out);
  out.add("", "}");
  out.add("");

  const revive = ctx.needsRevive.has(t.id);
  const options = ctx.f.import("JsonDecodeOptions", ctx.runtimeModule, { typeOnly: true });
  const parse = ctx.rt("jsonParse");
  const parsed = ctx.parseBigints ? js`${parse}(text, { maxDepth: options?.maxDepth, bigints: true })` : js`${parse}(text, options)`;
  out.add("", `/** Parse and validate a {@link ${name}}; throws JsonSyntaxError for malformed JSON, ValidationError (with every issue) for an invalid value. */`);
  out.add("", js`export function ${fn("decodeJson")}(text: string, options?: ${options}): ${typeRef} {`);
  out.add("  ", revive ? js`const value = ${fn("revive")}(${parsed});` : js`const value = ${parsed};`);
  const isFn = ctx.f.import(fn("is"), "./validate.js");
  const validateFn = ctx.f.import(fn("validate"), "./validate.js");
  out.add("  ", js`if (!${isFn}(value)) throw new ${ctx.rt("ValidationError")}(${validateFn}(value));`);
  out.add("  ", "return value;");
  out.add("", "}");
  if (revive) {
    out.add("");
    out.add("", `/** A parsed {@link ${name}}'s JSON (bytes, dates, 64-bit integers as the wire has them) in its in-memory shape; converts what it recognises and leaves the rest for validation. */`);
    out.add("", `export function ${fn("revive")}(value: unknown): unknown {`);
    if (t.nullable) out.add("  ", "if (value === null) return null;");
    reviverBody(ctx, t, out);
    out.add("", "}");
  }
  for (const line of ctx.helpers.lines) {
    if (String(line[1] ?? "").startsWith("function ")) out.add("");
    out.lines.push(line);
  }
  return out;
}

/**
 * A type with the shape of an earlier one (see types/same-shape.ts): its encoder and decoder are that
 * type's, under names typed for this one (the two types are structurally identical, so both directions fit).
 */
function sameShapeAliases(ctx: SerializerContext, t: NamedType, sameAs: TypeId): Lines {
  const name = ctx.typeName(t.id);
  const own = (role: DerivedRole) => ctx.types.names.derived(sameAs, role);
  const fn = (role: DerivedRole) => ctx.types.names.derived(t.id, role);
  const declared = ctx.f.import(name, "./types.js", { typeOnly: true });
  // Same shape includes nullability, so a nullable type's codecs take and give null like its first's do.
  const typeRef: Code = t.nullable ? js`${declared} | null` : declared;
  const options = ctx.f.import("JsonDecodeOptions", ctx.runtimeModule, { typeOnly: true });
  const out = new Lines();
  out.add("", `/** JSON codec of {@link ${name}}: the schema is the same as {@link ${own("encodeJson")}}'s, and so are the functions. */`);
  out.add("", js`export const ${fn("encodeJson")}: (value: ${typeRef}) => string = ${own("encodeJson")};`);
  out.add("", js`export const ${fn("decodeJson")}: (text: string, options?: ${options}) => ${typeRef} = ${own("decodeJson")};`);
  return out;
}

export const jsonSerializersArtifact: Artifact = {
  name: "json-serializers",
  applies: (doc) => doc.format === "openapi",
  emit: (ctx) => [emitSerializers(ctx)],
};
