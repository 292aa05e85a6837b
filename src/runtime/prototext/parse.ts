/**
 * The protobuf text format parser: text in, protobuf binary out, driven by the same field tables as the printer;
 * generated `fromText<T>` hands the bytes to the generated decoder, so parsed messages have exactly the shape (and
 * the checks: UTF-8, required fields) of decoded ones. Follows protoc's reader: `#` comments, `:` optional before
 * a message, `{}` or `<>`, repeated values as `[a, b]`, `,` or `;` after a field, adjacent strings joined,
 * `[extension.name]`, groups by their type name, enum values by name or number. A non-repeated field given twice,
 * an unknown field name, an out-of-range number are TextFormatError with line:column.
 */
import { floatValue, integerValue, unquote } from "./literals.js";
import type { TextField, TextMessage, TextScalar, TextTypes, TextValue } from "./table.js";
import { describe, TextFormatError, Tokenizer, type Token } from "./tokens.js";
import { WireBytes } from "./wire.js";

const MAX_DEPTH = 100;

// Built in a function: bigint arithmetic can throw, so bundlers would keep it at module level as a side effect.
const INT_RANGE: Partial<Record<TextScalar, readonly [bigint, bigint]>> = /* @__PURE__ */ (() => ({
  int32: [-(2n ** 31n), 2n ** 31n - 1n], sint32: [-(2n ** 31n), 2n ** 31n - 1n], sfixed32: [-(2n ** 31n), 2n ** 31n - 1n],
  uint32: [0n, 2n ** 32n - 1n], fixed32: [0n, 2n ** 32n - 1n],
  int64: [-(2n ** 63n), 2n ** 63n - 1n], sint64: [-(2n ** 63n), 2n ** 63n - 1n], sfixed64: [-(2n ** 63n), 2n ** 63n - 1n],
  uint64: [0n, 2n ** 64n - 1n], fixed64: [0n, 2n ** 64n - 1n],
}))();

function fail(t: Token, reason: string): never {
  throw new TextFormatError(t.line, t.column, reason);
}

class Parser {
  constructor(
    private readonly tokens: Tokenizer,
    private readonly types: TextTypes | undefined,
  ) {}

  /** Fields until `close` (or the end of the input for the top level). */
  message(table: TextMessage, out: WireBytes, close: string | undefined, depth: number): void {
    if (depth > MAX_DEPTH) fail(this.tokens.peek(), `messages nested deeper than ${MAX_DEPTH}`);
    const seen = new Set<string>();
    for (;;) {
      const t = this.tokens.peek();
      if (close === undefined ? t.kind === "end" : t.kind === "punct" && t.text === close) {
        this.tokens.next();
        return;
      }
      if (t.kind === "end") fail(t, `expected "${close}", got the end of the input`);
      if (table.any === true && this.anyExpansion(table, out, seen, depth)) continue;
      const field = this.fieldName(table);
      if (field.repeated !== true && field.mapKey === undefined) {
        // One value per singular field, and one member per oneof.
        const key = field.oneof ?? `#${field.number}`;
        if (seen.has(key) || (table.any === true && seen.has("#any"))) fail(field.token, field.oneof !== undefined ? `field "${field.field.name}" is a second member of its oneof` : `non-repeated field "${field.field.name}" is given twice`);
        seen.add(key);
      }
      this.fieldValue(field.field, field.token, out, depth);
      if (!this.tokens.accept(",")) this.tokens.accept(";");
    }
  }

