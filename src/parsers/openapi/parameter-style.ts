/**
 * The `style` and `explode` of a parameter, checked against what OpenAPI defines (Style Values and Style Examples,
 * OAS 3.1.1): a combination the specification leaves undefined is a SpecError at the offending key, so it never
 * becomes a client and a server that disagree. One deliberate extension: deepObject accepts any value, written in
 * the bracket convention real APIs use (Stripe: `expand[0]=a`, `created=1`, `created[gt]=1`); docs/parameters.md.
 *
 * One case is degraded rather than refused ("degrade, never refuse"): an array or object nested inside the value of
 * a style that has one level (RFC 6570: form, simple, label, matrix, the delimited styles), which OpenAPI leaves
 * undefined and real APIs declare often (AWS's query-protocol documents, Jira, EVE's ESI). A query parameter is
 * then written in the bracket convention of deepObject (what qs, axios, hey-api and Stripe's clients write); a path,
 * header or cookie parameter, where brackets have no place, as its JSON text (like `content: application/json`).
 * Either way the value stays typed and validated, the client and the server share the choice, and a located
 * warning says so.
 */
import type { HttpParameter, TypeExpr } from "../../ir/model.js";
import { PARAMETER_STYLES_AT, parameterSerialization, parameterShape, type NamedLookup } from "../../ir/parameter-shape.js";
import type { LowerContext } from "./context.js";
import type { Loc } from "./files.js";
import { child, entries } from "./json.js";

const ALL_STYLES = new Set(Object.values(PARAMETER_STYLES_AT).flat());
const DELIMITED = new Set(["spaceDelimited", "pipeDelimited", "tabDelimited"]);

/** How a degraded parameter travels instead of its declared style (see the file comment). */
export type SerializationOverride = Pick<HttpParameter, "style" | "explode" | "content">;

/**
 * Check a parameter's serialization. `p` is the Parameter Object (for error positions), `type` its lowered schema.
 * Parameters described by `content` instead of `schema` are serialized by their media type and not checked here.
 * Returns the serialization that replaces the declared one when the parameter is degraded (with a warning), else
 * undefined.
 */
export function checkParameterStyle(
  ctx: LowerContext,
  p: Loc,
  param: Pick<HttpParameter, "name" | "in" | "style" | "explode">,
  type: TypeExpr,
): SerializationOverride | undefined {
  if (child(p, "content") && !child(p, "schema")) return undefined;
  const styleLoc = child(p, "style") ?? p;
  const explodeLoc = child(p, "explode") ?? styleLoc;
  const what = `${param.in} parameter "${param.name}"`;
  const { style, explode } = parameterSerialization(param);
  if (!ALL_STYLES.has(style)) {
    ctx.fail(styleLoc, `${what}: unknown style "${style}" (OpenAPI defines ${[...ALL_STYLES].filter((s) => s !== "tabDelimited").join(", ")})`);
  }
  const allowed = PARAMETER_STYLES_AT[param.in];
  if (!allowed.includes(style)) {
    ctx.fail(styleLoc, `${what}: style "${style}" is not defined for ${param.in} parameters (use ${allowed.join(" or ")})`);
  }
  if (style === "deepObject" && param.explode === false) {
    ctx.fail(explodeLoc, `${what}: deepObject with explode: false is undefined by OpenAPI (omit explode or set it to true)`);
  }
  const lookup: NamedLookup = (id) => ctx.named.get(id);
  const shape = parameterShape(type, lookup);
  if (shape.unknown && shape.shapes.size === 0) return undefined;
  if (shape.nested && style !== "deepObject") return degradeNested(ctx, p, param.in, what, style);
  if (DELIMITED.has(style)) {
    if (shape.shapes.has("primitive")) {
      ctx.fail(styleLoc, `${what}: ${style} is defined for arrays and objects only, not for a ${describe(shape.shapes)} value`);
    }
    if (explode && shape.shapes.has("object")) {
      ctx.fail(explodeLoc, `${what}: ${style} with explode: true is undefined by OpenAPI for objects (set explode: false)`);
    }
  }
  return undefined;
}

/**
 * An array or object inside the value of a one-level style: the query writes it in the bracket convention
 * (deepObject), the other locations as JSON text. The warning sits at the parameter's `schema` (what makes the value
 * nested) and names the rule and the choice.
 */
function degradeNested(ctx: LowerContext, p: Loc, where: HttpParameter["in"], what: string, style: string): SerializationOverride {
  const at = child(p, "schema") ?? p;
  const undefinedBy = `style ${style} cannot carry arrays or objects inside the value (RFC 6570 has one level; OpenAPI leaves it undefined)`;
  if (where === "query") {
    ctx.warn(at, `${what}: ${undefinedBy}; written in deepObject's bracket convention instead (name[0][key]=value, as qs and most clients write it)`);
    return { style: "deepObject", explode: true };
  }
  ctx.warn(at, `${what}: ${undefinedBy}; sent as its JSON text instead (as if declared with content application/json)`);
  return { content: "application/json" };
}

/** `{ content: mediaType }` for a parameter described by `content` (its one media type) instead of `schema`. */
export function parameterContent(p: Loc): { content?: string } {
  if (child(p, "schema")) return {};
  const mediaType = entries(child(p, "content"))[0]?.[0];
  return mediaType === undefined ? {} : { content: mediaType };
}

function describe(shapes: ReadonlySet<string>): string {
  return [...shapes].join(" or ");
}
