import { stringLiteral } from "../../codegen/escape.js";
import type { ScalarKind, TypeExpr } from "../../ir/model.js";
import { isDateRef, lookupType, type TypesContext } from "./context.js";

const INT64: ReadonlySet<ScalarKind> = new Set(["int64", "uint64", "sint64", "fixed64", "sfixed64"]);
const NUMBER: ReadonlySet<ScalarKind> = new Set(["int32", "uint32", "sint32", "fixed32", "sfixed32", "float", "double"]);

export function scalarTs(scalar: ScalarKind, ctx: TypesContext): string {
  if (INT64.has(scalar)) return ctx.options.int64;
  if (NUMBER.has(scalar)) return "number";
  switch (scalar) {
    case "boolean":
      return "boolean";
    case "integer":
      return "bigint";
    case "bytes":
      return "Uint8Array";
    case "any":
      return "unknown";
    case "dateTime":
      return ctx.options.dates === "Date" ? "Date" : "string";
    default:
      // string, decimal (exact), date/time lexical forms, anyURI, QName
      return "string";
  }
}

/** The TypeScript type for an IR type expression. A reference to a record with subtypes means the whole family. */
export function typeExprTs(t: TypeExpr, ctx: TypesContext): string {
  switch (t.kind) {
    case "scalar":
      return scalarTs(t.scalar, ctx);
    case "ref": {
      if (isDateRef(t.id, ctx.options.dates)) return "Date";
      lookupType(ctx, t.id);
      return ctx.names.family(t.id) ?? ctx.names.type(t.id);
    }
    case "list":
      return `${parenthesize(typeExprTs(t.of, ctx))}[]`;
    case "map": {
      const key = t.key.kind === "scalar" && NUMBER.has(t.key.scalar) ? "number" : "string";
      return `{ [key: ${key}]: ${typeExprTs(t.value, ctx)} }`;
    }
    case "union":
      return unionOf(t.of.map((m) => typeExprTs(m, ctx)));
    case "literal":
      return literalTs(t.value);
  }
}

export function literalTs(value: string | number | boolean | null): string {
  return typeof value === "string" ? stringLiteral(value) : String(value);
}

/** Deduplicated union, in first-seen order. */
export function unionOf(members: readonly string[]): string {
  const unique = [...new Set(members)];
  if (unique.includes("unknown")) return "unknown";
  return unique.map((m) => (m.includes("=>") ? `(${m})` : m)).join(" | ");
}

/** Wrap a type in parentheses when suffixing `[]` would otherwise bind to part of it. */
export function parenthesize(ts: string): string {
  return /^[\w$."]+$/u.test(ts) || /^\{.*\}$/s.test(ts) && !ts.includes("|") ? ts : `(${ts})`;
}
