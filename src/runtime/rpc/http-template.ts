/**
 * google.api.http path templates (google/api/http.proto, "Path template syntax"):
 *
 *     Template = "/" Segments [ Verb ] ;
 *     Segments = Segment { "/" Segment } ;
 *     Segment  = "*" | "**" | LITERAL | Variable ;
 *     Variable = "{" FieldPath [ "=" Segments ] "}" ;
 *     FieldPath = IDENT { "." IDENT } ;
 *     Verb     = ":" LITERAL ;
 *
 * Parsed into a flat list of segment matchers (a variable's own segments inline) and the variables' spans over it.
 * The generator parses every template at generation time (a bad one is a located error naming the rule it breaks);
 * the runtime parses the same, already checked, text once per handler.
 */

export type TemplateSegment =
  | { readonly kind: "literal"; readonly value: string }
  /** `*`: exactly one segment. */
  | { readonly kind: "one" }
  /** `**`: zero or more segments, only last. */
  | { readonly kind: "rest" };

export interface TemplateVariable {
  /** Proto field names, outermost first (`{book.name}` -> ["book", "name"]). */
  readonly fieldPath: readonly string[];
  /** The segments it covers: [start, end) in PathTemplate.segments. */
  readonly start: number;
  readonly end: number;
  /** Covers more than one `*` (or a literal or `**`): expanded keeping "/" (http.proto: shows up as `{+var}`). */
  readonly multi: boolean;
  /** Offset of the `{` in the template text. */
  readonly offset: number;
}

export interface PathTemplate {
  readonly segments: readonly TemplateSegment[];
  readonly variables: readonly TemplateVariable[];
  readonly verb?: string;
}

/** A template that breaks http.proto's grammar: `offset` into the text, `rule` the http.proto sentence it breaks. */
export class HttpTemplateError extends Error {
  constructor(
    readonly offset: number,
    readonly detail: string,
    readonly rule: string,
  ) {
    super(`${detail} (google/api/http.proto: ${rule})`);
    this.name = "HttpTemplateError";
  }
}

const RULE_TEMPLATE = 'Template = "/" Segments [ Verb ]';
const RULE_SEGMENTS = 'Segments = Segment { "/" Segment }';
const RULE_SEGMENT = 'Segment = "*" | "**" | LITERAL | Variable';
const RULE_FIELD_PATH = 'FieldPath = IDENT { "." IDENT }';
const RULE_VERB = 'Verb = ":" LITERAL';
const RULE_NESTED = "a variable template must not contain other variables";
const RULE_REST = "`**` matches zero or more path segments, which must be the last part of the URL path except the `Verb`";

