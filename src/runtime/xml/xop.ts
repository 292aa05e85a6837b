/**
 * The XML codecs' side of MTOM/XOP: while an MTOM message is read, each `xop:Include` stands in the XML as the text
 * of a marker ("cid:" and a random token: never valid base64) whose bytes are registered here, and parseXsdBase64
 * hands those bytes over (a view into the message, not a copy); while one is written, encodeBase64 asks the active
 * sink, which may take the bytes as an attachment and answer the marker to write instead of base64. The SOAP runtime
 * (soap/mtom.ts) turns markers into xop:Include elements and back.
 */

const registered: Map<string, Uint8Array> = /* @__PURE__ */ new Map();
let sink: ((bytes: Uint8Array) => string | undefined) | undefined;

/** The bytes of a marker registered by a reader, or undefined. */
export function xopAttachment(text: string): Uint8Array | undefined {
  if (registered.size === 0) return undefined;
  const t = text.trim();
  return t.startsWith("cid:") ? registered.get(t) : undefined;
}

/** Make `marker` ("cid:...") stand for `bytes` until the returned function is called. */
export function registerXopAttachment(marker: string, bytes: Uint8Array): () => void {
  registered.set(marker, bytes);
  return () => registered.delete(marker);
}

/** Run `write` with `take` asked for every binary value written (synchronously) meanwhile. */
export function withXopSink<T>(take: (bytes: Uint8Array) => string | undefined, write: () => T): T {
  const before = sink;
  sink = take;
  try {
    return write();
  } finally {
    sink = before;
  }
}

/** The marker to write instead of `bytes`' base64, when a sink takes them. */
export function xopSinkMarker(bytes: Uint8Array): string | undefined {
  return sink === undefined ? undefined : sink(bytes);
}
