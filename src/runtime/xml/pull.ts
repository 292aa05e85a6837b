import { decodeEntities, decodeEntitiesIn, predefinedAt } from "./entities.js";
import { KeptInstance } from "./kept-instance.js";
import { resolveLimits, SCAN_ATTRIBUTES, type XmlLimits } from "./limits.js";
import { XML_NS, XSI_NS, type NamespaceScope } from "./node.js";
import { attributeQuotes, attributeValueAt, checkNamespaceBinding, checkForbiddenChars, failAt, indexOrEnd, internalized, isNameChar, isNameStart, isSpace, namespaceAt, piecesAt, refuseDeclaration, shortPieces, skipMisc, skipPast } from "./scan.js";
import { isResident, patternOffset, residentHolds } from "./text-memory.js";

/** The quotes of the attribute value being read (see attributeQuotes). */
const QUOTES: [number, number] = [0, 0];

/**
 * A pull tokenizer over an XML string: the generated decoders read elements, attributes and text straight from the
 * input, with no element tree and no object per element. It enforces exactly what `parseXml` does (the same
 * well-formedness rules, messages, line:column positions and limits: DOCTYPE refused, depth, attribute count, name
 * length, size, the five predefined entities only) while it scans, so a decoder that reads a document through it has
 * also checked it.
 *
 * The protocol: after a start tag has been read (`document()`, or `nextChild()` returning true) the reader is *on*
 * that element: `ns`, `local`, the attributes and `scope` describe it until the next start tag is read. Its content
 * is then consumed by exactly one of: `nextChild()` until it returns false (the end tag was read), `readText()`, or
 * `skip()`. Namespace prefixes are resolved when a start tag is read, through the bindings in scope (one small
 * object per declaration, shared by every element below it, as in the tree).
 */


/**
 * A start tag met before, as text: `<qname>` with nothing else in it, in the bindings `scope` (its parent's). In the
 * same bindings the same text is the same element (the same name, namespace, no attributes or declarations), so the
 * fast paths (`enterKnown`, `plainChild`) compare the input with `open` instead of reading the tag. Made by
 * `knownTag()` from a start tag the general path has read and checked.
 */
export interface KnownTag {
  readonly qname: string;
  /** `<qname>` and `</qname>`. */
  readonly open: string;
  readonly close: string;
  readonly ns: string;
  readonly local: string;
  readonly prefix: string;
  readonly declaredNs: string;
  readonly scope: NamespaceScope | null;
  readonly aliases: ReadonlyMap<string, string> | undefined;
  /**
   * `close` followed by `<pairedName>` (see plainChild's `next`), made when first needed: where it is kept in the text
   * memory (-1 for nowhere, see text-memory.ts), and the same in short pieces (see shortPieces).
   */
  pairedAt: number;
  paired: readonly string[];
  pairedName: string;
  /** How many times `paired` was made for this tag: bounded, for documents whose order keeps changing. */
  pairings: number;
}

/** Pairings made per KnownTag before plainChild stops pairing it (each costs its pieces and room in the text memory). */
const MAX_PAIRINGS = 8;
const NO_PIECES: readonly string[] = [];

/** A scope entry as the reader builds it: `declared` is the URI as written (before namespace aliases map it). */
interface ReaderScope extends NamespaceScope {
  readonly declared: string;
}


export class XmlPullReader {
  /** The current element: its namespace (after aliases), local name and prefix. */
  ns = "";
  local = "";
  prefix = "";
  /** The namespace of the current element as the document wrote it (differs from `ns` only under aliases). */
  declaredNs = "";
  /** Bindings in scope at the current element (its own declarations included): for QName values like xsi:type. */
  scope: NamespaceScope | null = null;
  /** The bindings in scope at the current element's parent (where re-reading the element starts from). */
  parentScope: NamespaceScope | null = null;
  /** Attributes of the current element other than namespace declarations, in document order. */
  attrCount = 0;
  readonly attrNs: string[] = [];
  readonly attrLocal: string[] = [];
  readonly attrPrefix: string[] = [];
  readonly attrValue: string[] = [];
  /** Offset of the current element's '<'. */
  start = 0;
  /** Start tags read so far: with `fresh`, identifies whether the reader is still on a given element's start. */
  tags = 0;
  /** True between reading a start tag and the first read of its content. */
  fresh = false;
  /** The character data `nextChild(true)` read before the tag it stopped at. */
  lastText = "";

