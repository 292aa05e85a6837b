import { stringLiteral } from "../../codegen/escape.js";
import type { HttpContent, TypeExpr } from "../../ir/model.js";
import { lookupType, type TypesContext } from "../types/context.js";

/**
 * The Encoding Object of form bodies as the REST emitters use it: each property's style and explode (default
 * form, exploded), whether a multipart property is a file, and the runtime's RestEncoding table as source text.
 */
export function encodingOf(content: HttpContent, property: string): { readonly style: string; readonly explode: boolean } {
  const e = content.encoding?.find((x) => x.property === property);
  const style = e?.style ?? "form";
  return { style, explode: e?.explode ?? (style === "form" || style === "deepObject") };
}

/** `[["expand", "deepObject", true]]` for the properties whose encoding says more than the default; "" when none. */
export function encodingSource(content: HttpContent): string {
  const rows = (content.encoding ?? []).flatMap((e) => {
    if (e.style === undefined && e.explode === undefined) return [];
    const { style, explode } = encodingOf(content, e.property);
    return [`[${stringLiteral(e.property)}, ${stringLiteral(style)}, ${explode}]`];
  });
  return rows.length === 0 ? "" : `[${rows.join(", ")}]`;
}

/**
 * A multipart property that is a file part: binary (`format: binary` or `byte`, bytes in the IR, a Blob in the
 * body type) or an array of binaries. (An encoding's contentType alone does not make a file: the property's type
 * would then say string while a Blob arrives.)
 */
export function isFileProperty(t: TypeExpr, tctx: TypesContext): boolean {
  return isBinary(t.kind === "list" ? t.of : t, tctx);
}

function isBinary(t: TypeExpr, tctx: TypesContext): boolean {
  if (t.kind === "scalar") return t.scalar === "bytes";
  if (t.kind !== "ref") return false;
  const named = lookupType(tctx, t.id);
  return named.kind === "alias" && isBinary(named.target, tctx);
}

/**
 * A form body whose schema is a single value (a string, number, boolean or enum), not an object of fields: an
 * application/x-www-form-urlencoded body is then that value's text, the encoded form as the caller wrote it
 * (`a=1&b=2`), sent and received as is. (A multipart body cannot be one value: the parser leaves such a media type
 * out, with a warning.)
 */
export function isScalarBody(t: TypeExpr, tctx: TypesContext, seen: ReadonlySet<string> = new Set()): boolean {
  switch (t.kind) {
    case "scalar":
      return t.scalar !== "any" && t.scalar !== "bytes";
    case "literal":
      return true;
    case "union":
      return t.of.length > 0 && t.of.every((m) => isScalarBody(m, tctx, seen));
    case "ref": {
      if (seen.has(t.id)) return false;
      const named = lookupType(tctx, t.id);
      if (named.kind === "enum") return true;
      return named.kind === "alias" && isScalarBody(named.target, tctx, new Set(seen).add(t.id));
    }
    default:
      return false;
  }
}
