import { mediaTypeEssence } from "./media-type.js";

interface AcceptRange {
  readonly type: string;
  readonly subtype: string;
  readonly q: number;
  /** Position in the header: earlier wins among equal quality and specificity. */
  readonly order: number;
}

/** At most this many ranges are looked at, so a hostile Accept header cannot make negotiation expensive. */
const MAX_RANGES = 64;

function parseAccept(header: string): AcceptRange[] {
  const ranges: AcceptRange[] = [];
  for (const [order, part] of header.split(",").slice(0, MAX_RANGES).entries()) {
    const [range = "", ...params] = part.split(";");
    const [type = "", subtype = ""] = mediaTypeEssence(range).split("/");
    if (type === "" || subtype === "") continue;
    let q = 1;
    for (const param of params) {
      const [key = "", value = ""] = param.split("=").map((s) => s.trim());
      if (key.toLowerCase() === "q") {
        const parsed = Number(value);
        q = Number.isFinite(parsed) ? Math.min(Math.max(parsed, 0), 1) : 0;
      }
    }
    ranges.push({ type, subtype, q, order });
  }
  return ranges;
}

function matches(range: AcceptRange, type: string, subtype: string): number {
  if (range.type === type && range.subtype === subtype) return 3;
  if (range.type === type && range.subtype === "*") return 2;
  if (range.type === "*" && range.subtype === "*") return 1;
  return 0;
}

/**
 * Proactive content negotiation (RFC 9110 §12.5.1): the offered media type the Accept header prefers, or undefined
 * when it accepts none of them (the caller answers 406). A missing or empty header accepts anything: the first offer.
 * Among equal preferences, the server's order of `offered` decides.
 */
export function negotiateMediaType(accept: string | null | undefined, offered: readonly string[]): string | undefined {
  if (offered.length === 0) return undefined;
  if (!accept || accept.trim() === "") return offered[0];
  const ranges = parseAccept(accept);
  let best: { offer: string; q: number } | undefined;
  for (const offer of offered) {
    const [type = "", subtype = ""] = offer.toLowerCase().split("/");
    // The most specific matching range sets the quality of an offer ("text/*;q=0, text/plain" accepts text/plain).
    let quality: number | undefined;
    let specificity = 0;
    for (const range of ranges) {
      const s = matches(range, type, subtype);
      if (s > specificity) {
        specificity = s;
        quality = range.q;
      }
    }
    if (quality !== undefined && quality > 0 && (best === undefined || quality > best.q)) best = { offer, q: quality };
  }
  return best?.offer;
}