  private pos = 0;
  /** Open elements (not counting a current `<x/>`): their qualified names and the scope of each. */
  private depth = 0;
  private readonly qnames: string[] = [];
  private readonly scopes: (NamespaceScope | null)[] = [];
  /** The current element was `<x/>`: its (empty) content has not been read yet. */
  private empty = false;
  private emptyQname = "";

  private constructor(
    readonly src: string,
    readonly limits: XmlLimits,
    /** Namespace aliases: a declared URI -> the URI the reader reports for it (see the SOAP server's aliases). */
    readonly aliases: ReadonlyMap<string, string> | undefined,
    /** A whole document (else one element of a document read before: nothing is checked after it). */
    private readonly whole: boolean,
  ) {
    KEPT_READER.constructed();
  }

  /** A reader on the root element of `text` (the prolog read and checked). */
  static document(text: string, limits?: Partial<XmlLimits>, aliases?: ReadonlyMap<string, string>): XmlPullReader {
    const r = new XmlPullReader(text, resolveLimits(limits), aliases, true);
    r.prolog();
    return r;
  }

  /**
   * A reader on the element whose start tag is at `offset` of `text`, in the bindings `scope` (a document already
   * read once through a reader: re-reading one element of it, e.g. a SOAP header decoded after the body).
   */
  static element(text: string, offset: number, scope: NamespaceScope | null, limits: XmlLimits, aliases?: ReadonlyMap<string, string>): XmlPullReader {
    const r = new XmlPullReader(text, limits, aliases, false);
    r.startTag(offset, scope);
    return r;
  }

  private prolog(): void {
    const src = this.src;
    if (src.length > this.limits.maxBytes) this.fail(`document larger than ${this.limits.maxBytes} characters`, 0);
    checkForbiddenChars(src);
    if (src.charCodeAt(0) === 0xfeff) this.pos = 1;
    this.misc();
    if (this.pos >= src.length || src.charCodeAt(this.pos) !== 0x3c) this.fail("expected the root element", this.pos);
    if (src.charCodeAt(this.pos + 1) === 0x2f) this.fail("unexpected end tag", this.pos);
    this.startTag(this.pos, null);
  }

  /** After the root element: only whitespace, comments and processing instructions may follow. */
  end(): void {
    this.misc();
    if (this.pos < this.src.length) this.fail("content after the root element", this.pos);
  }

  /**
   * Read the rest of the document wherever the reader is (inside any number of elements), checking it as it goes,
   * then `end()`. What a decoder that stopped early (with an error of its own) calls, so that a malformed document is
   * reported as malformed whatever the decoder thought of its first part.
   */
  drain(): void {
    while (this.depth > 0 || this.empty) this.nextChild(false);
    if (this.whole) this.end();
  }

  /** Read until the reader is back at `depth` open elements (the depth before some element was entered). */
  skipTo(depth: number): void {
    while (this.depth > depth || (this.empty && this.depth === depth)) this.nextChild(false);
  }

  /** Open elements (the current element counts once its content is being read, unless it is `<x/>`). */
  get level(): number {
    return this.depth;
  }

  /** A parse error at `offset`, with its 1-based line and column. */
  fail(message: string, offset: number): never {
    return failAt(this.src, message, offset);
  }

  /** Whitespace, comments, processing instructions (and the XML declaration) outside the root element. */
  private misc(): void {
    this.pos = skipMisc(this.src, this.pos);
  }

  private refuseDeclaration(): never {
    return refuseDeclaration(this.src, this.pos);
  }

  private skipPast(end: string, message: string): void {
    this.pos = skipPast(this.src, this.pos, end, message);
  }

