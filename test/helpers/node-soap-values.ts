/** Comparing what node-soap parsed with what specforge decoded (the rpc/encoded tests under test/emitters/soap-rpc/). */

/** node-soap's parse without its markup: `{ attributes, $value }` as the value, `attributes` dropped. */
export function plain(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(plain);
  if (v !== null && typeof v === "object") {
    const o = v as Record<string, unknown>;
    if ("$value" in o) return plain(o.$value);
    return Object.fromEntries(Object.entries(o).filter(([k]) => k !== "attributes").map(([k, x]) => [k, plain(x)]));
  }
  return v;
}

/** node-soap reads every simple value of an encoded message without a schema type as a string: compare as text. */
export function texts(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(texts);
  if (v !== null && typeof v === "object") return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, texts(x)]));
  return v === undefined || v === null ? v : String(v);
}
