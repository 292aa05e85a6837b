import type { Condition, Literal, SelectQuery } from "./ast.js";
import { QueryError } from "./errors.js";
import type { Token } from "./lexer.js";
import type { FieldMeta, ObjectMeta, Schema } from "../schema.js";
import type { RecordStore, StoredRecord } from "../store.js";
import { checkValue, compareLexical, type Lexical } from "../values.js";

/** The rows of a query, before paging: the selected fields (in SELECT order) of every matching record. */
export interface QueryRows {
  readonly object: ObjectMeta;
  readonly fields: readonly FieldMeta[];
  readonly records: readonly StoredRecord[];
}

/**
 * Run a parsed query: resolve the type and every field against the schema (INVALID_TYPE / INVALID_FIELD at the
 * token's row and column), then filter, sort and limit. queryAll passes includeDeleted to see the recycle bin.
 */
export function executeQuery(q: SelectQuery, schema: Schema, store: RecordStore, includeDeleted: boolean): QueryRows {
  const object = schema.object(q.from.text);
  if (!object) throw new QueryError("INVALID_TYPE", `sObject type '${q.from.text}' is not supported`, q.from);
  const field = (t: Token) => resolveField(object, t);
  const fields = q.fields.map(field);
  const seen = new Set<string>();
  for (const [i, f] of fields.entries()) {
    if (seen.has(f.name)) throw new QueryError("MALFORMED_QUERY", `duplicate field selected: ${f.name}`, q.fields[i]!);
    seen.add(f.name);
  }
  const matches = q.where ? compileCondition(q.where, object) : () => true;
  const order = q.orderBy.map((o) => ({ ...o, meta: field(o.field) }));
  let records = store.all(object.name, includeDeleted).filter(matches);
  if (order.length > 0) {
    records = [...records].sort((a, b) => {
      for (const o of order) {
        const va = a.fields.get(o.meta.name) ?? null;
        const vb = b.fields.get(o.meta.name) ?? null;
        if (va === null || vb === null) {
          if (va === vb) continue;
          return (va === null) === o.nullsLast ? 1 : -1;
        }
        const c = compareLexical(o.meta, va, vb);
        if (c !== 0) return o.descending ? -c : c;
      }
      return 0;
    });
  }
  if (q.limit !== undefined) records = records.slice(0, q.limit);
  return { object, fields, records };
}

function resolveField(object: ObjectMeta, t: Token): FieldMeta {
  const f = object.byName.get(t.text.toLowerCase());
  if (!f) {
    const why = t.text.includes(".") ? "relationship fields are not supported by the emulator" : `No such column '${t.text}' on entity '${object.name}'`;
    throw new QueryError("INVALID_FIELD", why, t);
  }
  return f;
}

type Predicate = (r: StoredRecord) => boolean;

function compileCondition(c: Condition, object: ObjectMeta): Predicate {
  switch (c.kind) {
    case "and": {
      const l = compileCondition(c.left, object);
      const r = compileCondition(c.right, object);
      return (rec) => l(rec) && r(rec);
    }
    case "or": {
      const l = compileCondition(c.left, object);
      const r = compileCondition(c.right, object);
      return (rec) => l(rec) || r(rec);
    }
    case "not": {
      const inner = compileCondition(c.of, object);
      return (rec) => !inner(rec);
    }
    case "like": {
      const f = resolveField(object, c.field);
      const re = likePattern(c.pattern);
      return (rec) => {
        const v = rec.fields.get(f.name) ?? null;
        return v !== null && re.test(v);
      };
    }
    case "in": {
      const f = resolveField(object, c.field);
      const values = c.values.map((v) => literalValue(f, v));
      return (rec) => {
        const v = rec.fields.get(f.name) ?? null;
        const found = values.some((x) => (x === null ? v === null : v !== null && compareLexical(f, v, x) === 0));
        return c.negated ? !found : found;
      };
    }
    case "compare": {
      const f = resolveField(object, c.field);
      const x = literalValue(f, c.value);
      if (x === null && c.op !== "=" && c.op !== "!=") throw new QueryError("MALFORMED_QUERY", "null can only be compared with = or !=", c.value.token);
      return (rec) => {
        const v = rec.fields.get(f.name) ?? null;
        if (x === null || v === null) return c.op === "=" ? v === x : c.op === "!=" ? v !== x : false;
        const d = compareLexical(f, v, x);
        switch (c.op) {
          case "=": return d === 0;
          case "!=": return d !== 0;
          case "<": return d < 0;
          case "<=": return d <= 0;
          case ">": return d > 0;
          case ">=": return d >= 0;
        }
      };
    }
  }
}

/** A literal in the stored lexical form of the field it is compared with; a literal of the wrong kind is INVALID_FIELD. */
function literalValue(f: FieldMeta, lit: Literal): Lexical {
  if (lit.kind === "null") return null;
  const numeric = ["int", "double", "currency", "percent"].includes(f.type);
  const dated = f.type === "date" || f.type === "datetime";
  const wants = numeric ? "number" : f.type === "boolean" ? "boolean" : dated ? "date" : "string";
  if (lit.kind !== wants) {
    throw new QueryError("INVALID_FIELD", `value of filter criterion for field '${f.name}' must be of type ${f.type}`, lit.token);
  }
  if (f.type === "id" || f.type === "reference") return String(lit.value);
  const checked = checkValue({ ...f, length: 0, picklistValues: [] }, lit.value);
  if (!checked.ok) throw new QueryError("INVALID_FIELD", checked.message, lit.token);
  return checked.value;
}

/** LIKE: % is any run of characters, _ is one character; case-insensitive. */
function likePattern(pattern: string): RegExp {
  const body = [...pattern].map((ch) => (ch === "%" ? ".*" : ch === "_" ? "." : ch.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))).join("");
  return new RegExp(`^${body}$`, "is");
}