  /**
   * Read the current element's content up to its next child's start tag (true: the reader is now on that child) or
   * its end tag (false: the element is finished). Text on the way is checked; with `collect` it is also kept, in
   * `lastText` (references resolved, line ends normalized, CDATA included).
   */
  nextChild(collect = false): boolean {
    this.fresh = false;
    if (this.empty) {
      this.empty = false;
      this.lastText = "";
      return false;
    }
    const src = this.src;
    let text = "";
    for (;;) {
      const lt = src.indexOf("<", this.pos);
      if (lt !== this.pos) {
        if (lt < 0) this.fail(`element <${this.qnames[this.depth - 1]}> is not closed`, src.length);
        text = this.text(this.pos, lt, collect, text);
        this.pos = lt;
      }
      const next = src.charCodeAt(lt + 1);
      if (next === 0x2f /* / */) {
        this.pos = this.endTag(lt, this.qnames[this.depth - 1]!);
        this.depth--;
        this.lastText = text;
        return false;
      }
      if (next === 0x21 /* ! */) {
        if (src.startsWith("<!--", lt)) this.skipPast("-->", "unterminated comment");
        else if (src.startsWith("<![CDATA[", lt)) {
          const end = src.indexOf("]]>", lt + 9);
          if (end < 0) this.fail("unterminated CDATA section", lt);
          if (collect) {
            const raw = src.slice(lt + 9, end);
            text += raw.includes("\r") ? raw.replace(/\r\n?/g, "\n") : raw;
          }
          this.pos = end + 3;
        } else this.refuseDeclaration();
        continue;
      }
      if (next === 0x3f /* ? */) {
        this.skipPast("?>", "unterminated processing instruction");
        continue;
      }
      this.startTag(lt, this.scopes[this.depth - 1] as NamespaceScope | null);
      this.lastText = text;
      return true;
    }
  }

  /**
   * Set by readText() when the element it read had child elements (left out of the text); never cleared by the
   * reader: a caller that wants to know clears it first (record-codec's check of simple and empty content).
   */
  textHadChildren = false;

  /** The current element's own character data (child elements are read, checked and left out), then its end. */
  readText(): string {
    // The common case first: text (or nothing), then the element's end tag.
    const src = this.src;
    const lt = this.empty ? -1 : src.indexOf("<", this.pos);
    if (lt >= 0 && src.charCodeAt(lt + 1) === 0x2f /* / */) {
      this.fresh = false;
      const text = lt === this.pos ? "" : this.text(this.pos, lt, true, "");
      this.pos = this.endTag(lt, this.qnames[this.depth - 1]!);
      this.depth--;
      return text;
    }
    if (this.nextChild(true) === false) return this.lastText;
    let text = this.lastText;
    this.textHadChildren = true;
    do {
      this.skip();
      const more = this.nextChild(true);
      text += this.lastText;
      if (!more) return text;
    } while (true);
  }

  /** Read (and check) the rest of the current element, keeping nothing. Iterative: depth is bounded by the limits. */
  skip(): void {
    let level = 1;
    while (level > 0) {
      if (this.nextChild(false)) level++;
      else level--;
    }
  }

  /** The current element's qualified name as written (meaningful while the reader is on its start tag). */
  get qname(): string {
    return this.empty ? this.emptyQname : this.qnames[this.depth - 1]!;
  }

  /**
   * The start tag just read as a KnownTag, when it is plain: `<qname>` exactly (no attributes, declarations or
   * spaces) and not `<qname/>`. `known` is returned when it describes this tag already (no object made).
   */
  knownTag(known: KnownTag | undefined): KnownTag | undefined {
    if (!this.fresh || this.empty || this.attrCount !== 0 || this.scope !== this.parentScope) return undefined;
    const qname = this.qnames[this.depth - 1]!;
    if (this.pos !== this.start + qname.length + 2) return undefined;
    const same = known !== undefined && known.qname === qname;
    if (same && known.scope === this.scope && known.aliases === this.aliases) return known;
    // Flat (internalized) copies, made once per name (a document with new bindings reuses them): comparisons with
    // a concatenation, or a slice of the document, measured about 2x slower over the whole decode.
    return {
      qname,
      open: same ? known.open : internalized(`<${qname}>`),
      close: same ? known.close : internalized(`</${qname}>`),
      ns: this.ns,
      local: this.local,
      prefix: this.prefix,
      declaredNs: this.declaredNs,
      scope: this.scope,
      aliases: this.aliases,
      // The pairing of the same name met in other bindings (the same text) is kept.
      paired: same ? known.paired : NO_PIECES,
      pairedAt: same ? known.pairedAt : -1,
      pairedName: same ? known.pairedName : "",
      pairings: 0,
    };
  }

