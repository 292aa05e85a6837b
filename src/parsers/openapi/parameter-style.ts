/**
 * The `style` and `explode` of a parameter, checked against what OpenAPI defines (Style Values and Style Examples,
 * OAS 3.1.1): a combination the specification leaves undefined is a SpecError at the offending key, so it never
 * becomes a client and a server that disagree. One deliberate extension: deepObject accepts any value, written in
 * the bracket convention real APIs use (Stripe: `expand[0]=a`, `created=1`, `created[gt]=1`); docs/parameters.md.
 */
import type { HttpParameter, TypeExpr } from "../../ir/model.js";
import { PARAMETER_STYLES_AT, parameterSerialization, parameterShape, type NamedLookup } from "../../ir/parameter-shape.js";
import type { LowerContext } from "./context.js";
import type { Loc } from "./files.js";
import { child, entries } from "./json.js";

const ALL_STYLES = new Set(Object.values(PARAMETER_STYLES_AT).flat());
const DELIMITED = new Set(["spaceDelimited", "pipeDelimited", "tabDelimited"]);

/**
 * Check a parameter's serialization. `p` is the Parameter Object (for error positions), `type` its lowered schema.
 * Parameters described by `content` instead of `schema` are serialized by their media type and not checked here.
 */
export function checkParameterStyle(
  ctx: LowerContext,
  p: Loc,
  param: Pick<HttpParameter, "name" | "in" | "style" | "explode">,
  type: TypeExpr,
): void {
  if (child(p, "content") && !child(p, "schema")) return;
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
  if (shape.unknown && shape.shapes.size === 0) return;
  if (DELIMITED.has(style)) {
    if (shape.shapes.has("primitive")) {
      ctx.fail(styleLoc, `${what}: ${style} is defined for arrays and objects only, not for a ${describe(shape.shapes)} value`);
    }
    if (explode && shape.shapes.has("object")) {
      ctx.fail(explodeLoc, `${what}: ${style} with explode: true is undefined by OpenAPI for objects (set explode: false)`);
    }
  }
  if (shape.nested && style !== "deepObject") {
    ctx.fail(styleLoc, `${what}: style ${style} cannot carry arrays or objects inside the value (RFC 6570 has one level); use deepObject, or content with application/json`);
  }
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
