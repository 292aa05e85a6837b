/** Lowers a loaded schema set into IR named types and global elements, in declaration order. */
import type { ElementDecl, NamedType } from "../../ir/model.js";
import { Ctx, typeId, xsdChildren } from "./context.js";
import { lowerComplexType } from "./lower-complex.js";
import { lowerGlobalElement } from "./lower-element.js";
import { lowerSimpleType } from "./lower-simple.js";
import { REDEFINED_SUFFIX, type SchemaSet } from "./resolve.js";
import { attr } from "../xml/dom.js";

export interface LoweredSchemas {
  readonly ctx: Ctx;
  readonly types: NamedType[];
  readonly elements: ElementDecl[];
  /** Target namespaces in load order, without duplicates. */
  readonly namespaces: string[];
}

export function lowerSchemas(set: SchemaSet, entry: string): LoweredSchemas {
  const ctx = new Ctx(set, entry);
  const types = set.all("type");
  for (const d of types) ctx.recover(() => ctx.checkDerivation(d));
  if (!ctx.cyclic) for (const d of types) ctx.recover(() => ctx.checkSimpleCycle(d));
  // Lowering follows base chains; with a cycle among them it would never end (other errors are reported with it).
  if (ctx.cyclic) set.diagnostics.check();
  const elements: ElementDecl[] = [];
  const namespaces: string[] = [];
  // Walk schemas and their children rather than the registry, so types and elements interleave as declared.
  for (const schema of set.schemas) {
    if (!namespaces.includes(schema.tns)) namespaces.push(schema.tns);
    // The components an xsd:redefine restates are declared where it stands; the originals keep `<name>$redefined`.
    // Likewise those an XSD 1.1 xsd:override replaces (the originals are gone).
    const children = xsdChildren(schema.el).flatMap((c) => (c.name.local === "redefine" || c.name.local === "override" ? [c, ...xsdChildren(c)] : [c]));
    for (const child of children) {
      const kind = child.name.local === "element" ? "element" : "type";
      const local = attr(child, "name")?.trim();
      const named = (n: string) => set.lookup(kind, { ns: schema.tns, local: n });
      const found = local === undefined ? undefined : named(local);
      let d = found;
      // A redefined original is kept under `<name>$redefined` (one more suffix per level of a chain of redefines).
      for (let n = local ?? ""; d !== undefined && d.el !== child; ) {
        n += REDEFINED_SUFFIX;
        d = named(n);
      }
      if (!d || d.el !== child) continue;
      const scope = { schema: d.schema, path: d.name.local, name: d.name.local, counters: { any: 0 } };
      // A declaration in error is reported and left out; the others are still lowered (and checked).
      if (child.name.local === "complexType") ctx.recover(() => lowerComplexType(ctx, scope, child, typeId(d.name), false));
      else if (child.name.local === "simpleType") ctx.recover(() => lowerSimpleType(ctx, scope, child, typeId(d.name), false));
      else if (child.name.local === "element") {
        const element = ctx.recover(() => lowerGlobalElement(ctx, d));
        if (element) elements.push(element);
      }
    }
  }
  return { ctx, types: ctx.types, elements, namespaces };
}
