/** Global xsd:element -> ElementDecl. */
import type { ElementDecl } from "../../ir/model.js";
import { attr } from "../xml/dom.js";
import { type Ctx, elementId } from "./context.js";
import { blockOf, globalElementType, substitutionHead } from "./lower-complex.js";
import { type Decl, key } from "./resolve.js";

export function lowerGlobalElement(ctx: Ctx, d: Decl): ElementDecl {
  const type = globalElementType(ctx, d);
  const doc = ctx.doc(d.el);
  const sg = attr(d.el, "substitutionGroup");
  const dflt = attr(d.el, "default");
  const fixed = attr(d.el, "fixed");
  const head = sg !== undefined ? substitutionHead(ctx, d.schema, d.el) : undefined;
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
