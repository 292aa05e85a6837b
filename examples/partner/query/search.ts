import { QueryError } from "./errors.js";
import { tokenize, TokenStream, type Token } from "./lexer.js";
import type { FieldMeta, ObjectMeta, Schema } from "../schema.js";
import type { RecordStore, StoredRecord } from "../store.js";

/**
 * The search subset: FIND {term} [IN ALL FIELDS] RETURNING Type[(field, ...)] (, Type[(...)])* [LIMIT n].
 * The term matches, case-insensitively, as a substring of any text field; `*` in the term stands for any characters.
 * Without a field list a type returns only Id. Errors are MALFORMED_SEARCH (or INVALID_TYPE / INVALID_FIELD).
 */
export interface SearchHit {
  readonly record: StoredRecord;
  readonly fields: readonly FieldMeta[];
}

const TEXT_TYPES = new Set(["string", "textarea", "email", "phone", "url", "picklist", "combobox"]);

export function runSearch(text: string, schema: Schema, store: RecordStore): SearchHit[] {
  const s = new TokenStream(tokenize(text, "MALFORMED_SEARCH"), "MALFORMED_SEARCH");
  s.expectKeyword("FIND");
  const termToken = s.peek();
  if (termToken.kind !== "braced") throw s.unexpected("expected a search term in braces");
  const term = s.next().text.trim();
  if (term.replace(/\*/g, "").length < 2) throw new QueryError("MALFORMED_SEARCH", "search term must be longer than one character", termToken);
  s.acceptKeyword("IN", "ALL", "FIELDS");
  s.expectKeyword("RETURNING");
  const targets: { object: ObjectMeta; fields: FieldMeta[] }[] = [];
  do {
    const typeToken = s.expectWord("an object type");
    const object = schema.object(typeToken.text);
    if (!object) throw new QueryError("INVALID_TYPE", `sObject type '${typeToken.text}' is not supported`, typeToken);
    const fields: FieldMeta[] = [];
    if (s.acceptPunct("(")) {
      do fields.push(resolve(object, s.expectWord("a field name")));
      while (s.acceptPunct(","));
      s.expectPunct(")");
    }
    targets.push({ object, fields: fields.length > 0 ? fields : [object.byName.get("id")!] });
  } while (s.acceptPunct(","));
  let limit = Infinity;
  if (s.acceptKeyword("LIMIT")) {
    if (s.peek().kind !== "number") throw s.unexpected("expected a number");
    limit = Number(s.next().text);
  }
  if (s.peek().kind !== "end") throw s.unexpected("expected end of search");

  const pattern = new RegExp(term.split("*").map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join(".*"), "i");
  const hits: SearchHit[] = [];
  for (const t of targets) {
    const textFields = t.object.fields.filter((f) => TEXT_TYPES.has(f.type));
    for (const record of store.all(t.object.name)) {
      if (textFields.some((f) => pattern.test(record.fields.get(f.name) ?? ""))) hits.push({ record, fields: t.fields });
    }
  }
  return hits.slice(0, limit);
}

function resolve(object: ObjectMeta, t: Token): FieldMeta {
  const f = object.byName.get(t.text.toLowerCase());
  if (!f) throw new QueryError("INVALID_FIELD", `No such column '${t.text}' on entity '${object.name}'`, t);
  return f;
}
