import type { GeneratedFile, Printable } from "../../codegen/generated-file.js";
import type { ElementDecl, IrDocument } from "../../ir/model.js";
import type { EmitContext } from "../artifact.js";
import type { Names } from "../../naming/assign-names.js";

/** Sibling generated modules the SOAP client and server import from. */
export const TYPES_MODULE = "./types.js";
export const XML_MODULE = "./xml.js";
export const VALIDATE_MODULE = "./validate.js";

/** `"{ns}local"`, the key the runtime dispatches on, as an escaped string literal. */
export function clark(f: GeneratedFile, el: ElementDecl): Printable {
  return f.string(`{${el.name.ns}}${el.name.local}`);
}

/** The generated xml.ts codec functions of one element: `encode<E>Element` / `decode<E>Element`. */
export interface ElementCodecs {
  encode(el: ElementDecl): Printable;
  decode(el: ElementDecl): Printable;
}

export function elementCodecs(f: GeneratedFile, names: Names): ElementCodecs {
  return {
    encode: (el) => f.import(names.element(el.id).encode, XML_MODULE),
    decode: (el) => f.import(names.element(el.id).decode, XML_MODULE),
  };
}

/** The type of an element's value as types.ts names it (`| null` when nillable); named types are imported. */
export function elementValueType(f: GeneratedFile, ctx: EmitContext, el: ElementDecl, decode: Printable): Printable {
  if (el.type.kind !== "ref") return ["ReturnType<typeof ", decode, ">"];
  const name = ctx.names.family(el.type.id) ?? ctx.names.type(el.type.id);
  const t = f.import(name, TYPES_MODULE, { typeOnly: true });
  return el.nullable ? [t, " | null"] : t;
}

/** The generated validator of an element's type (`validate<T>` from validate.ts), when it has a named type. */
export function elementValidator(f: GeneratedFile, ctx: EmitContext, el: ElementDecl): Printable | undefined {
  if (el.type.kind !== "ref") return undefined;
  return typeValidator(f, ctx, el.type.id);
}

/** validate.ts's `validate<Type>` of a named type, imported into `f`. */
export function typeValidator(f: GeneratedFile, ctx: EmitContext, typeId: string): Printable {
  return f.import(ctx.names.derived(typeId, "validate"), VALIDATE_MODULE);
}
