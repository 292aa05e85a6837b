import type {
  DeleteResult, EmptyRecycleBinResult, Error$, MergeRequest, MergeResult, SaveResult, SObject, StatusCode, UndeleteResult,
  UpsertResult,
} from "../../generated/partner/index.js";
import { apiFault, invalidIdFault } from "./faults.js";
import { isWellFormedId } from "./ids.js";
import type { ObjectMeta } from "./schema.js";
import { fieldsOf, toSObject } from "./sobject.js";
import type { PartnerState } from "./state.js";
import type { StoredRecord } from "./store.js";
import { checkValue, compareLexical, type Lexical } from "./values.js";

/**
 * The record writes and retrieve. Each input record gets its own result; a problem with one record is an error in
 * its result (success false) and never stops the others. Status codes follow the seed: MALFORMED_ID, INVALID_TYPE,
 * INVALID_FIELD, INVALID_FIELD_FOR_INSERT_UPDATE, REQUIRED_FIELD_MISSING, ENTITY_IS_DELETED, DUPLICATE_EXTERNAL_ID, ...
 */
class RecordError extends Error {
  constructor(
    readonly statusCode: StatusCode,
    message: string,
    readonly fields: string[] = [],
  ) {
    super(message);
  }
}

const asError = (e: RecordError): Error$ => ({ statusCode: e.statusCode, message: e.message, fields: e.fields });

/** Run one record's work; a RecordError becomes that record's error list. */
function perRecord<T>(work: () => T, failed: (errors: Error$[]) => T): T {
  try {
    return work();
  } catch (e) {
    if (e instanceof RecordError) return failed([asError(e)]);
    throw e;
  }
}

function objectOf(state: PartnerState, so: SObject): ObjectMeta {
  const meta = state.schema.object(so.type);
  if (!meta) throw new RecordError("INVALID_TYPE", `sObject type '${so.type}' is not supported`);
  return meta;
}

/** A live (not deleted) record by id: MALFORMED_ID, INVALID_CROSS_REFERENCE_KEY or ENTITY_IS_DELETED otherwise. */
function liveRecord(state: PartnerState, id: string, field = "Id"): StoredRecord {
  if (!isWellFormedId(id)) throw new RecordError("MALFORMED_ID", `malformed id ${id}`, [field]);
  const record = state.store.get(id);
  if (!record) throw new RecordError("INVALID_CROSS_REFERENCE_KEY", `invalid cross reference id ${id}`, [field]);
  if (record.deletedAt !== undefined) throw new RecordError("ENTITY_IS_DELETED", "entity is deleted", [field]);
  return record;
}

/**
 * The field values an sObject writes (its field elements and fieldsToNull), checked against the type: unknown
 * fields, fields the operation may not set, values of the wrong type, dangling references.
 */
function valuesToWrite(state: PartnerState, meta: ObjectMeta, so: SObject, mode: "create" | "update"): Map<string, Lexical> {
  const values = new Map<string, Lexical>();
  const set = (name: string, raw: unknown) => {
    const field = meta.byName.get(name.toLowerCase());
    if (!field) throw new RecordError("INVALID_FIELD", `No such column '${name}' on sobject of type ${meta.name}`, [name]);
    if (field.name === "Id") return; // the Id element says which record, it is not a value to write
    if (mode === "create" ? !field.createable : !field.updateable) {
      throw new RecordError("INVALID_FIELD_FOR_INSERT_UPDATE", `Unable to ${mode} field ${field.name}`, [field.name]);
    }
    const checked = checkValue(field, raw);
    if (!checked.ok) throw new RecordError(checked.statusCode, checked.message, [field.name]);
    if (checked.value !== null && field.type === "reference") {
      const target = state.store.get(checked.value);
      const targetType = target ? target.type : undefined;
      if (!target || target.deletedAt !== undefined || (field.referenceTo.length > 0 && !field.referenceTo.includes(targetType!))) {
        throw new RecordError("INVALID_CROSS_REFERENCE_KEY", `invalid cross reference id ${checked.value}`, [field.name]);
      }
    }
    values.set(field.name, checked.value);
  };
  for (const { name, value } of fieldsOf(so)) set(name, value);
  for (const name of so.fieldsToNull ?? []) if (name) set(name, null);
  return values;
}