  /**
   * Where the next child's start tag is when it can be `tag` (after whitespace, which is all the text before it that
   * a decoder not keeping text may pass over unread: it has nothing to check), else -1. `tag` must have been met in
   * this reader's bindings: the current element's, or a sibling's parent's in the same scope object.
   */
  private knownAt(tag: KnownTag): number {
    if (this.empty || this.scopes[this.depth - 1] !== tag.scope || tag.aliases !== this.aliases) return -1;
    // The limits the general path would enforce on this tag (the depth of the child, the length of its name).
    if (this.depth >= this.limits.maxDepth || tag.qname.length > this.limits.maxNameLength) return -1;
    const src = this.src;
    let lt = this.pos;
    // Compared already, with the end tag before it (see plainChild).
    if (lt === this.checkedAt && tag === this.checked) return lt;
    while (isSpace(src.charCodeAt(lt))) lt++;
    // One substring compared whole, as in endTag: startsWith at an offset measured several times slower here. (A tag
    // of 13 characters or more is compared through the engine's runtime, see shortPieces: one per record here, and
    // comparing it in pieces measured no faster.)
    return src.substring(lt, lt + tag.open.length) === tag.open ? lt : -1;
  }

  /** A KnownTag whose open tag plainChild has compared with the input at `checkedAt` already. */
  private checked: KnownTag | undefined = undefined;
  private checkedAt = -1;

  /** On the element whose plain start tag `tag` is at `lt` (what startTag would have set). */
  private onKnown(tag: KnownTag, lt: number): void {
    this.start = lt;
    this.tags++;
    this.ns = tag.ns;
    this.local = tag.local;
    this.prefix = tag.prefix;
    this.declaredNs = tag.declaredNs;
    this.scope = tag.scope;
    this.parentScope = tag.scope;
    this.attrCount = 0;
    this.lastText = "";
  }

  /**
   * nextChild(false) when the next child's start tag is `tag` (see KnownTag): the reader is then on that child, as
   * after nextChild. False (nothing read) when the input is anything else: the caller takes the general path.
   */
  enterKnown(tag: KnownTag): boolean {
    const lt = this.knownAt(tag);
    if (lt < 0) return false;
    this.onKnown(tag, lt);
    this.pos = lt + tag.open.length;
    this.fresh = true;
    this.qnames[this.depth] = tag.qname;
    this.scopes[this.depth] = tag.scope;
    this.depth++;
    return true;
  }

  /**
   * nextChild(false) and readText() in one, when the next child is `tag` holding nothing but character data:
   * `<p:x>text</p:x>` exactly, the text without line ends to normalize, ']', references other than the predefined
   * entities or characters XML cannot carry. Returns its text, the reader after its end tag; undefined (nothing read)
   * for anything else, which the general path then reads, with the same result or error.
   */
  plainChild(tag: KnownTag, next?: KnownTag): string | undefined {
    const lt = this.knownAt(tag);
    if (lt < 0) return undefined;
    // Native searches and whole-string comparisons: a loop over the characters in JS costs several times more here.
    const src = this.src;
    const from = lt + tag.open.length;
    const end = src.indexOf("<", from);
    if (end < 0) return undefined;
    // The end tag and the start tag of the sibling expected next in one comparison (when it is there, as it nearly
    // always is, knownAt then needs no comparison of its own), else the end tag alone.
    let paired = false;
    if (next !== undefined) {
      if (tag.pairedName !== next.qname && tag.pairings < MAX_PAIRINGS) {
        const pair = tag.close + next.open;
        tag.paired = shortPieces(pair);
        tag.pairedAt = patternOffset(pair);
        tag.pairedName = next.qname;
        tag.pairings++;
      }
      if (tag.pairedName === next.qname) {
        // In the text memory when the document is resident there (several times faster), else by substrings.
        const length = tag.close.length + next.open.length;
        paired =
          tag.pairedAt >= 0 && isResident(src)
            ? end + length <= src.length && residentHolds(end, tag.pairedAt, length)
            : piecesAt(src, end, tag.paired);
      }
    }
    if (!paired && src.substring(end, end + tag.close.length) !== tag.close) return undefined;
    // What text() checks, with the same remembered searches: ']]>' and CR go to the general path.
    if (this.nextCdataEnd < from) this.nextCdataEnd = indexOrEnd(src, "]]>", from);
    if (this.nextCdataEnd < end) return undefined;
    if (this.nextCr < from) this.nextCr = indexOrEnd(src, "\r", from);
    if (this.nextCr < end) return undefined;
    if (this.nextAmp < from) this.nextAmp = indexOrEnd(src, "&", from);
    // References: resolved (or reported) exactly as text() does.
    const value = this.nextAmp < end ? this.references(from, end) : src.slice(from, end);
    this.onKnown(tag, lt);
    this.fresh = false;
    this.pos = end + tag.close.length;
    if (paired) {
      this.checked = next;
      this.checkedAt = this.pos;
    }
    return value;
  }

