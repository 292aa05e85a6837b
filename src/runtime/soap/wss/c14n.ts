import { domLookup, type DomElement } from "./dom.js";

/**
 * Exclusive XML Canonicalization 1.0 (https://www.w3.org/TR/xml-exc-c14n/), without comments, of one element and
 * its descendants: the transform WS-Security signs with. A namespace declaration is written where a prefix is
 * visibly used (by the element's name or one of its attributes') and no output ancestor already wrote the same
 * binding; prefixes of the InclusiveNamespaces PrefixList ("#default" for the default namespace) are written by the
 * inclusive rules instead (wherever in scope and not yet written). Attributes are sorted by namespace URI then local
 * name, declarations by prefix; empty elements get an end tag; text and attribute values are escaped as c14n says.
 */
export function excC14n(apex: DomElement, options: { inclusivePrefixes?: readonly string[]; exclude?: DomElement } = {}): string {
  const inclusive = new Set((options.inclusivePrefixes ?? []).map((p) => (p === "#default" ? "" : p)));
  const out: string[] = [];
  element(apex, new Map(), inclusive, options.exclude, out);
  return out.join("");
}

function element(el: DomElement, rendered: ReadonlyMap<string, string>, inclusive: ReadonlySet<string>, exclude: DomElement | undefined, out: string[]): void {
  const qname = el.prefix === "" ? el.local : `${el.prefix}:${el.local}`;
  const decls = new Map<string, string>();
  const consider = (prefix: string): void => {
    if (prefix === "xml" || decls.has(prefix)) return;
    const uri = domLookup(el, prefix);
    if (uri === undefined) return;
    const before = rendered.get(prefix);
    if (prefix === "") {
      // xmlns="" only undoes a default namespace an output ancestor wrote.
      if (uri === "" ? before !== undefined && before !== "" : before !== uri) decls.set("", uri);
    } else if (before !== uri) decls.set(prefix, uri);
  };
  consider(el.prefix);
  for (const a of el.attrs) if (a.prefix !== "") consider(a.prefix);
  for (const p of inclusive) {
    // Inclusive rules: the in-scope binding, visibly used or not (an undeclared default namespace is none).
    if (p === "" && domLookup(el, "") === "") {
      if (rendered.get("") !== undefined && rendered.get("") !== "") decls.set("", "");
      continue;
    }
    consider(p);
  }
  out.push("<", qname);
  let next = rendered;
  if (decls.size > 0) {
    const copy = new Map(rendered);
    for (const prefix of [...decls.keys()].sort(compareStrings)) {
      const uri = decls.get(prefix)!;
      out.push(prefix === "" ? ' xmlns="' : ` xmlns:${prefix}="`, escapeAttr(uri), '"');
      copy.set(prefix, uri);
    }
    next = copy;
  }
  if (el.attrs.length > 0) {
    const attrs = [...el.attrs].sort((a, b) => compareStrings(a.ns, b.ns) || compareStrings(a.local, b.local));
    for (const a of attrs) out.push(" ", a.prefix === "" ? a.local : `${a.prefix}:${a.local}`, '="', escapeAttr(a.value), '"');
  }
  out.push(">");
  for (const c of el.children) {
    if (c.kind === "element") {
      if (c !== exclude) element(c, next, inclusive, exclude, out);
    } else if (c.kind === "text") out.push(escapeText(c.text));
    else if (c.kind === "pi") out.push("<?", c.target, c.data === "" ? "" : ` ${c.data}`, "?>");
    // comments are dropped (the without-comments variant)
  }
  out.push("</", qname, ">");
}

/** Code-unit order, as the specs' "lexicographic" means for these ASCII-dominated names. */
function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function escapeText(text: string): string {
  if (!/[&<>\r]/.test(text)) return text;
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/\r/g, "&#xD;");
}

function escapeAttr(value: string): string {
  if (!/[&<"\t\n\r]/.test(value)) return value;
  return value
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/"/g, "&quot;")
    .replace(/\t/g, "&#x9;")
    .replace(/\n/g, "&#xA;")
    .replace(/\r/g, "&#xD;");
}
