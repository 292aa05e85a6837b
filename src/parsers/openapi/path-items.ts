/**
 * Path items as documents write them: inline, or a `$ref` (OpenAPI 3.0 and 3.1 allow one on a path item, pointing
 * into `components/pathItems` or into another file's `paths`), with the referencing object's own fields layered
 * over the referenced item's. Operations inside may themselves be a `$ref` to a file holding one operation
 * (DigitalOcean's layout: `get: {$ref: resources/x/y.yml}`); OpenAPI does not define that, so it is an extension,
 * resolved like any other reference.
 */
import type { LowerContext } from "./context.js";
import type { Loc } from "./files.js";
import { entries, isObject } from "./json.js";

export const METHODS = new Set(["get", "put", "post", "delete", "options", "head", "patch", "trace"]);

/** A path item's fields after following its `$ref`s: later (referencing) objects win, field by field. */
export function pathItemFields(ctx: LowerContext, loc: Loc, seen = new Set<string>()): Map<string, Loc> {
  const key = `${loc.file.path}${loc.pointer}`;
  if (seen.has(key)) return ctx.fail(loc, "circular $ref between path items");
  seen.add(key);
  if (!isObject(loc.value)) return ctx.fail(loc, "a path item must be an object");
  const target = ctx.resolveRef(loc);
  const fields = target ? pathItemFields(ctx, target, seen) : new Map<string, Loc>();
  for (const [name, value] of entries(loc)) if (name !== "$ref") fields.set(name, value);
  return fields;
}

/** The operations of a path item, by method in document order, each resolved through its own `$ref`s. */
export function pathItemOperations(ctx: LowerContext, fields: ReadonlyMap<string, Loc>): [method: string, op: Loc][] {
  const ops: [string, Loc][] = [];
  for (const [method, op] of fields) {
    if (!METHODS.has(method)) continue;
    const resolved = ctx.deref(op);
    if (!isObject(resolved.value)) ctx.fail(resolved, `the ${method} operation must be an object`);
    ops.push([method, resolved]);
  }
  return ops;
}