  /** The value of the current element's attribute {ns}local, or undefined. */
  attribute(ns: string, local: string): string | undefined {
    for (let i = 0; i < this.attrCount; i++) if (this.attrLocal[i] === local && this.attrNs[i] === ns) return this.attrValue[i];
    return undefined;
  }

  /** True when the current element carries xsi:nil="true" (or "1"). */
  isNil(): boolean {
    if (this.attrCount === 0) return false;
    const v = this.attribute(XSI_NS, "nil");
    return v !== undefined && (v.trim() === "true" || v.trim() === "1");
  }

  /** The current element's xsi:type, resolved; undefined when absent. An unbound prefix resolves to ns "?prefix". */
  xsiType(): { ns: string; local: string } | undefined {
    if (this.attrCount === 0) return undefined;
    const v = this.attribute(XSI_NS, "type");
    if (v === undefined) return undefined;
    const value = v.trim();
    const colon = value.indexOf(":");
    const ns = this.lookup(colon < 0 ? "" : value.slice(0, colon));
    if (ns !== undefined) return { ns, local: colon < 0 ? value : value.slice(colon + 1) };
    return { ns: `?${v.slice(0, Math.max(0, v.indexOf(":")))}`, local: v.slice(v.indexOf(":") + 1) };
  }

  /** The namespace `prefix` ("" = default) is bound to at the current element, or undefined. */
  lookup(prefix: string): string | undefined {
    if (prefix === "xml") return XML_NS;
    for (let s = this.scope; s !== null; s = s.parent) if (s.prefix === prefix) return s.uri;
    return prefix === "" ? "" : undefined;
  }

  /** Where the next ']]>', CR and '&' at or after the last text read are (src.length when there is none). */
  private nextCdataEnd = -1;
  private nextCr = -1;
  private nextAmp = -1;

  /**
   * Check the character data between `start` and `end`, and append it to `text` when collecting. The next '&', CR
   * and ']]>' are found by one forward search each, remembered across calls, so plain text costs one slice (and
   * text that is not kept, such as indentation between elements, none).
   */
  private text(start: number, end: number, collect: boolean, text: string): string {
    const src = this.src;
    if (this.nextCdataEnd < start) this.nextCdataEnd = indexOrEnd(src, "]]>", start);
    if (this.nextCdataEnd < end) this.fail("']]>' is not allowed in text", this.nextCdataEnd);
    if (this.nextCr < start) this.nextCr = indexOrEnd(src, "\r", start);
    if (this.nextAmp < start) this.nextAmp = indexOrEnd(src, "&", start);
    let value: string;
    if (this.nextCr < end) {
      const decoded = decodeEntities(src.slice(start, end).replace(/\r\n?/g, "\n"));
      // Offsets after a folded CRLF are off by one per fold; close enough for a message that quotes the reference.
      if (typeof decoded !== "string") this.fail(decoded.message, start + decoded.offset);
      value = decoded;
    } else if (this.nextAmp < end) {
      value = this.references(start, end);
    } else {
      if (!collect) return text;
      value = src.slice(start, end);
    }
    if (!collect) return text;
    return text === "" ? value : text + value;
  }

