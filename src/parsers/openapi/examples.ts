/**
 * Example values of schemas, parameters and media types (OpenAPI 3.0 `example` / `examples` maps of Example Objects,
 * 3.1 schema `examples` arrays, Swagger 2.0 parameter `x-example`; 2.0 response `examples` arrive here as the
 * converted media type's `example`). Examples are kept as written, with their origin; nothing checks them against
 * the schema here (a spec's example may be wrong: consumers that need a valid value validate it first).
 */
import type { Example, JsonData } from "../../ir/model.js";
import type { LowerContext } from "./context.js";
import type { Loc } from "./files.js";
import { child, entries, isObject, items, str } from "./json.js";

/** Examples written on a Schema Object: `example` (3.0) and an `examples` array (3.1, JSON Schema). */
export function schemaExamples(ctx: LowerContext, loc: Loc): Example[] | undefined {
  const out: Example[] = [];
  const one = child(loc, "example");
  if (one) out.push({ value: one.value as JsonData, origin: ctx.origin(one, `openapi example ${one.pointer}`) });
  const many = child(loc, "examples");
  if (many && Array.isArray(many.value)) {
    for (const item of items(many)) out.push({ value: item.value as JsonData, origin: ctx.origin(item, `openapi example ${item.pointer}`) });
  }
  return out.length > 0 ? out : undefined;
}

/**
 * Examples of a Parameter, Header or Media Type Object: `example`, the `examples` map of Example Objects (each may be
 * a `$ref` to `#/components/examples`; only `value` counts, an `externalValue` is not fetched), and Swagger 2.0's
 * `x-example`. When the object has none, its schema's examples stand in.
 */
export function objectExamples(ctx: LowerContext, loc: Loc, schema?: Loc): Example[] | undefined {
  const out: Example[] = [];
  const one = child(loc, "example") ?? child(loc, "x-example");
  if (one) out.push({ value: one.value as JsonData, origin: ctx.origin(one, `openapi example ${one.pointer}`) });
  const map = child(loc, "examples");
  if (map && isObject(map.value)) {
    for (const [name, raw] of entries(map)) {
      if (name.startsWith("x-")) continue;
      const ex = ctx.recover(() => ctx.deref(raw));
      if (!ex || !isObject(ex.value)) continue;
      const value = child(ex, "value");
      if (!value) continue;
      const summary = str(ex, "summary");
      out.push({ name, ...(summary !== undefined ? { summary } : {}), value: value.value as JsonData, origin: ctx.origin(value, `openapi example ${name}`) });
    }
  }
  if (out.length > 0) return out;
  if (!schema) return undefined;
  const target = ctx.recover(() => ctx.deref(schema));
  return target ? schemaExamples(ctx, target) : undefined;
}
