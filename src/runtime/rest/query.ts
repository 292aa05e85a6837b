/**
 * The query string of a request, as generated parameter parsers read it. `URLSearchParams` does the job but is
 * built in JavaScript with a full percent-decoder, and is a measurable part of answering a small GET; nearly every
 * real query string has nothing to decode, so such a string is split by hand into the same pairs, and anything
 * else (a '%', a '+', a leading '?') goes to URLSearchParams itself. Either way the reader sees the same values.
 */
export interface RestQuery {
  /** The first value of `name`, or null. */
  get(name: string): string | null;
  /** Every value of `name`, in order. */
  getAll(name: string): string[];
  /** Every pair in order, value first (URLSearchParams' order of arguments). */
  forEach(callback: (value: string, key: string) => void): void;
}

/** `search` is the part after '?' (without it). */
export function restQuery(search: string): RestQuery {
  if (search.includes("%") || search.includes("+") || search.charCodeAt(0) === 0x3f /* ? */) return new URLSearchParams(search);
  return new PlainQuery(search);
}

/** A query string with nothing to decode, split the way URLSearchParams splits it (empty pieces are skipped). */
class PlainQuery implements RestQuery {
  private readonly keys: string[] = [];
  private readonly values: string[] = [];

  constructor(search: string) {
    let start = 0;
    while (start < search.length) {
      let end = search.indexOf("&", start);
      if (end < 0) end = search.length;
      if (end > start) {
        const eq = search.indexOf("=", start);
        if (eq < 0 || eq > end) {
          this.keys.push(search.slice(start, end));
          this.values.push("");
        } else {
          this.keys.push(search.slice(start, eq));
          this.values.push(search.slice(eq + 1, end));
        }
      }
      start = end + 1;
    }
  }

  get(name: string): string | null {
    const i = this.keys.indexOf(name);
    return i < 0 ? null : this.values[i]!;
  }

  getAll(name: string): string[] {
    const out: string[] = [];
    for (let i = 0; i < this.keys.length; i++) if (this.keys[i] === name) out.push(this.values[i]!);
    return out;
  }

  forEach(callback: (value: string, key: string) => void): void {
    for (let i = 0; i < this.keys.length; i++) callback(this.values[i]!, this.keys[i]!);
  }
}