  /**
   * The text between `start` and `end` with its references resolved, starting from the '&' already found (nextAmp):
   * the predefined entities in place, anything else by decodeEntitiesIn (which reports what is wrong). Leaves nextAmp
   * at the next '&' after the text, so the following text needs no search of its own.
   */
  private references(start: number, end: number): string {
    const src = this.src;
    // The text before the first reference starts the result: no concatenation with an empty string (each
    // concatenation is a call into the engine, and this runs once per value with a reference).
    let amp = this.nextAmp;
    let out = src.slice(start, amp);
    for (;;) {
      const char = predefinedAt(src, amp);
      const length = char === undefined ? 0 : char === "&" ? 5 : char === "<" || char === ">" ? 4 : 6;
      if (length === 0 || amp + length > end) {
        const rest = decodeEntitiesIn(src, amp, end);
        if (typeof rest !== "string") this.fail(rest.message, amp + rest.offset);
        this.nextAmp = -1;
        return out + rest;
      }
      const last = amp + length;
      amp = indexOrEnd(src, "&", last);
      if (amp >= end) {
        this.nextAmp = amp;
        return out + char + src.slice(last, end);
      }
      out += char + src.slice(last, amp);
    }
  }

  /** The end tag at `lt` must close `qname`; returns the offset after it. */
  private endTag(lt: number, qname: string): number {
    const src = this.src;
    // One substring compared whole: measurably faster here than startsWith at an offset or a code-unit loop.
    const after = lt + 2 + qname.length;
    if (src.substring(lt + 2, after) === qname) {
      let i = after;
      while (isSpace(src.charCodeAt(i))) i++;
      if (src.charCodeAt(i) === 0x3e /* > */) return i + 1;
    }
    const gt = src.indexOf(">", lt + 2);
    if (gt < 0) this.fail("unterminated end tag", lt);
    const name = src.slice(lt + 2, gt).trimEnd();
    if (name !== qname) this.fail(`end tag </${name}> does not match <${qname}>`, lt);
    return gt + 1;
  }

  /** Set by name(): the name's prefix ("" for none) and local part. */
  private namePrefix = "";
  private nameLocal = "";
  /** The NAMES slot of the last name read (what the next name is guessed from). */
  private lastSlot = 0;

  /**
   * The (qualified) name at `offset`, checked: one colon at most, not first or last. Names repeat (every record of a
   * result has the same element names), so a name already met is taken from NAMES instead of being sliced out again,
   * with its prefix and local part: no string is made per element, and the same string objects come back each time,
   * so the decoders' Map lookups and comparisons on them find their hash already computed.
   */
  private name(offset: number): string {
    const src = this.src;
    let i = offset;
    if (!isNameStart(src.charCodeAt(i))) this.fail("expected a name", i);
    // The name that followed the previous one last time (the next field of a record, nearly always): compared in
    // place, and a hit (the name, then a character that cannot continue a name) needs no scan of its characters.
    const guessSlot = NEXT[this.lastSlot]!;
    const guess = NAMES[guessSlot];
    if (guess !== undefined) {
      // One substring compared whole: faster than a loop over the characters or startsWith at an offset.
      const n = guess.length;
      if (src.substring(offset, offset + n) === guess && !isNameChar(src.charCodeAt(offset + n)) && n <= this.limits.maxNameLength) {
        this.lastSlot = guessSlot;
        this.namePrefix = NAME_PREFIXES[guessSlot]!;
        this.nameLocal = NAME_LOCALS[guessSlot]!;
        return guess;
      }
    }
    let colon = -1;
    let colons = 0;
    let hash = 0;
    for (;;) {
      const c = src.charCodeAt(i);
      if (c === 0x3a /* : */) {
        colon = i;
        colons++;
      } else if (!isNameChar(c)) break;
      hash = (hash * 31 + c) | 0;
      i++;
    }
    const length = i - offset;
    if (length > this.limits.maxNameLength) this.fail(`name longer than ${this.limits.maxNameLength} characters`, offset);
    const slot = (hash ^ length) & (NAME_SLOTS - 1);
    NEXT[this.lastSlot] = slot;
    this.lastSlot = slot;
    const known = NAMES[slot];
    if (known !== undefined && known.length === length && src.substring(offset, i) === known) {
      this.namePrefix = NAME_PREFIXES[slot]!;
      this.nameLocal = NAME_LOCALS[slot]!;
      return known;
    }
    const name = src.slice(offset, i);
    if (colons > 1 || colon === offset || colon === i - 1) this.fail(`'${name}' is not a valid qualified name`, offset);
    const prefix = colon < 0 ? "" : name.slice(0, colon - offset);
    const local = colon < 0 ? name : name.slice(colon - offset + 1);
    if (length <= MAX_CACHED_NAME) {
      NAMES[slot] = name;
      NAME_PREFIXES[slot] = prefix;
      NAME_LOCALS[slot] = local;
    }
    this.namePrefix = prefix;
    this.nameLocal = local;
    return name;
  }

