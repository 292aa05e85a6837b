import type { GetDeletedResult, GetUpdatedResult } from "../../generated/partner/index.js";
import { apiFault } from "./faults.js";
import type { PartnerState } from "./state.js";

/**
 * getUpdated / getDeleted over [startDate, endDate]: the window must be ordered and may not end in the future
 * (its end is clamped to now, which is what latestDateCovered reports). Records changed before the emulator
 * started are not replicated: earliestDateAvailable is the start-up time.
 */
function window(state: PartnerState, type: string, start: string, end: string) {
  const meta = state.schema.object(type);
  if (!meta) throw apiFault("INVALID_TYPE", `sObject type '${type}' is not supported`);
  const from = Date.parse(start);
  const to = Math.min(Date.parse(end), state.nowMs());
  if (Number.isNaN(from) || Number.isNaN(to) || from >= Date.parse(end)) {
    throw apiFault("INVALID_REPLICATION_DATE", "startDate must be before endDate");
  }
  return { meta, from, to, latest: new Date(to).toISOString() };
}

export function getUpdated(state: PartnerState, type: string, start: string, end: string): GetUpdatedResult {
  const w = window(state, type, start, end);
  const ids = state.store
    .all(w.meta.name)
    .filter((r) => {
      const t = Date.parse(r.fields.get("LastModifiedDate") ?? "");
      return t >= w.from && t <= w.to;
    })
    .map((r) => r.id);
  return { ids, latestDateCovered: w.latest };
}

export function getDeleted(state: PartnerState, type: string, start: string, end: string): GetDeletedResult {
  const w = window(state, type, start, end);
  const deletedRecords = state.store.deletions
    .filter((d) => d.type === w.meta.name && Date.parse(d.deletedDate) >= w.from && Date.parse(d.deletedDate) <= w.to)
    .map((d) => ({ id: d.id, deletedDate: d.deletedDate }));
  return { deletedRecords, earliestDateAvailable: state.startedAt, latestDateCovered: w.latest };
}
