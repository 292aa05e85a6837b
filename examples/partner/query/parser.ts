import type { CompareOp, Condition, Literal, OrderItem, SelectQuery } from "./ast.js";
import { QueryError } from "./errors.js";
import { tokenize, TokenStream } from "./lexer.js";

/**
 * Recursive-descent parser for the query subset:
 *
 *   SELECT field (, field)* FROM type
 *     [WHERE condition]  -- =, !=, <>, <, <=, >, >=, LIKE, IN (...), NOT IN (...), AND, OR, NOT, parentheses
 *     [ORDER BY field [ASC|DESC] [NULLS FIRST|LAST] (, ...)*]
 *     [LIMIT n]
 *
 * AND binds tighter than OR. Anything else is MALFORMED_QUERY with the row and column of the offending token.
 */
export function parseQuery(text: string): SelectQuery {
  const s = new TokenStream(tokenize(text));
  s.expectKeyword("SELECT");
  const fields = [s.expectWord("a field name")];
  while (s.acceptPunct(",")) fields.push(s.expectWord("a field name"));
  s.expectKeyword("FROM");
  const from = s.expectWord("an object type");
  const where = s.acceptKeyword("WHERE") ? parseOr(s) : undefined;
  const orderBy: OrderItem[] = [];
  if (s.acceptKeyword("ORDER", "BY")) {
    do {
      const field = s.expectWord("a field name");
      const descending = s.acceptKeyword("DESC") ? true : (s.acceptKeyword("ASC"), false);
      let nullsLast = descending;
      if (s.acceptKeyword("NULLS", "FIRST")) nullsLast = false;
      else if (s.acceptKeyword("NULLS", "LAST")) nullsLast = true;
      orderBy.push({ field, descending, nullsLast });
    } while (s.acceptPunct(","));
  }
  let limit: number | undefined;
  if (s.acceptKeyword("LIMIT")) {
    const t = s.peek();
    if (t.kind !== "number" || !/^\d+$/.test(t.text)) throw s.unexpected("expected a non-negative integer");
    limit = Number(s.next().text);
  }
  if (s.peek().kind !== "end") throw s.unexpected("expected end of query");
  return { fields, from, ...(where ? { where } : {}), orderBy, ...(limit !== undefined ? { limit } : {}) };
}

function parseOr(s: TokenStream): Condition {
  let left = parseAnd(s);
  while (s.acceptKeyword("OR")) left = { kind: "or", left, right: parseAnd(s) };
  return left;
}

function parseAnd(s: TokenStream): Condition {
  let left = parseUnary(s);
  while (s.acceptKeyword("AND")) left = { kind: "and", left, right: parseUnary(s) };
  return left;
}

function parseUnary(s: TokenStream): Condition {
  if (s.acceptKeyword("NOT")) return { kind: "not", of: parseUnary(s) };
  if (s.acceptPunct("(")) {
    const inner = parseOr(s);
    s.expectPunct(")");
    return inner;
  }
  const field = s.expectWord("a field name");
  if (s.acceptKeyword("LIKE")) {
    const t = s.peek();
    if (t.kind !== "string") throw s.unexpected("expected a quoted pattern");
    return { kind: "like", field, pattern: s.next().text };
  }
  const negated = s.acceptKeyword("NOT", "IN");
  if (negated || s.acceptKeyword("IN")) {
    s.expectPunct("(");
    const values = [parseLiteral(s)];
    while (s.acceptPunct(",")) values.push(parseLiteral(s));
    s.expectPunct(")");
    return { kind: "in", field, values, negated };
  }
  const opToken = s.peek();
  const ops: Record<string, CompareOp> = { "=": "=", "!=": "!=", "<>": "!=", "<": "<", "<=": "<=", ">": ">", ">=": ">=" };
  const op = opToken.kind === "punct" ? ops[opToken.text] : undefined;
  if (!op) throw s.unexpected("expected an operator");
  s.next();
  return { kind: "compare", field, op, value: parseLiteral(s) };
}

function parseLiteral(s: TokenStream): Literal {
  const token = s.peek();
  if (token.kind === "string") return { kind: "string", value: s.next().text, token };
  if (token.kind === "number") return { kind: "number", value: Number(s.next().text), token };
  if (token.kind === "word") {
    const upper = token.text.toUpperCase();
    if (upper === "TRUE" || upper === "FALSE") return { kind: "boolean", value: (s.next(), upper === "TRUE"), token };
    if (upper === "NULL") return (s.next(), { kind: "null", token });
    if (/^\d{4}-\d{2}-\d{2}/.test(token.text)) return { kind: "date", value: s.next().text, token };
  }
  throw s.unexpected("expected a value");
}

export { QueryError };
