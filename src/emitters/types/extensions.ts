import { propertyKey } from "../../codegen/escape.js";
import type { GeneratedFile } from "../../codegen/generated-file.js";
import type { ExtensionDecl, TypeId } from "../../ir/model.js";
import type { TypesContext } from "./context.js";
import { isList } from "./properties.js";
import { parenthesize, typeExprTs } from "./type-expr.js";

/**
 * proto extensions, one interface per extended message, keyed by the extension's full name (how protoc and the
 * JSON mapping name them). Extensions of messages this spec cannot see are skipped: there is nothing to attach to.
 */
export function emitExtensions(f: GeneratedFile, ctx: TypesContext, own: (e: ExtensionDecl) => boolean = () => true): void {
  const byExtendee = new Map<TypeId, ExtensionDecl[]>();
  for (const e of ctx.doc.extensions) {
    if (!ctx.types.has(e.extendee) || !own(e)) continue;
    byExtendee.set(e.extendee, [...(byExtendee.get(e.extendee) ?? []), e]);
  }
  for (const [extendee, list] of byExtendee) {
    f.jsdoc("", [`Extensions of {@link ${ctx.names.type(extendee)}} declared in this schema, by full name.`]);
    f.print(`export interface ${ctx.names.extensions(extendee)} {`);
    for (const e of list) {
      let ts = typeExprTs(e.field.type, ctx);
      if (isList(e.field.occurs)) ts = `${parenthesize(ts)}[]`;
      f.jsdoc("  ", [e.field.doc, e.field.deprecated ? "@deprecated" : undefined, `Field number ${e.field.wire.proto?.number}.`]);
      f.print(`  ${propertyKey(e.fullName)}?: ${ts};`);
    }
    f.print("}");
    f.print();
  }
}