/** Characters of a LITERAL: RFC 3986 pchar without ":" (the verb separator), and percent escapes. */
const LITERAL_CHAR = /[A-Za-z0-9\-._~!$&'()+,;=@%]/;
const IDENT = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Parse a path template; throws HttpTemplateError. Linear in the text. */
export function parsePathTemplate(text: string): PathTemplate {
  let i = 0;
  const segments: TemplateSegment[] = [];
  const variables: TemplateVariable[] = [];
  const seen = new Set<string>();
  if (text[0] !== "/") throw new HttpTemplateError(0, "a path template starts with \"/\"", RULE_TEMPLATE);
  i = 1;

  const literal = (): string => {
    const start = i;
    while (i < text.length && LITERAL_CHAR.test(text[i]!)) i++;
    const value = text.slice(start, i);
    if (/%(?![0-9A-Fa-f]{2})/.test(value)) throw new HttpTemplateError(start, `invalid percent escape in "${value}"`, RULE_SEGMENT);
    return value;
  };

  /** One Segment at i; `inVariable` forbids nested variables. */
  const segment = (inVariable: boolean): void => {
    const at = i;
    const c = text[i];
    if (c === "*") {
      if (text[i + 1] === "*") {
        i += 2;
        segments.push({ kind: "rest" });
      } else {
        i += 1;
        segments.push({ kind: "one" });
      }
      return;
    }
    if (c === "{") {
      if (inVariable) throw new HttpTemplateError(at, "a variable inside a variable", RULE_NESTED);
      i++;
      const pathStart = i;
      while (i < text.length && text[i] !== "=" && text[i] !== "}") i++;
      const fieldPathText = text.slice(pathStart, i);
      const fieldPath = fieldPathText.split(".");
      if (fieldPath.some((p) => !IDENT.test(p))) {
        throw new HttpTemplateError(pathStart, `"${fieldPathText}" is not a field path`, RULE_FIELD_PATH);
      }
      if (seen.has(fieldPathText)) throw new HttpTemplateError(pathStart, `field "${fieldPathText}" is bound twice`, "each field is bound by at most one variable");
      seen.add(fieldPathText);
      const start = segments.length;
      if (text[i] === "=") {
        i++;
        segmentList(true);
      } else segments.push({ kind: "one" });
      if (text[i] !== "}") throw new HttpTemplateError(i, `expected "}" to close the variable ${fieldPathText}`, 'Variable = "{" FieldPath [ "=" Segments ] "}"');
      i++;
      const end = segments.length;
      const multi = end - start !== 1 || segments[start]!.kind !== "one";
      variables.push({ fieldPath, start, end, multi, offset: at });
      return;
    }
    const value = literal();
    if (value === "") {
      const found = i < text.length ? `"${text[i]}"` : "the end";
      throw new HttpTemplateError(at, `expected a segment, found ${found}`, c === "/" || i >= text.length ? RULE_SEGMENTS : RULE_SEGMENT);
    }
    segments.push({ kind: "literal", value });
  };

  const segmentList = (inVariable: boolean): void => {
    segment(inVariable);
    while (text[i] === "/") {
      i++;
      segment(inVariable);
    }
  };

  segmentList(false);
  let verb: string | undefined;
  if (text[i] === ":") {
    i++;
    const at = i;
    verb = literal();
    if (verb === "") throw new HttpTemplateError(at, "a verb after \":\" is a literal", RULE_VERB);
  }
  if (i < text.length) throw new HttpTemplateError(i, `unexpected "${text[i]}"`, verb === undefined ? RULE_SEGMENT : RULE_TEMPLATE);
  const restAt = segments.findIndex((s) => s.kind === "rest");
  if (restAt >= 0 && restAt !== segments.length - 1) throw new HttpTemplateError(text.indexOf("**"), "\"**\" before the last segment", RULE_REST);
  return { segments, variables, ...(verb === undefined ? {} : { verb }) };
}

/**
 * Whether some request path matches both templates (same verb, or both without): compared segment by segment, a
 * literal against another literal must be equal, `*` matches any one segment, a final `**` any rest. Linear.
 */
export function templatesOverlap(a: PathTemplate, b: PathTemplate): boolean {
  if (a.verb !== b.verb) return false;
  const x = a.segments;
  const y = b.segments;
  for (let i = 0; ; i++) {
    const s = x[i];
    const t = y[i];
    if (s?.kind === "rest" || t?.kind === "rest") return true;
    if (s === undefined || t === undefined) return s === t;
    if (s.kind === "literal" && t.kind === "literal" && s.value !== t.value) return false;
  }
}

/** The template written back in its canonical form (`{name}` for `{name=*}`), for messages and documentation. */
export function formatPathTemplate(t: PathTemplate): string {
  const seg = (s: TemplateSegment) => (s.kind === "literal" ? s.value : s.kind === "one" ? "*" : "**");
  const parts: string[] = [];
  let i = 0;
  for (const v of [...t.variables].sort((p, q) => p.start - q.start)) {
    for (; i < v.start; i++) parts.push(seg(t.segments[i]!));
    const inner = t.segments.slice(v.start, v.end).map(seg).join("/");
    parts.push(`{${v.fieldPath.join(".")}${v.multi ? `=${inner}` : ""}}`);
    i = v.end;
  }
  for (; i < t.segments.length; i++) parts.push(seg(t.segments[i]!));
  return `/${parts.join("/")}${t.verb === undefined ? "" : `:${t.verb}`}`;
}
