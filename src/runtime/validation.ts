/**
 * What every generated validator reports: one issue per failed rule, with where it failed.
 * `path` is a JSON pointer into the value ("/webhook/delivery_url", "/entry/3/source/title"; "" for the root).
 */
export interface ValidationIssue {
  readonly path: string;
  /** A short machine-readable rule name: "required", "type", "enum", "pattern", "maxLength", "range", ... */
  readonly rule: string;
  readonly message: string;
  /**
   * protovalidate rules only: the field path as protovalidate names it (proto field names, `[index]`, `["key"]`:
   * "items[2].name"; "" for the message itself). `rule` is then protovalidate's rule id ("string.min_len").
   */
  readonly field?: string;
  /** protovalidate rules only: the violation is about a map key rather than its value. */
  readonly forKey?: boolean;
}

/** Thrown by `assert*` helpers and decoders that validate: carries every issue found. */
export class ValidationError extends Error {
  constructor(readonly issues: readonly ValidationIssue[]) {
    super(issues.map((i) => `${i.path || "/"}: ${i.message}`).join("; "));
    this.name = "ValidationError";
  }
}

/** Append a JSON pointer segment, escaping "~" and "/" as RFC 6901 says. */
export function pointerJoin(base: string, segment: string | number): string {
  // Called for every nested value on the decode paths: indexes and ordinary keys need no escaping, so the two
  // replacements run only for a key that has a '~' or a '/'.
  if (typeof segment === "number") return base + "/" + segment;
  if (segment.indexOf("~") < 0 && segment.indexOf("/") < 0) return base + "/" + segment;
  return `${base}/${segment.replace(/~/g, "~0").replace(/\//g, "~1")}`;
}
