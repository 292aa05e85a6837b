import { isIdentifier, stringLiteral } from "../../codegen/escape.js";
import type { GeneratedFile, Printable } from "../../codegen/generated-file.js";
import type { HttpContent, HttpOperation, HttpService, IrDocument, TypeExpr } from "../../ir/model.js";
import type { EmitContext } from "../artifact.js";
import { typesContext, type TypesContext } from "../types/context.js";
import { typeExprTs } from "../types/type-expr.js";

/** Pieces the REST client and server emitters share: names, type printing with imports, media types, statuses. */

export const TYPES_MODULE = "./types.js";

export function httpServices(doc: IrDocument): { readonly service: HttpService; readonly index: number }[] {
  return doc.services.flatMap((service, index) => (service.kind === "http" ? [{ service, index }] : []));
}

export function hasHttpService(doc: IrDocument): boolean {
  return doc.format === "openapi" && httpServices(doc).length > 0;
}

export function restTypesContext(ctx: EmitContext): TypesContext {
  const types = typesContext(ctx.doc, ctx.names, { int64: ctx.int64, ...(ctx.dates ? { dates: ctx.dates } : {}) });
  return ctx.modules ? { ...types, modules: ctx.modules } : types;
}

/** A TypeScript type for an IR type expression, with named types imported from ./types.js. */
export function typePrintable(f: GeneratedFile, t: TypeExpr, tctx: TypesContext): Printable {
  switch (t.kind) {
    case "ref": {
      const name = tctx.names.family(t.id) ?? tctx.names.type(t.id);
      return f.import(name, TYPES_MODULE, { typeOnly: true });
    }
    case "list": {
      const item = typePrintable(f, t.of, tctx);
      return t.of.kind === "union" ? ["(", item, ")[]"] : [item, "[]"];
    }
    case "union": {
      const parts: Printable[] = [];
      t.of.forEach((m, i) => parts.push(i === 0 ? "" : " | ", typePrintable(f, m, tctx)));
      return parts;
    }
    case "map":
      return ["{ [key: string]: ", typePrintable(f, t.value, tctx), " }"];
    default:
      return typeExprTs(t, tctx);
  }
}

export function nullablePrintable(f: GeneratedFile, t: TypeExpr, nullable: boolean | undefined, tctx: TypesContext): Printable {
  const ts = typePrintable(f, t, tctx);
  return nullable ? [ts, " | null"] : ts;
}

const isJson = (mediaType: string) => {
  const m = mediaType.toLowerCase();
  return m === "application/json" || m.endsWith("+json") || m === "*/*";
};
const isForm = (mediaType: string) => mediaType.toLowerCase() === "application/x-www-form-urlencoded";
const isMultipart = (mediaType: string) => mediaType.toLowerCase() === "multipart/form-data";

export type BodyKind = "json" | "form" | "multipart";

function bodyKind(mediaType: string): BodyKind | undefined {
  return isJson(mediaType) ? "json" : isForm(mediaType) ? "form" : isMultipart(mediaType) ? "multipart" : undefined;
}

/** The request body the client sends: the first media type it can write (JSON, a urlencoded form, multipart). */
export function clientBodyContent(op: HttpOperation): { readonly kind: BodyKind; readonly content: HttpContent } | undefined {
  for (const content of op.requestBody?.contents ?? []) {
    const kind = bodyKind(content.mediaType);
    if (kind) return { kind, content };
  }
  return undefined;
}

export function multipartContent(contents: readonly HttpContent[]): HttpContent | undefined {
  return contents.find((c) => isMultipart(c.mediaType));
}

/**
 * The type of a request body in the given contents: what each media type carries, a multipart body as
 * `RestMultipart<T>` (its binary properties as Blobs). Only contents the REST runtime reads or writes count.
 */
export function requestBodyPrintable(
  f: GeneratedFile,
  contents: readonly HttpContent[],
  tctx: TypesContext,
  runtime: (name: string, typeOnly?: boolean) => Printable,
): Printable {
  const parts: Printable[] = [];
  const seen = new Set<string>();
  for (const c of contents) {
    const kind = bodyKind(c.mediaType);
    if (!kind) continue;
    const key = JSON.stringify([c.type, c.nullable ?? false, kind === "multipart"]);
    if (seen.has(key)) continue;
    seen.add(key);
    const type = nullablePrintable(f, c.type, c.nullable, tctx);
    parts.push(parts.length === 0 ? "" : " | ", kind === "multipart" ? [runtime("RestMultipart", true), "<", type, ">"] : type);
  }
  return parts.length === 0 ? "undefined" : parts;
}

export function jsonContent(contents: readonly HttpContent[]): HttpContent | undefined {
  return contents.find((c) => isJson(c.mediaType));
}

export function formContent(contents: readonly HttpContent[]): HttpContent | undefined {
  return contents.find((c) => isForm(c.mediaType));
}

/** The body type of a set of contents (the union of what each media type carries), or `undefined` when empty. */
export function contentsPrintable(f: GeneratedFile, contents: readonly HttpContent[], tctx: TypesContext): Printable {
  if (contents.length === 0) return "undefined";
  const seen = new Set<string>();
  const parts: Printable[] = [];
  for (const c of contents) {
    const key = JSON.stringify([c.type, c.nullable ?? false]);
    if (seen.has(key)) continue;
    seen.add(key);
    parts.push(parts.length === 0 ? "" : " | ", nullablePrintable(f, c.type, c.nullable, tctx));
  }
  return parts;
}

/** "200" -> 200; "4XX" and "default" have no single status. */
export function exactStatus(status: string): number | undefined {
  return /^\d{3}$/.test(status) ? Number(status) : undefined;
}

/** A condition on `variable` that holds for a declared status ("200", "4XX", "default"). */
export function statusCondition(variable: string, status: string): string {
  const exact = exactStatus(status);
  if (exact !== undefined) return `${variable} === ${exact}`;
  const range = /^([1-5])XX$/i.exec(status);
  if (range) return `(${variable} >= ${range[1]}00 && ${variable} <= ${range[1]}99)`;
  return "true";
}

/** `obj.name`, or `obj["na-me"]` when the name is not an identifier; `?.` when `optional`. */
export function propertyAccess(object: string, name: string, optional = false): string {
  if (isIdentifier(name)) return `${object}${optional ? "?." : "."}${name}`;
  return `${object}${optional ? "?." : ""}[${stringLiteral(name)}]`;
}

export const PARAMETER_LOCATIONS = ["path", "query", "header", "cookie"] as const;
export type ParameterLocation = (typeof PARAMETER_LOCATIONS)[number];
