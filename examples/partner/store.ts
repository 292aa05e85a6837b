import { makeId, sameId } from "./ids.js";
import type { Lexical } from "./values.js";
import type { ObjectMeta } from "./schema.js";

/** One record: its type, its field values by canonical field name (system fields included), and deletion state. */
export interface StoredRecord {
  readonly id: string;
  readonly type: string;
  readonly fields: Map<string, Lexical>;
  /** Set while the record is in the recycle bin. */
  deletedAt?: string;
}

/** A deletion as getDeleted reports it; kept after the record is purged from the recycle bin. */
export interface DeletionEntry {
  readonly id: string;
  readonly type: string;
  readonly deletedDate: string;
}

/** The in-memory record store. Ids are compared on their first 15 characters, as the service does. */
export class RecordStore {
  private readonly records = new Map<string, StoredRecord>();
  private readonly counters = new Map<string, number>();
  readonly deletions: DeletionEntry[] = [];

  newId(meta: ObjectMeta): string {
    const n = (this.counters.get(meta.keyPrefix) ?? 0) + 1;
    this.counters.set(meta.keyPrefix, n);
    return makeId(meta.keyPrefix, n);
  }

  insert(meta: ObjectMeta, values: ReadonlyMap<string, Lexical>, now: string, id = this.newId(meta)): StoredRecord {
    const fields = new Map<string, Lexical>(values);
    fields.set("Id", id);
    fields.set("IsDeleted", "false");
    fields.set("CreatedDate", now);
    fields.set("LastModifiedDate", now);
    const record: StoredRecord = { id, type: meta.name, fields };
    this.records.set(id.slice(0, 15), record);
    return record;
  }

  get(id: string): StoredRecord | undefined {
    const r = this.records.get(id.slice(0, 15));
    return r && sameId(r.id, id) ? r : undefined;
  }

  /** Records of a type in insertion order; recycle-bin records only when asked (queryAll). */
  all(type: string, includeDeleted = false): StoredRecord[] {
    return [...this.records.values()].filter((r) => r.type === type && (includeDeleted || r.deletedAt === undefined));
  }

  touch(record: StoredRecord, now: string): void {
    record.fields.set("LastModifiedDate", now);
  }

  softDelete(record: StoredRecord, now: string): void {
    record.deletedAt = now;
    record.fields.set("IsDeleted", "true");
    record.fields.set("LastModifiedDate", now);
    this.deletions.push({ id: record.id, type: record.type, deletedDate: now });
  }

  restore(record: StoredRecord, now: string): void {
    delete record.deletedAt;
    record.fields.set("IsDeleted", "false");
    record.fields.set("LastModifiedDate", now);
    const i = this.deletions.findIndex((d) => sameId(d.id, record.id));
    if (i >= 0) this.deletions.splice(i, 1);
  }

  /** Remove a recycle-bin record for good; its deletion stays visible to getDeleted. */
  purge(record: StoredRecord): void {
    this.records.delete(record.id.slice(0, 15));
  }
}
