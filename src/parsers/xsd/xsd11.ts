/**
 * XSD 1.1 constructs specforge cannot express, degraded with a located warning instead of refusing the schema
 * ("degrade, never refuse"), and the ones it keeps in a looser form:
 * - xsd:assert (complex types) and the xsd:assertion facet: XPath 2.0 tests over the instance, not checked;
 * - xsd:alternative (conditional type assignment): the element keeps its declared type, alternatives are not chosen;
 * - xsd:openContent / xsd:defaultOpenContent: a wildcard member after the content model (exact for mode="suffix";
 *   for mode="interleave" the elements it admits between declared ones are read wherever the decoder finds them and
 *   written after the content model);
 * - wildcards' notNamespace / notQName: the wildcard admits those names too.
 * Exact, with no warning: the XSD 1.1 builtins (builtins.ts), explicitTimezone (lower-simple.ts), xsd:override
 * (resolve.ts), xsd:any and xsd:group in xsd:all.
 */
import type { OpenContent } from "../../ir/model.js";
import { type XmlElement, attr, specError } from "../xml/dom.js";
import { XSD_NS } from "./builtins.js";
import { type Ctx, type Scope, xsdChild } from "./context.js";
import { type Decl, type SchemaDoc, unknown } from "./resolve.js";

const DEGRADED: Readonly<Record<string, string>> = {
  assert: "xsd:assert (XSD 1.1) is not checked: the type is kept without its assertion",
  assertion: "xsd:assertion (XSD 1.1) is not checked: the type is kept without this facet",
  alternative: "xsd:alternative (XSD 1.1 conditional type assignment) is not applied: the element keeps its declared type",
};

/** The XSD 1.1 children of `el` that are dropped, each with its located warning. */
export function warnXsd11(ctx: Ctx, el: XmlElement): void {
  for (const c of el.children) {
    if (c.name.ns !== XSD_NS) continue;
    const what = DEGRADED[c.name.local];
    if (what !== undefined) ctx.warn(c, what);
  }
}

/** XSD 1.1 wildcard attributes that narrow what the wildcard admits; they are not applied. */
export function warnWildcard11(ctx: Ctx, any: XmlElement): void {
  for (const a of ["notNamespace", "notQName"]) {
    if (attr(any, a) !== undefined) ctx.warn(any, `${a} on xsd:${any.name.local} (XSD 1.1) is not applied: the wildcard admits those names too`);
  }
}

/**
 * The open content of a complex type (XSD 1.1 §3.4.2.3.3): its own xsd:openContent (on the type, or on its
 * complexContent derivation), else the schema's xsd:defaultOpenContent (for an empty content model only with
 * appliesToEmpty="true"); as a wildcard member, or undefined for none (mode="none", no xsd:any).
 */
export function openContent(ctx: Ctx, scope: Scope, own: XmlElement | undefined, emptyModel: boolean, label: string): OpenContent | undefined {
  let oc = own;
  if (oc === undefined) {
    const dflt = scope.schema.defaultOpenContent;
    if (dflt === undefined || (emptyModel && attr(dflt, "appliesToEmpty")?.trim() !== "true")) return undefined;
    oc = dflt;
  }
  const mode = attr(oc, "mode")?.trim() ?? "interleave";
  if (mode === "none") return undefined;
  if (mode !== "interleave" && mode !== "suffix") throw specError(oc, `invalid mode '${mode}' on xsd:${oc.name.local}`);
  const any = xsdChild(oc, "any");
  if (any === undefined) return undefined;
  warnWildcard11(ctx, any);
  if (mode === "interleave") {
    ctx.warn(oc, `xsd:${oc.name.local} mode="interleave" (XSD 1.1) is kept as a wildcard after the content model: elements it admits between declared ones are written after them`);
  }
  const pc = attr(any, "processContents")?.trim() ?? "strict";
  if (pc !== "strict" && pc !== "lax" && pc !== "skip") throw specError(any, `invalid processContents '${pc}'`);
  const n = ++scope.counters.any;
  return {
    kind: "any",
    name: n === 1 ? "$any" : `$any${n}`,
    namespace: attr(any, "namespace") ?? "##any",
    processContents: pc,
    occurs: { min: 0, max: "unbounded" },
    origin: ctx.origin(oc, `xsd ${oc.name.local} in ${label}`),
  };
}

