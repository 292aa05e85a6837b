/**
 * Media types as servers compare them: the lower-cased essence ("type/subtype") without parameters, so that
 * "Application/JSON; charset=utf-8" and "application/json" are the same thing.
 */
export function mediaTypeEssence(header: string | null | undefined): string {
  if (!header) return "";
  const semicolon = header.indexOf(";");
  return (semicolon < 0 ? header : header.slice(0, semicolon)).trim().toLowerCase();
}
