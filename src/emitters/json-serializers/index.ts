import { GeneratedFile } from "../../codegen/generated-file.js";
import type { NamedType } from "../../ir/model.js";
import type { Artifact, EmitContext } from "../artifact.js";
import { js, Lines, type Code } from "../json-validators/code.js";
import { typesContext } from "../types/context.js";
import { SerializerContext } from "./context.js";
import { reviverBody } from "./revivers.js";
import { writerBody } from "./writers.js";

/**
 * The JSON serializers artifact (OpenAPI): `json.ts` with `encode<T>Json(value)` and `decode<T>Json(text, options)`
 * for every named type. Decoding parses strictly (duplicate keys, depth and number range are errors), converts to
 * the in-memory shape (Date / bigint modes) and validates with the type's validator, so a decoded value is a T.
 */
export function emitSerializers(ctx: EmitContext): GeneratedFile {
  const types = typesContext(ctx.doc, ctx.names, { int64: ctx.int64, dates: ctx.dates ?? "string" });
  const f = new GeneratedFile(`${ctx.dir}/json.ts`, ctx.source);
  const s = new SerializerContext(f, types, ctx.runtimeModule);
  f.jsdoc("", [
    `JSON encoders and decoders for ${ctx.doc.info.title ?? ctx.source}.`,
    "Decoders reject malformed JSON and duplicate keys (JsonSyntaxError) and values that do not match the schema (ValidationError with every issue).",
    "@packageDocumentation",
  ]);
  f.print();
  for (const t of ctx.doc.types) {
    for (const line of typeFunctions(s, t).lines) f.print(...line);
    f.print();
  }
  return f;
}

function typeFunctions(ctx: SerializerContext, t: NamedType): Lines {
  ctx.beginType(t.id);
  const name = ctx.typeName(t.id);
  const declared = ctx.f.import(name, "./types.js", { typeOnly: true });
  // A nullable schema's own codecs take and give null too (see NamedType.nullable).
  const typeRef: Code = t.nullable ? js`${declared} | null` : declared;
  const out = new Lines();
  const what = t.kind === "record" ? ": declared properties in schema order, others only where the schema allows them" : "";
  out.add("", `/** JSON text of a {@link ${name}}${what}. */`);
  out.add("", js`export function encode${name}Json(value: ${typeRef}): string {`);
  if (t.nullable) out.add("  ", 'if (value === null) return "null";');
  writerBody(ctx, t, out);
  out.add("", "}");
  out.add("");

  const revive = ctx.needsRevive.has(t.id);
  const options = ctx.f.import("JsonDecodeOptions", ctx.runtimeModule, { typeOnly: true });
  const parse = ctx.rt("jsonParse");
  const parsed = ctx.parseBigints ? js`${parse}(text, { maxDepth: options?.maxDepth, bigints: true })` : js`${parse}(text, options)`;
  out.add("", `/** Parse and validate a {@link ${name}}; throws JsonSyntaxError for malformed JSON, ValidationError (with every issue) for an invalid value. */`);
  out.add("", js`export function decode${name}Json(text: string, options?: ${options}): ${typeRef} {`);
  out.add("  ", revive ? js`const value = revive${name}(${parsed});` : js`const value = ${parsed};`);
  const isFn = ctx.f.import(`is${name}`, "./validate.js");
  const validateFn = ctx.f.import(`validate${name}`, "./validate.js");
  out.add("  ", js`if (!${isFn}(value)) throw new ${ctx.rt("ValidationError")}(${validateFn}(value));`);
  out.add("  ", "return value;");
  out.add("", "}");
  if (revive) {
    out.add("");
    out.add("", `function revive${name}(value: unknown): unknown {`);
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

export const jsonSerializersArtifact: Artifact = {
  name: "json-serializers",
  applies: (doc) => doc.format === "openapi",
  emit: (ctx) => [emitSerializers(ctx)],
};
