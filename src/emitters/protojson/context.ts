import type { GeneratedFile, ImportToken } from "../../codegen/generated-file.js";
import type { TypeExpr } from "../../ir/model.js";
import { isDateRef, type TypesContext } from "../types/context.js";
import { typeExprTs } from "../types/type-expr.js";
import type { ForeignModule } from "../artifact.js";
import { jsonHelperName } from "../../naming/derived.js";

/** Everything the ProtoJSON printers need for one file. */
export interface ProtoJsonContext {
  readonly f: GeneratedFile;
  readonly types: TypesContext;
  readonly runtime: string;
  /** The sibling binary codec (protobuf.ts) exists, so the registry can pack and unpack google.protobuf.Any. */
  readonly binary: boolean;
  /** The module of another input file that declares a type (see src/emitters/modules.ts); undefined: this one. */
  readonly foreign: (id: string) => ForeignModule | undefined;
}

export function rt(ctx: ProtoJsonContext, name: string, typeOnly = false): ImportToken {
  return ctx.f.import(name, ctx.runtime, { typeOnly });
}

/** A message's exported functions, as the naming pass named them (`names.derived`). */
export function jsonFunction(ctx: ProtoJsonContext, id: string, role: "toJson" | "fromJson" | "toJsonString" | "fromJsonString"): string {
  return ctx.types.names.derived(id, role);
}

/** Names of the file's module-internal functions and tables, derived from the type name (unique because type names are). */
export const fnNames = {
  /** Not exported: the reader that carries the JSON pointer of the value it reads. */
  read: (type: string) => jsonHelperName("jsonRead", type),
  /** Not exported: the enum's name/number table. */
  enumTable: (type: string) => jsonHelperName("enumTable", type),
};

/** `object.property`, or `object["property"]` when the property is not an identifier. */
export function access(object: string, property: string, quote: (s: string) => string): string {
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(property) ? `${object}.${property}` : `${object}[${quote(property)}]`;
}

/**
 * The TypeScript type of a value, for code that spells it out (`const list: Money[] = []`), with the named types it
 * mentions imported from ./types.js: with one module per input file they may not be declared in this module.
 */
export function typeTs(ctx: ProtoJsonContext, t: TypeExpr): string {
  const visit = (e: TypeExpr): void => {
    if (e.kind === "ref" && isDateRef(e.id, ctx.types.options.dates)) return;
    if (e.kind === "ref") ctx.f.use(ctx.f.import(ctx.types.names.family(e.id) ?? ctx.types.names.type(e.id), "./types.js", { typeOnly: true }));
    else if (e.kind === "list") visit(e.of);
    else if (e.kind === "map") {
      visit(e.key);
      visit(e.value);
    }
    else if (e.kind === "union") e.of.forEach(visit);
  };
  visit(t);
  return typeExprTs(t, ctx.types);
}