  /** The last element prefix resolved and the scope it was resolved in: siblings nearly always repeat both. */
  private lastScope: NamespaceScope | null | undefined = undefined;
  private lastPrefix = "";
  private lastUri = "";
  private lastDeclared = "";
  /** Attribute names, values and offsets of the tag being read (namespace declarations included, offset -1). */
  private readonly rawNames: string[] = [];
  private readonly rawPrefixes: string[] = [];
  private readonly rawLocals: string[] = [];
  private readonly rawValues: string[] = [];
  private readonly rawAt: number[] = [];

  /** Read the start tag at `lt` (its parent's bindings are `parentScope`): the reader is then on that element. */
  private startTag(lt: number, parentScope: NamespaceScope | null): void {
    if (this.depth >= this.limits.maxDepth) this.fail(`elements nested deeper than ${this.limits.maxDepth}`, lt);
    const src = this.src;
    const qname = this.name(lt + 1);
    const prefix = this.namePrefix; // read now: attribute names overwrite them
    const local = this.nameLocal;
    let i = lt + 1 + qname.length;
    let raw = 0;
    let seenRaw: Set<string> | undefined;
    let seenExpanded: Set<string> | undefined;
    const rawNames = this.rawNames;
    const rawPrefixes = this.rawPrefixes;
    const rawLocals = this.rawLocals;
    let scope = parentScope;
    let selfClosing = false;
    for (;;) {
      const before = i;
      while (i < src.length && isSpace(src.charCodeAt(i))) i++;
      const c = src.charCodeAt(i);
      if (c === 0x3e /* > */) {
        i++;
        break;
      }
      if (c === 0x2f /* / */ && src.charCodeAt(i + 1) === 0x3e) {
        i += 2;
        selfClosing = true;
        break;
      }
      if (i >= src.length) this.fail(`unterminated start tag <${qname}>`, lt);
      if (i === before) this.fail("expected whitespace before an attribute", i);
      const attrName = this.name(i);
      rawPrefixes[raw] = this.namePrefix;
      rawLocals[raw] = this.nameLocal;
      i += attrName.length;
      attributeQuotes(src, i, attrName, QUOTES);
      i = QUOTES[0];
      const end = QUOTES[1];
      const value = attributeValueAt(src, src.slice(i + 1, end), i + 1);
      if (raw >= this.limits.maxAttributes) this.fail(`more than ${this.limits.maxAttributes} attributes`, i);
      if (raw < SCAN_ATTRIBUTES) {
        for (let k = 0; k < raw; k++) if (rawNames[k] === attrName) this.fail(`duplicate attribute ${attrName}`, i);
      } else {
        // Many attributes: a set keeps the duplicate check linear (a scan per attribute would be quadratic).
        if (raw === SCAN_ATTRIBUTES) seenRaw = new Set(rawNames.slice(0, raw));
        if (seenRaw!.has(attrName)) this.fail(`duplicate attribute ${attrName}`, i);
        seenRaw!.add(attrName);
      }
      rawNames[raw] = attrName;
      if (attrName === "xmlns" || rawPrefixes[raw] === "xmlns") {
        const prefix = attrName.length === 5 ? "" : rawLocals[raw]!;
        checkNamespaceBinding(src, attrName, prefix, value, i);
        const declared = internalized(value);
        const uri = this.aliases?.get(declared) ?? declared;
        scope = { prefix, uri, parent: scope, declared } as ReaderScope;
        // Declarations stay in the raw list until the tag ends, so a repeated xmlns:p is a duplicate attribute.
        this.rawAt[raw] = -1;
      } else {
        this.rawValues[raw] = value;
        this.rawAt[raw] = i;
      }
      raw++;
      i = end + 1;
    }
    this.pos = i;
    this.start = lt;
    this.tags++;
    this.fresh = true;
    this.local = local;
    this.prefix = prefix;
    if (scope !== this.lastScope || prefix !== this.lastPrefix) this.resolveElement(prefix, scope, lt);
    this.ns = this.lastUri;
    this.declaredNs = this.lastDeclared;
    this.scope = scope;
    this.parentScope = parentScope;
    let count = 0;
    for (let k = 0; k < raw; k++) {
      const at = this.rawAt[k]!;
      if (at < 0) continue;
      const aprefix = rawPrefixes[k]!;
      const alocal = rawLocals[k]!;
      const ans = aprefix === "" ? "" : this.namespaceOf(aprefix, scope, false, at);
      if (count < SCAN_ATTRIBUTES) {
        for (let j = 0; j < count; j++) {
          if (this.attrLocal[j] === alocal && this.attrNs[j] === ans) this.fail(`duplicate attribute {${ans}}${alocal}`, at);
        }
      } else {
        if (count === SCAN_ATTRIBUTES) {
          seenExpanded = new Set();
          for (let j = 0; j < count; j++) seenExpanded.add(`{${this.attrNs[j]}}${this.attrLocal[j]}`);
        }
        const expanded = `{${ans}}${alocal}`;
        if (seenExpanded!.has(expanded)) this.fail(`duplicate attribute {${ans}}${alocal}`, at);
        seenExpanded!.add(expanded);
      }
      this.attrNs[count] = ans;
      this.attrLocal[count] = alocal;
      this.attrPrefix[count] = aprefix;
      this.attrValue[count] = this.rawValues[k]!;
      count++;
    }
    this.attrCount = count;
    if (selfClosing) {
      this.empty = true;
      this.emptyQname = qname;
    } else {
      this.qnames[this.depth] = qname;
      this.scopes[this.depth] = scope;
      this.depth++;
    }
  }

