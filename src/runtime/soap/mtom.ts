/**
 * MTOM/XOP (SOAP Message Transmission Optimization): a SOAP message as `multipart/related`, the envelope in the root
 * part (`application/xop+xml`) and each large base64Binary value as a binary part the XML points to with
 * `<xop:Include href="cid:..."/>`. Reading keeps the message's bytes once: parts are views into them, and the
 * decoders get each value as such a view (xml/xop.ts). Writing sends the bytes of each value as they are.
 */
import { escapeAttribute } from "../xml/escape.js";
import { registerXopAttachment, withXopSink } from "../xml/xop.js";
import { randomBytes } from "./wss/crypto.js";
import { parseDom, allElements, domAttr } from "./wss/dom.js";

export const XOP_NS = "http://www.w3.org/2004/08/xop/include";

/** A client's `mtom` option: send base64Binary values of at least `thresholdBytes` (default 1024) as attachments. */
export interface SoapMtomOptions {
  readonly thresholdBytes?: number;
}

/** A malformed MTOM message. */
export class MtomError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "MtomError";
  }
}

export function isMultipartRelated(contentType: string): boolean {
  return /^\s*multipart\/related\s*(;|$)/i.test(contentType);
}

/** A parameter of a media type (quoted or not), case-insensitive name. */
function parameter(contentType: string, name: string): string | undefined {
  const re = new RegExp(`;\\s*${name}\\s*=\\s*(?:"((?:[^"\\\\]|\\\\.)*)"|([^;\\s]*))`, "i");
  const m = re.exec(contentType);
  return m === null ? undefined : (m[1]?.replace(/\\(.)/g, "$1") ?? m[2]);
}

function token(): string {
  let out = "";
  for (const b of randomBytes(12)) out += b.toString(16).padStart(2, "0");
  return out;
}

const CRLF_CRLF = [13, 10, 13, 10];

function indexOfBytes(haystack: Uint8Array, needle: Uint8Array | readonly number[], from: number): number {
  const first = needle[0]!;
  for (let i = haystack.indexOf(first, from); i >= 0 && i + needle.length <= haystack.length; i = haystack.indexOf(first, i + 1)) {
    let k = 1;
    while (k < needle.length && haystack[i + k] === needle[k]) k++;
    if (k === needle.length) return i;
  }
  return -1;
}

/** The envelope text of an MTOM message, with its attachments registered for the decoders until `release()`. */
export interface MtomMessage {
  /** The root part's XML, each xop:Include replaced by its marker. */
  readonly text: string;
  /** The SOAP version the root part's type names. */
  readonly soapContentType: string;
  release(): void;
}

/** Read a multipart/related MTOM body. Throws MtomError on anything malformed. */
export function readMtom(bytes: Uint8Array, contentType: string): MtomMessage {
  const boundary = parameter(contentType, "boundary");
  if (boundary === undefined || boundary === "" || boundary.length > 200) throw new MtomError("multipart/related without a boundary");
  const start = parameter(contentType, "start")?.replace(/^<|>$/g, "");
  const delimiter = new TextEncoder().encode(`--${boundary}`);
  const latin1 = new TextDecoder("latin1");
  const parts: { headers: Map<string, string>; body: Uint8Array }[] = [];
  let at = indexOfBytes(bytes, delimiter, 0);
  if (at < 0) throw new MtomError("the multipart body has no boundary line");
  for (;;) {
    let i = at + delimiter.length;
    if (bytes[i] === 45 && bytes[i + 1] === 45) break; // "--": the closing delimiter
    while (bytes[i] === 32 || bytes[i] === 9) i++;
    if (bytes[i] !== 13 || bytes[i + 1] !== 10) throw new MtomError("malformed boundary line");
    const headersEnd = indexOfBytes(bytes, CRLF_CRLF, i);
    if (headersEnd < 0) throw new MtomError("a part without the end of its headers");
    const headers = new Map<string, string>();
    for (const line of latin1.decode(bytes.subarray(i + 2, headersEnd)).split(/\r\n(?![ \t])/)) {
      const colon = line.indexOf(":");
      if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
    }
    const next = indexOfBytes(bytes, delimiter, headersEnd + 4);
    if (next < 0) throw new MtomError("the multipart body has no closing boundary");
    // The CRLF before the delimiter belongs to the delimiter.
    const end = next >= 2 && bytes[next - 2] === 13 && bytes[next - 1] === 10 ? next - 2 : next;
    let body = bytes.subarray(headersEnd + 4, end);
    const encoding = headers.get("content-transfer-encoding")?.toLowerCase();
    if (encoding === "base64") {
      const decoded = Uint8Array.from(atob(latin1.decode(body).replace(/\s+/g, "")), (c) => c.charCodeAt(0));
      body = decoded;
    } else if (encoding !== undefined && encoding !== "binary" && encoding !== "8bit" && encoding !== "7bit") {
      throw new MtomError(`unsupported Content-Transfer-Encoding ${encoding}`);
    }
    parts.push({ headers, body });
    at = next;
    if (parts.length > 10_000) throw new MtomError("too many parts");
  }
  const idOf = (p: { headers: Map<string, string> }) => p.headers.get("content-id")?.replace(/^<|>$/g, "");
  const root = (start !== undefined ? parts.find((p) => idOf(p) === start) : undefined) ?? parts[0];
  if (root === undefined) throw new MtomError("the multipart body has no parts");
  const rootType = root.headers.get("content-type") ?? "";
  if (!/^\s*application\/xop\+xml\s*(;|$)/i.test(rootType)) throw new MtomError(`the root part is ${rootType || "untyped"}, not application/xop+xml`);
  const soapType = parameter(rootType, "type") ?? parameter(contentType, "start-info") ?? "text/xml";
  let xml: string;
  try {
    xml = new TextDecoder("utf-8", { fatal: true }).decode(root.body);
  } catch {
    throw new MtomError("the root part is not UTF-8");
  }
  const byId = new Map<string, Uint8Array>();
  for (const p of parts) if (p !== root && idOf(p) !== undefined) byId.set(idOf(p)!, p.body);
  // Each xop:Include (found by its resolved namespace) becomes its marker text; its bytes are registered for it.
  const releases: (() => void)[] = [];
  const includes: { start: number; end: number; marker: string }[] = [];
  const salt = token();
  try {
    for (const el of allElements(parseDom(xml))) {
      if (el.ns !== XOP_NS || el.local !== "Include") continue;
      const href = domAttr(el, "", "href") ?? "";
      if (!href.startsWith("cid:")) throw new MtomError(`xop:Include href ${JSON.stringify(href)} is not a cid: URL`);
      let cid: string;
      try {
        cid = decodeURIComponent(href.slice(4));
      } catch {
        throw new MtomError(`xop:Include href ${JSON.stringify(href)} is malformed`);
      }
      const part = byId.get(cid);
      if (part === undefined) throw new MtomError(`xop:Include names no part: ${href}`);
      const marker = `cid:${salt}-${includes.length}`;
      releases.push(registerXopAttachment(marker, part));
      includes.push({ start: el.start, end: el.end, marker });
    }
  } catch (error) {
    for (const r of releases) r();
    if (error instanceof MtomError) throw error;
    throw new MtomError(`the root part is not well-formed XML: ${(error as Error).message}`);
  }
  let text = "";
  let last = 0;
  for (const inc of includes.sort((a, b) => a.start - b.start)) {
    text += xml.slice(last, inc.start) + inc.marker;
    last = inc.end;
  }
  text += xml.slice(last);
  return { text, soapContentType: soapType, release: () => releases.forEach((r) => r()) };
}

