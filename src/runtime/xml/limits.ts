/** Bounds `parseXml` enforces on untrusted input; exceeding one is an XmlParseError, never a hang. */
export interface XmlLimits {
  /** Longest accepted text, in UTF-16 code units (about bytes for ASCII payloads). Default 16 MiB. */
  readonly maxBytes: number;
  /** Deepest element nesting. Default 128. */
  readonly maxDepth: number;
  /**
   * Most attributes (namespace declarations included) on one element. Default 4,096 (a schema may declare
   * thousands: W3C XSD suite attgD003 has 2,000 on one element); duplicates are found in linear time past
   * SCAN_ATTRIBUTES, so the bound only caps memory per tag.
   */
  readonly maxAttributes: number;
  /** Longest element or attribute name (prefix included). Default 256. */
  readonly maxNameLength: number;
}

export const DEFAULT_XML_LIMITS: XmlLimits = /* @__PURE__ */ Object.freeze({
  maxBytes: 16 * 1024 * 1024,
  maxDepth: 128,
  maxAttributes: 4096,
  maxNameLength: 256,
});

export function resolveLimits(limits: Partial<XmlLimits> | undefined): XmlLimits {
  return limits ? { ...DEFAULT_XML_LIMITS, ...limits } : DEFAULT_XML_LIMITS;
}

/** Up to this many attributes on a tag, duplicates are found by a scan; past it, by a set (linear in the count). */
export const SCAN_ATTRIBUTES = 16;