  /**
   * `[type.googleapis.com/pkg.Type] { ... }` inside an Any: written as its type_url and value fields. False when
   * the next name is not a URL (then it is an ordinary field).
   */
  private anyExpansion(table: TextMessage, out: WireBytes, seen: Set<string>, depth: number): boolean {
    const open = this.tokens.peek();
    if (!(open.kind === "punct" && open.text === "[")) return false;
    const urlField = table.fields.find((f) => f.name === "type_url");
    const valueField = table.fields.find((f) => f.name === "value");
    if (!urlField || !valueField) return false;
    this.tokens.next();
    const parts: string[] = [];
    for (let p = this.tokens.next(); !(p.kind === "punct" && p.text === "]"); p = this.tokens.next()) {
      if (p.kind === "end") fail(p, 'expected "]"');
      parts.push(p.text);
    }
    const url = parts.join("");
    if (!url.includes("/")) fail(open, `expected a type URL in an Any, got [${url}]`);
    const type = this.types?.get(url.slice(url.lastIndexOf("/") + 1));
    if (!type) fail(open, `unknown type in Any: ${url}`);
    if (seen.has("#any") || seen.has(`#${urlField.number}`) || seen.has(`#${valueField.number}`)) fail(open, "an Any holds one value");
    seen.add("#any");
    this.tokens.accept(":");
    const body = new WireBytes();
    this.nested(type.table, body, depth);
    out.tag(urlField.number, 2);
    out.lengthDelimited([...new TextEncoder().encode(url)]);
    out.tag(valueField.number, 2);
    out.lengthDelimited(body.bytes);
    if (!this.tokens.accept(",")) this.tokens.accept(";");
    return true;
  }

  private fieldName(table: TextMessage): { field: TextField; token: Token; repeated?: true; mapKey?: TextScalar; oneof?: string; number: number } {
    const t = this.tokens.next();
    let name: string;
    if (t.kind === "punct" && t.text === "[") {
      const parts: string[] = [];
      for (let p = this.tokens.next(); !(p.kind === "punct" && p.text === "]"); p = this.tokens.next()) {
        if (p.kind === "end") fail(p, 'expected "]"');
        parts.push(p.text);
      }
      name = `[${parts.join("")}]`;
      if (name.includes("/")) fail(t, `${name}: a type URL is only allowed inside a google.protobuf.Any`);
    } else if (t.kind === "ident") name = t.text;
    else fail(t, `expected a field name, got ${describe(t)}`);
    const field = table.fields.find((f) => f.name === name);
    if (!field) fail(t, `unknown field ${name}`);
    return { field, token: t, ...(field.repeated ? { repeated: true as const } : {}), ...(field.mapKey ? { mapKey: field.mapKey } : {}), ...(field.oneof !== undefined ? { oneof: field.oneof } : {}), number: field.number };
  }

  private fieldValue(field: TextField, nameToken: Token, out: WireBytes, depth: number): void {
    const isMessage = field.value.kind === "message" || field.mapKey !== undefined;
    const colon = this.tokens.accept(":");
    if (!colon && !isMessage) fail(this.tokens.peek(), `expected ":" after ${nameToken.text}`);
    const list = this.tokens.accept("[");
    if (list && field.repeated !== true && field.mapKey === undefined) fail(nameToken, `field "${nameToken.text}" is not repeated`);
    if (list) {
      if (this.tokens.accept("]")) return;
      do this.oneValue(field, out, depth);
      while (this.tokens.accept(","));
      this.tokens.expect("]");
    } else this.oneValue(field, out, depth);
  }

  private oneValue(field: TextField, out: WireBytes, depth: number): void {
    if (field.mapKey !== undefined) {
      const entry: TextMessage = {
        fields: [
          { name: "key", number: 1, prop: "key", value: { kind: "scalar", scalar: field.mapKey } },
          { name: "value", number: 2, prop: "value", value: field.value },
        ],
        unknownProp: "$unknown",
      };
      const body = new WireBytes();
      this.tokens.accept(":");
      this.nested(entry, body, depth);
      out.tag(field.number, 2);
      out.lengthDelimited(body.bytes);
      return;
    }
    this.value(field.number, field.value, out, depth);
  }

  private nested(table: TextMessage, out: WireBytes, depth: number): void {
    const open = this.tokens.next();
    if (open.kind !== "punct" || (open.text !== "{" && open.text !== "<")) fail(open, `expected "{" or "<", got ${describe(open)}`);
    this.message(table, out, open.text === "{" ? "}" : ">", depth + 1);
  }

