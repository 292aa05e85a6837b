import type { Field, IrDocument, RecordType, TypeId } from "../../ir/model.js";

/**
 * A feed page: a message with a `next_request_url` string field and exactly one repeated message field, the items
 * (content.proto's Response: `next_request_url` + `repeated Entry entry`). Paging follows next_request_url.
 */
export interface FeedPage {
  readonly page: RecordType;
  readonly next: Field;
  readonly items: Field;
  readonly itemType: TypeId;
}

const NEXT_FIELD = "next_request_url";

function isRepeatedMessage(field: Field, doc: IrDocument): boolean {
  if (field.occurs.max !== "unbounded" && field.occurs.max <= 1) return false;
  if (field.type.kind !== "ref") return false;
  const id = field.type.id;
  return doc.types.some((t) => t.id === id && t.kind === "record");
}

/** Every page message of a proto document, in declaration order. Only top-level fields count (not oneof members). */
export function findFeedPages(doc: IrDocument): FeedPage[] {
  if (doc.format !== "proto") return [];
  const pages: FeedPage[] = [];
  for (const t of doc.types) {
    if (t.kind !== "record") continue;
    const fields = t.members.filter((m): m is Field => m.kind === "field");
    const next = fields.find((f) => f.name === NEXT_FIELD && f.type.kind === "scalar" && f.type.scalar === "string" && f.occurs.max === 1);
    const repeated = fields.filter((f) => isRepeatedMessage(f, doc));
    if (next === undefined || repeated.length !== 1) continue;
    const items = repeated[0]!;
    pages.push({ page: t, next, items, itemType: (items.type as { id: TypeId }).id });
  }
  return pages;
}
