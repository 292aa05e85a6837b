/** Global xsd:element -> ElementDecl. */
import type { ElementDecl } from "../../ir/model.js";
import { attr } from "../xml/dom.js";
import { type Ctx, elementId } from "./context.js";
import { blockOf, globalElementType } from "./lower-complex.js";
import { type Decl, key } from "./resolve.js";
import { substitutionHead } from "./xsd11.js";

export function lowerGlobalElement(ctx: Ctx, d: Decl): ElementDecl {
  const type = globalElementType(ctx, d);
  const doc = ctx.doc(d.el);
  const dflt = attr(d.el, "default");
  const fixed = attr(d.el, "fixed");
  const head = substitutionHead(ctx, d.schema, d.el);
  return {
    id: elementId(d.name),
    name: d.name,
    type,
    nullable: attr(d.el, "nillable") === "true",
    ...(attr(d.el, "abstract") === "true" ? { abstract: true } : {}),
    ...(head ? { substitutionGroup: elementId(head.name) } : {}),
    ...(dflt !== undefined ? { default: dflt } : {}),
    ...(fixed !== undefined ? { fixed } : {}),
    ...(blockOf(d.schema, d.el) !== undefined ? { block: blockOf(d.schema, d.el)! } : {}),
    ...(doc !== undefined ? { doc } : {}),
    origin: ctx.origin(d.el, `xsd element ${key(d.name)}`),
  };
}
