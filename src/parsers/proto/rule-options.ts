/**
 * Validation options (protovalidate `buf.validate.*`, protoc-gen-validate `validate.*`) lowered into structured IR:
 * the option name split into extension and sub-field path, the value parsed as protobuf text format when it is an
 * aggregate (`{ min_len: 3, in: ["a", "b"] }`). Only these options are parsed; other aggregates stay text.
 */
import { SpecError } from "../../errors.js";
import type { ProtoOptionEntry, ProtoOptionValue, ProtoRuleOption } from "../../ir/model.js";
import type { OptionDecl, Pos } from "./ast.js";
import { tokenize, type Token } from "./tokenizer.js";

/** Deeper aggregates are refused (validate.proto's rules nest a few levels; this bounds the parser's recursion). */
const MAX_NESTING = 64;

/** The extensions whose options the validators read. */
export const RULE_EXTENSIONS: ReadonlySet<string> = new Set([
  "buf.validate.field",
  "buf.validate.message",
  "buf.validate.oneof",
  "buf.validate.predefined",
  "validate.rules",
  "validate.disabled",
  "validate.ignored",
  "validate.required",
]);

/** The method option HTTP/JSON transcoding reads (google/api/annotations.proto). */
export const HTTP_EXTENSIONS: ReadonlySet<string> = new Set(["google.api.http"]);

/**
 * The validation options among `options`, in order. Errors name `file` as the user sees it; the IR keeps
 * `originFile` (the entry-relative origin path).
 */
export function ruleOptions(
  options: readonly OptionDecl[],
  file: string,
  originFile: string,
  extensions: ReadonlySet<string> = RULE_EXTENSIONS,
): ProtoRuleOption[] {
  const out: ProtoRuleOption[] = [];
  for (const o of options) {
    if (!o.name.startsWith("(")) continue;
    const close = o.name.indexOf(")");
    const extension = o.name.slice(1, close).replace(/^\./, "");
    if (!extensions.has(extension)) continue;
    const rest = o.name.slice(close + 1);
    const path = rest === "" ? [] : splitPath(rest.slice(1));
    out.push({ extension, path, value: optionValue(o, file), file: originFile, line: o.valuePos.line, column: o.valuePos.column });
  }
  return out;
}

/** "string.min_len" -> ["string", "min_len"]; "(ext.name).x" keeps "(ext.name)" as one segment. */
function splitPath(text: string): string[] {
  const parts: string[] = [];
  let i = 0;
  while (i < text.length) {
    if (text[i] === "(") {
      const end = text.indexOf(")", i);
      parts.push(text.slice(i, end + 1));
      i = end + 2;
    } else {
      const dot = text.indexOf(".", i);
      const end = dot < 0 ? text.length : dot;
      parts.push(text.slice(i, end));
      i = end + 1;
    }
  }
  return parts;
}

function optionValue(o: OptionDecl, file: string): ProtoOptionValue {
  const v = o.value;
  switch (v.kind) {
    case "ident":
      return { kind: "ident", text: v.text };
    case "int":
    case "float":
      return { kind: "number", text: v.text };
    case "string":
      return { kind: "string", value: v.value, bytes: v.bytes };
    case "aggregate":
      return parseTextFormat(v.text, file, o.valuePos);
  }
}

/** A text-format message literal `{ ... }` written at `at` (positions in errors and entries are absolute). */
export function parseTextFormat(text: string, file: string, at: Pos): ProtoOptionValue {
  const located = (t: { line: number; column: number }) => ({
    line: at.line + t.line - 1,
    column: t.line === 1 ? at.column + t.column - 1 : t.column,
  });
  let tokens: Token[];
  try {
    tokens = tokenize(text, file);
  } catch (e) {
    if (e instanceof SpecError) {
      const p = located(e);
      throw new SpecError(file, p.line, p.column, e.detail);
    }
    throw e;
  }
  let i = 0;
  const peek = () => tokens[i]!;
  const fail = (t: Token, message: string): never => {
    const p = located(t);
    throw new SpecError(file, p.line, p.column, message);
  };
  const is = (s: string) => peek().kind === "symbol" && peek().text === s;
  const take = (s: string) => {
    if (!is(s)) fail(peek(), `expected "${s}" in the option value, found ${peek().kind === "eof" ? "the end" : `"${peek().text}"`}`);
    return tokens[i++]!;
  };

  let depth = 0;
  const message = (close: string): ProtoOptionValue => {
    if (++depth > MAX_NESTING) fail(peek(), `option value nested deeper than ${MAX_NESTING}`);
    const fields: ProtoOptionEntry[] = [];
    while (!is(close)) {
      const t = peek();
      let name: string;
      if (is("[")) {
        i++;
        const parts: string[] = [];
        do parts.push(identText()); while (is(".") && (i++, true));
        take("]");
        name = `(${parts.join(".")})`;
      } else name = identText();
      const colon = is(":");
      if (colon) i++;
      const value = fieldValue(colon);
      fields.push({ name, value, ...located(t) });
      if (is(",") || is(";")) i++;
    }
    i++;
    depth--;
    return { kind: "message", fields };
  };
  const identText = (): string => {
    const t = peek();
    if (t.kind !== "ident") fail(t, `expected a field name in the option value, found "${t.text}"`);
    i++;
    return t.text;
  };
  const fieldValue = (colon: boolean): ProtoOptionValue => {
    if (is("{")) return (i++, message("}"));
    if (is("<")) return (i++, message(">"));
    if (!colon) fail(peek(), `expected ":" in the option value`);
    if (is("[")) {
      i++;
      const items: ProtoOptionValue[] = [];
      while (!is("]")) {
        items.push(is("{") || is("<") ? fieldValue(false) : scalar());
        if (is(",")) i++;
        else if (!is("]")) fail(peek(), `expected "," or "]" in the option value`);
      }
      i++;
      return { kind: "list", items };
    }
    return scalar();
  };
  const scalar = (): ProtoOptionValue => {
    const t = peek();
    if (t.kind === "string") {
      let value = "";
      let bytes = "";
      while (peek().kind === "string") {
        value += peek().value;
        bytes += peek().latin1 ?? "";
        i++;
      }
      return { kind: "string", value, bytes };
    }
    let sign = "";
    if (is("-")) {
      sign = "-";
      i++;
    }
    const v = peek();
    if (v.kind === "int" || v.kind === "float") {
      i++;
      return { kind: "number", text: sign + v.text };
    }
    if (v.kind === "ident") {
      i++;
      if (sign) {
        if (!/^(inf|infinity|nan)$/i.test(v.text)) fail(v, `expected a number after "-" in the option value`);
        return { kind: "number", text: "-" + v.text };
      }
      return { kind: "ident", text: v.text };
    }
    return fail(v, "expected a value in the option value");
  };

  take("{");
  const value = message("}");
  if (peek().kind !== "eof") fail(peek(), "unexpected text after the option value");
  return value;
}