  private value(number: number, value: TextValue, out: WireBytes, depth: number): void {
    if (value.kind === "message") {
      const body = new WireBytes();
      this.nested(value.message(), body, depth);
      if (value.group === true) {
        out.tag(number, 3);
        out.append(body.bytes);
        out.tag(number, 4);
      } else {
        out.tag(number, 2);
        out.lengthDelimited(body.bytes);
      }
      return;
    }
    const t = this.tokens.next();
    if (value.kind === "enum") {
      out.tag(number, 0);
      out.varint(BigInt(this.enumNumber(value, t)));
      return;
    }
    this.scalar(number, value.scalar, t, out);
  }

  private enumNumber(value: Extract<TextValue, { kind: "enum" }>, t: Token): number {
    if (t.kind === "ident") {
      const hit = value.values.find(([name]) => name === t.text);
      if (!hit) fail(t, `unknown enum value ${t.text}`);
      return hit[1];
    }
    const n = this.signedInteger(t, "int32");
    if (value.closed === true && !value.values.some(([, v]) => BigInt(v) === n)) fail(t, `unknown enum value ${n}`);
    return Number(n);
  }

  /** An integer, with a leading "-" token when there is one, range-checked for its type. */
  private signedInteger(t: Token, scalar: TextScalar): bigint {
    let negative = false;
    let tok = t;
    if (t.kind === "punct" && t.text === "-") {
      negative = true;
      tok = this.tokens.next();
    }
    const v = tok.kind === "number" ? integerValue(tok.text) : undefined;
    if (v === undefined) fail(tok, `expected an integer, got ${describe(tok)}`);
    const n = negative ? -v : v;
    const range = INT_RANGE[scalar]!;
    if (n < range[0] || n > range[1]) fail(tok, `${negative ? "-" : ""}${tok.text} is out of range for ${scalar}`);
    return n;
  }

  private scalar(number: number, scalar: TextScalar, t: Token, out: WireBytes): void {
    switch (scalar) {
      case "string":
      case "bytes": {
        if (t.kind !== "string") fail(t, `expected a string, got ${describe(t)}`);
        const parts = [unquote(t)];
        while (this.tokens.peek().kind === "string") parts.push(unquote(this.tokens.next()));
        out.tag(number, 2);
        out.varint(BigInt(parts.reduce((n, p) => n + p.length, 0)));
        for (const p of parts) out.append(p);
        return;
      }
      case "bool": {
        const ok = t.kind === "ident" || t.kind === "number" ? t.text : "";
        const v = ["true", "True", "t", "1"].includes(ok) ? 1n : ["false", "False", "f", "0"].includes(ok) ? 0n : undefined;
        if (v === undefined) fail(t, `expected true or false, got ${describe(t)}`);
        out.tag(number, 0);
        out.varint(v);
        return;
      }
      case "float":
      case "double": {
        let negative = false;
        let tok = t;
        if (t.kind === "punct" && t.text === "-") {
          negative = true;
          tok = this.tokens.next();
        }
        const v = floatValue(tok);
        if (v === undefined) fail(tok, `expected a number, got ${describe(tok)}`);
        const x = negative ? -v : v;
        if (scalar === "float") {
          out.tag(number, 5);
          out.float32(x);
        } else {
          out.tag(number, 1);
          out.float64(x);
        }
        return;
      }
      default: {
        const n = this.signedInteger(t, scalar);
        if (scalar === "fixed32" || scalar === "sfixed32") {
          out.tag(number, 5);
          out.fixed(n, 4);
        } else if (scalar === "fixed64" || scalar === "sfixed64") {
          out.tag(number, 1);
          out.fixed(n, 8);
        } else {
          out.tag(number, 0);
          // zigzag for sint; int32's negatives are 10-byte varints, as on the wire.
          out.varint(scalar === "sint32" || scalar === "sint64" ? (n << 1n) ^ (n < 0n ? -1n : 0n) : n);
        }
      }
    }
  }
}

/** Text-format `text` of a message described by `table`, as protobuf binary; throws TextFormatError. */
export function parseTextToBinary(text: string, table: TextMessage, types?: TextTypes): Uint8Array {
  const out = new WireBytes();
  new Parser(new Tokenizer(text), types).message(table, out, undefined, 0);
  return new Uint8Array(out.bytes);
}
