/** Bounds `parseXml` enforces on untrusted input; exceeding one is an XmlParseError, never a hang. */
export interface XmlLimits {
  /** Longest accepted text, in UTF-16 code units (about bytes for ASCII payloads). Default 16 MiB. */
  readonly maxBytes: number;
  /** Deepest element nesting. Default 128. */
  readonly maxDepth: number;
  /** Most attributes (namespace declarations included) on one element. Default 64. */
  readonly maxAttributes: number;
  /** Longest element or attribute name (prefix included). Default 256. */
  readonly maxNameLength: number;
}

export const DEFAULT_XML_LIMITS: XmlLimits = /* @__PURE__ */ Object.freeze({
  maxBytes: 16 * 1024 * 1024,
  maxDepth: 128,
  maxAttributes: 64,
  maxNameLength: 256,
});

export function resolveLimits(limits: Partial<XmlLimits> | undefined): XmlLimits {
  return limits ? { ...DEFAULT_XML_LIMITS, ...limits } : DEFAULT_XML_LIMITS;
}