function requiredMissing(meta: ObjectMeta, has: (field: string) => boolean): void {
  const missing = meta.fields.filter((f) => f.required && !has(f.name)).map((f) => f.name);
  if (missing.length > 0) throw new RecordError("REQUIRED_FIELD_MISSING", `Required fields are missing: [${missing.join(", ")}]`, missing);
}

function createOne(state: PartnerState, so: SObject): StoredRecord {
  const meta = objectOf(state, so);
  if (so.Id !== null && so.Id !== undefined) throw new RecordError("INVALID_FIELD_FOR_INSERT_UPDATE", "cannot specify Id in an insert call", ["Id"]);
  const values = valuesToWrite(state, meta, so, "create");
  requiredMissing(meta, (f) => values.get(f) !== undefined && values.get(f) !== null);
  return state.store.insert(meta, values, state.now());
}

function updateOne(state: PartnerState, so: SObject, values?: Map<string, Lexical>): StoredRecord {
  const meta = objectOf(state, so);
  if (so.Id === null || so.Id === undefined) throw new RecordError("MISSING_ARGUMENT", "Id not specified in an update call", ["Id"]);
  const record = liveRecord(state, so.Id);
  if (record.type !== meta.name) throw new RecordError("MALFORMED_ID", `id ${so.Id} is not a ${meta.name}`, ["Id"]);
  const changes = values ?? valuesToWrite(state, meta, so, "update");
  requiredMissing(meta, (f) => (changes.has(f) ? changes.get(f) !== null : true));
  for (const [k, v] of changes) record.fields.set(k, v);
  state.store.touch(record, state.now());
  return record;
}

export function create(state: PartnerState, sObjects: readonly SObject[]): SaveResult[] {
  return sObjects.map((so) => perRecord<SaveResult>(() => ({ success: true, id: createOne(state, so).id }), (errors) => ({ success: false, id: null, errors })));
}

export function update(state: PartnerState, sObjects: readonly SObject[]): SaveResult[] {
  return sObjects.map((so) => perRecord<SaveResult>(() => ({ success: true, id: updateOne(state, so).id }), (errors) => ({ success: false, id: so.Id ?? null, errors })));
}

/**
 * Upsert by an external-id field (or Id): no match creates, one match updates, several matches are
 * DUPLICATE_EXTERNAL_ID. The field must be an external id of the record's type (INVALID_FIELD otherwise).
 */
export function upsert(state: PartnerState, externalIdField: string, sObjects: readonly SObject[]): UpsertResult[] {
  return sObjects.map((so) =>
    perRecord<UpsertResult>(
      () => {
        const meta = objectOf(state, so);
        const key = meta.byName.get(externalIdField.toLowerCase());
        if (!key || (!key.externalId && key.name !== "Id")) {
          throw new RecordError("INVALID_FIELD", `${externalIdField} is not an external id field of ${meta.name}`, [externalIdField]);
        }
        if (key.name === "Id") {
          if (so.Id) return { success: true, created: false, id: updateOne(state, so).id };
          return { success: true, created: true, id: createOne(state, so).id };
        }
        const values = valuesToWrite(state, meta, so, "create");
        const wanted = values.get(key.name);
        if (wanted === undefined || wanted === null) throw new RecordError("MISSING_ARGUMENT", `${key.name} not specified`, [key.name]);
        const matches = state.store.all(meta.name).filter((r) => compareLexical(key, r.fields.get(key.name) ?? null, wanted) === 0);
        if (matches.length > 1) {
          throw new RecordError("DUPLICATE_EXTERNAL_ID", `${key.name}: more than one record found for external id field: ${matches.map((m) => m.id).join(", ")}`, [key.name]);
        }
        if (matches.length === 0) return { success: true, created: true, id: createOne(state, so).id };
        const target = matches[0]!;
        const updates = valuesToWrite(state, meta, so, "update");
        return { success: true, created: false, id: updateOne(state, { ...so, Id: target.id }, updates).id };
      },
      (errors) => ({ success: false, created: false, id: null, errors }),
    ),
  );
}

export function deleteRecords(state: PartnerState, ids: readonly string[]): DeleteResult[] {
  return ids.map((id) =>
    perRecord<DeleteResult>(
      () => {
        const record = liveRecord(state, id);
        state.store.softDelete(record, state.now());
        return { success: true, id: record.id };
      },
      (errors) => ({ success: false, id, errors }),
    ),
  );
}