/** Values an encoder handed over as attachments (see encodeForMtom). */
export interface MtomAttachments {
  readonly taken: readonly { readonly marker: string; readonly cid: string; readonly bytes: Uint8Array }[];
}

/**
 * Run `encode` (which must write synchronously, as the generated encoders do) with base64Binary values of at least
 * `thresholdBytes` taken as attachments: the encoded text has a marker where each value would be.
 */
export function encodeForMtom<T>(encode: () => T, options: SoapMtomOptions = {}): { value: T; attachments: MtomAttachments } {
  const threshold = options.thresholdBytes ?? 1024;
  const salt = token();
  const taken: { marker: string; cid: string; bytes: Uint8Array }[] = [];
  const value = withXopSink((bytes) => {
    if (bytes.length < threshold) return undefined;
    // Closed by a dot, so that no marker is the beginning of another.
    const marker = `cid:${salt}.${taken.length}.`;
    taken.push({ marker, cid: `${salt}-${taken.length}@specforge`, bytes });
    return marker;
  }, encode);
  return { value, attachments: { taken } };
}

/** What mtomBody makes: the body (parts in order) and its Content-Type. */
export interface MtomBody {
  readonly contentType: string;
  readonly body: Blob;
}

/** The MTOM message of `envelope` (with encodeForMtom's markers) and its attachments. */
export function mtomBody(envelope: string, attachments: MtomAttachments, soapContentType: string): MtomBody {
  let xml = envelope;
  for (const t of attachments.taken) {
    const i = xml.indexOf(t.marker);
    if (i < 0) continue;
    xml = `${xml.slice(0, i)}<xop:Include xmlns:xop="${XOP_NS}" href="cid:${escapeAttribute(encodeURIComponent(t.cid).replace(/%40/g, "@"))}"/>${xml.slice(i + t.marker.length)}`;
  }
  const boundary = `MIMEBoundary_${token()}`;
  const rootId = `root.${token()}@specforge`;
  const parts: BlobPart[] = [
    `--${boundary}\r\nContent-Type: application/xop+xml; charset=UTF-8; type="${soapContentType.split(";")[0]!.trim()}"\r\nContent-Transfer-Encoding: binary\r\nContent-ID: <${rootId}>\r\n\r\n`,
    xml,
  ];
  for (const t of attachments.taken) {
    parts.push(`\r\n--${boundary}\r\nContent-Type: application/octet-stream\r\nContent-Transfer-Encoding: binary\r\nContent-ID: <${t.cid}>\r\n\r\n`, t.bytes as BlobPart);
  }
  parts.push(`\r\n--${boundary}--\r\n`);
  const startInfo = soapContentType.split(";")[0]!.trim();
  const action = parameter(soapContentType, "action");
  return {
    contentType:
      `multipart/related; type="application/xop+xml"; boundary="${boundary}"; start="<${rootId}>"; start-info="${startInfo}"` +
      (action !== undefined ? `; action="${action.replace(/["\\]/g, "")}"` : ""),
    body: new Blob(parts),
  };
}