  private resolveElement(prefix: string, scope: NamespaceScope | null, lt: number): void {
    this.lastUri = this.namespaceOf(prefix, scope, true, lt);
    let declared = this.lastUri;
    if (this.aliases !== undefined) {
      for (let s = scope; s !== null; s = s.parent) {
        if (s.prefix === prefix) {
          declared = (s as ReaderScope).declared;
          break;
        }
      }
    }
    this.lastDeclared = declared;
    this.lastScope = scope;
    this.lastPrefix = prefix;
  }

  private namespaceOf(prefix: string, scope: NamespaceScope | null, element: boolean, at: number): string {
    return namespaceAt(this.src, prefix, scope, element, at);
  }
}


/** A reader kept alive, so that the optimized code reading documents survives full GCs (see KeptInstance). */
const KEPT_READER = /* @__PURE__ */ new KeptInstance(() => XmlPullReader.document("<kept/>"));

/** Names met so far (qualified name, prefix, local part) by a hash of the name: bounded, shared by every reader. */
const NAME_SLOTS = 1024;
/** Longer names are not kept (the limits allow long names; the cache stays small whatever they are). */
const MAX_CACHED_NAME = 64;
const NAMES: (string | undefined)[] = /* @__PURE__ */ (() => new Array<string | undefined>(NAME_SLOTS).fill(undefined))();
const NAME_PREFIXES: string[] = /* @__PURE__ */ (() => new Array<string>(NAME_SLOTS).fill(""))();
const NAME_LOCALS: string[] = /* @__PURE__ */ (() => new Array<string>(NAME_SLOTS).fill(""))();
/** For each slot, the slot of the name read right after it last time. */
const NEXT: number[] = /* @__PURE__ */ (() => new Array<number>(NAME_SLOTS).fill(0))();