/** Restores recycle-bin records; a record that is not deleted is UNDELETE_FAILED. */
export function undelete(state: PartnerState, ids: readonly string[]): UndeleteResult[] {
  return ids.map((id) =>
    perRecord<UndeleteResult>(
      () => {
        if (!isWellFormedId(id)) throw new RecordError("MALFORMED_ID", `malformed id ${id}`);
        const record = state.store.get(id);
        if (!record) throw new RecordError("INVALID_CROSS_REFERENCE_KEY", `invalid cross reference id ${id}`);
        if (record.deletedAt === undefined) throw new RecordError("UNDELETE_FAILED", "Entity is not in the recycle bin");
        state.store.restore(record, state.now());
        return { success: true, id: record.id };
      },
      (errors) => ({ success: false, id, errors }),
    ),
  );
}

/** Purges recycle-bin records for good (getDeleted still reports them); a live record is INVALID_OPERATION. */
export function emptyRecycleBin(state: PartnerState, ids: readonly string[]): EmptyRecycleBinResult[] {
  return ids.map((id) =>
    perRecord<EmptyRecycleBinResult>(
      () => {
        if (!isWellFormedId(id)) throw new RecordError("MALFORMED_ID", `malformed id ${id}`);
        const record = state.store.get(id);
        if (!record) throw new RecordError("INVALID_CROSS_REFERENCE_KEY", `invalid cross reference id ${id}`);
        if (record.deletedAt === undefined) throw new RecordError("INVALID_OPERATION", "Entity is not in the recycle bin");
        state.store.purge(record);
        return { success: true, id: record.id };
      },
      (errors) => ({ success: false, id, errors }),
    ),
  );
}

/**
 * Merge: the master record takes the fields given on it, the other records (same type, at most two) are deleted,
 * and records that referred to them are re-pointed at the master (reported as updatedRelatedIds).
 */
export function merge(state: PartnerState, requests: readonly MergeRequest[]): MergeResult[] {
  return requests.map((req) =>
    perRecord<MergeResult>(
      () => {
        const master = updateOne(state, req.masterRecord);
        if (req.recordToMergeIds.length > 2) throw new RecordError("LIMIT_EXCEEDED", "at most two records can be merged into a master");
        const merged = req.recordToMergeIds.map((id) => {
          const r = liveRecord(state, id, "recordToMergeIds");
          if (r.type !== master.type) throw new RecordError("INVALID_TYPE", `${id} is not a ${master.type}`);
          if (r.id === master.id) throw new RecordError("MERGE_FAILED", "cannot merge a record with itself");
          return r;
        });
        const related = new Set<string>();
        for (const object of state.schema.objects) {
          const refs = object.fields.filter((f) => f.type === "reference" && (f.referenceTo.length === 0 || f.referenceTo.includes(master.type)));
          for (const record of state.store.all(object.name)) {
            for (const f of refs) {
              const v = record.fields.get(f.name);
              if (v && merged.some((m) => m.id.slice(0, 15) === v.slice(0, 15))) {
                record.fields.set(f.name, master.id);
                state.store.touch(record, state.now());
                related.add(record.id);
              }
            }
          }
        }
        for (const r of merged) state.store.softDelete(r, state.now());
        return { success: true, id: master.id, mergedRecordIds: merged.map((r) => r.id), updatedRelatedIds: [...related] };
      },
      (errors) => ({ success: false, id: req.masterRecord.Id ?? null, errors }),
    ),
  );
}

/**
 * retrieve: the listed fields of the listed records, nil for an id with no live record. An unknown type or field is
 * a call-level fault (INVALID_TYPE / INVALID_FIELD), a malformed id an InvalidIdFault.
 */
export function retrieve(state: PartnerState, fieldList: string, type: string, ids: readonly string[]): (SObject | null)[] {
  const meta = state.schema.object(type);
  if (!meta) throw apiFault("INVALID_TYPE", `sObject type '${type}' is not supported`);
  const fields = fieldList.split(",").map((n) => n.trim()).filter((n) => n !== "").map((n) => {
    const f = meta.byName.get(n.toLowerCase());
    if (!f) throw apiFault("INVALID_FIELD", `No such column '${n}' on entity '${meta.name}'`);
    return f;
  });
  if (fields.length === 0) throw apiFault("MISSING_ARGUMENT", "fieldList is empty");
  return ids.map((id) => {
    if (!isWellFormedId(id)) throw invalidIdFault("MALFORMED_ID", `malformed id ${id}`);
    const record = state.store.get(id);
    return record && record.deletedAt === undefined && record.type === meta.name ? toSObject(record, fields) : null;
  });
}
