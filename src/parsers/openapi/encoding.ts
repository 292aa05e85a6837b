/**
 * The `encoding` of a form request body's Media Type Object (application/x-www-form-urlencoded and
 * multipart/form-data): per property, the style and explode it is written with and, for multipart, the part's
 * content type. Styles are those of query parameters; anything else is a SpecError at the style.
 */
import type { HttpEncoding } from "../../ir/model.js";
import type { LowerContext } from "./context.js";
import type { Loc } from "./files.js";
import { bool, child, entries, str } from "./json.js";

const FORM_STYLES = new Set(["form", "spaceDelimited", "pipeDelimited", "deepObject"]);

export function lowerEncoding(ctx: LowerContext, media: Loc): { encoding?: readonly HttpEncoding[] } {
  const encoding: HttpEncoding[] = [];
  for (const [property, e] of entries(child(media, "encoding"))) {
    const style = str(e, "style");
    if (style !== undefined && !FORM_STYLES.has(style)) {
      ctx.fail(child(e, "style") ?? e, `encoding of "${property}": style "${style}" is not defined for form bodies (use form, spaceDelimited, pipeDelimited or deepObject)`);
    }
    const explode = bool(e, "explode");
    const contentType = str(e, "contentType");
    encoding.push({
      property,
      ...(style !== undefined ? { style } : {}),
      ...(explode !== undefined ? { explode } : {}),
      ...(contentType !== undefined ? { contentType } : {}),
    });
  }
  return encoding.length > 0 ? { encoding } : {};
}
