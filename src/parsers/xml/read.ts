/**
 * Reads XML text into the tiny DOM of dom.ts using saxes. Specs are untrusted input: DOCTYPE (and with it entity
 * expansion) is refused outright, and malformed XML becomes a SpecError at saxes' position.
 */
import { SaxesParser, type SaxesTagNS } from "saxes";
import { SpecError } from "../../errors.js";
import type { XmlElement } from "./dom.js";

interface MutableElement extends XmlElement {
  readonly children: XmlElement[];
  readonly nodes: (string | XmlElement)[];
}

/** Offsets where each line starts, to turn saxes' character offsets into 1-based line/column. */
function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10) starts.push(i + 1);
    else if (c === 13 && text.charCodeAt(i + 1) !== 10) starts.push(i + 1);
  }
  return starts;
}

function lineCol(starts: readonly number[], offset: number): { line: number; column: number } {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if ((starts[mid] ?? 0) <= offset) lo = mid;
    else hi = mid - 1;
  }
  return { line: lo + 1, column: offset - (starts[lo] ?? 0) + 1 };
}

/**
 * Deepest element nesting a WSDL, XSD or catalog may have (the root is at depth 1). Real schemas stay far below it;
 * beyond it the file is refused at the first element too deep, `file:line:col: nesting deeper than 256`, before
 * anything recursive (lowering, naming, emitting) meets it.
 */
export const MAX_XML_DEPTH = 256;

/**
 * @param file absolute path (kept on every element so origins and nested imports can be resolved)
 * @param displayFile the path shown in error messages
 * @param options.allowDoctype accept a DOCTYPE without an internal subset (XML catalogs); other specs refuse any
 */
export function readXml(
  text: string,
  file: string,
  displayFile: string,
  options: { readonly allowDoctype?: boolean; /** Default MAX_XML_DEPTH (tests of deep trees raise it). */ readonly maxDepth?: number } = {},
): XmlElement {
  const maxDepth = options.maxDepth ?? MAX_XML_DEPTH;
  const parser = new SaxesParser({ xmlns: true, position: true });
  const starts = lineStarts(text);
  const stack: MutableElement[] = [];
  let root: MutableElement | undefined;
  const fail = (offset: number, detail: string): never => {
    const { line, column } = lineCol(starts, offset);
    throw new SpecError(displayFile, line, column, detail);
  };

  parser.on("error", (err: Error) => {
    // saxes prefixes its message with "line:column: "; we report the position ourselves in the SpecError format.
    const detail = err.message.replace(/^\d+:\d+: /, "");
    // saxes reports a mismatched end tag after it, naming neither tag: say which tags, at the end tag's '<'.
    if (/^unexpected close tag/.test(detail) && lastClosed) mismatchedEndTag(lastClosed);
    if (/^unmatched closing tag/.test(detail)) mismatchedEndTag(undefined);
    throw new SpecError(displayFile, parser.line, Math.max(parser.column, 1), detail);
  });
  /** `open`: the innermost open element, which saxes has just closed (and we popped) before complaining. */
  const mismatchedEndTag = (open: XmlElement | undefined): void => {
    const lt = text.lastIndexOf("</", parser.position - 1);
    if (lt < 0) return;
    const gt = text.indexOf(">", lt);
    const name = text.slice(lt + 2, gt < 0 ? undefined : gt).trim();
    if (!open) return fail(lt, `end tag </${name}> has no open element to close`);
    const qname = open.name.prefix ? `${open.name.prefix}:${open.name.local}` : open.name.local;
    fail(lt, `end tag </${name}> does not match <${qname}> (opened at line ${open.line}, column ${open.column})`);
  };
  let lastClosed: XmlElement | undefined;
  parser.on("doctype", (doctype: string) => {
    // XML catalogs usually start with the OASIS DOCTYPE: allowed there when it declares nothing (saxes neither
    // fetches the DTD nor reads an internal subset; an entity reference it does not know is an error).
    if (options.allowDoctype && !doctype.includes("[")) return;
    fail(Math.max(text.lastIndexOf("<!DOCTYPE", parser.position), 0), "DOCTYPE is not allowed");
  });
  parser.on("opentag", (tag: SaxesTagNS) => {
    // The tag is complete here; its '<' is the last one before the current position that starts this name.
    const start = text.lastIndexOf("<" + tag.name, parser.position - 1);
    const { line, column } = lineCol(starts, Math.max(start, 0));
    if (stack.length >= maxDepth) fail(Math.max(start, 0), `nesting deeper than ${maxDepth}`);
    const parent = stack[stack.length - 1];
    const declared = Object.entries(tag.ns ?? {});
    const scope: Record<string, string> =
      declared.length === 0 && parent ? (parent.scope as Record<string, string>) : { ...(parent?.scope ?? {}) };
    for (const [prefix, uri] of declared) scope[prefix] = uri;
    const el: MutableElement = {
      name: { ns: tag.uri ?? "", local: tag.local ?? tag.name, prefix: tag.prefix ?? "" },
      attrs: Object.values(tag.attributes).map((a) => ({
        name: { ns: a.uri ?? "", local: a.local ?? a.name, prefix: a.prefix ?? "" },
        value: a.value,
      })),
      children: [],
      nodes: [],
      file,
      displayFile,
      line,
      column,
      scope,
      parent,
    };
    if (parent) {
      parent.children.push(el);
      parent.nodes.push(el);
    } else root = el;
    stack.push(el);
  });
  parser.on("closetag", () => {
    lastClosed = stack.pop();
  });
  const onText = (t: string) => {
    const top = stack[stack.length - 1];
    if (top) top.nodes.push(t);
  };
  parser.on("text", onText);
  parser.on("cdata", onText);

  parser.write(text).close();
  if (!root) throw new SpecError(displayFile, 1, 1, "no root element");
  return root;
}
