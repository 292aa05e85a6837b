import type { PartnerServiceHandlers, QueryOptions, SessionHeader } from "../../generated/partner/index.js";
import { describeGlobal, describeLayout, describeSObject, describeSoftphoneLayout, describeTabs } from "./describe.js";
import { sendEmail } from "./email.js";
import { apiFault, invalidQueryLocatorFault, queryFault } from "./faults.js";
import { convertLead } from "./lead-convert.js";
import { processActions } from "./approval.js";
import { DEFAULT_BATCH_SIZE, MAX_BATCH_SIZE } from "./query/cursors.js";
import { QueryError } from "./query/errors.js";
import { executeQuery } from "./query/execute.js";
import { parseQuery } from "./query/parser.js";
import { runSearch } from "./query/search.js";
import * as records from "./records.js";
import { getDeleted, getUpdated } from "./replication.js";
import * as sessions from "./session.js";
import { toSObject } from "./sobject.js";
import type { PartnerState } from "./state.js";

/** A list the schema says has at least one item (the request's own list had one, results map one to one). */
function nonEmpty<T>(items: T[]): [T, ...T[]] {
  if (items.length === 0) throw apiFault("MISSING_ARGUMENT", "at least one id is required");
  return items as [T, ...T[]];
}

/** QueryOptions.batchSize: 1..2000 (larger is capped), default from the fixture or 500. */
function batchSize(state: PartnerState, options: QueryOptions | undefined): number {
  const asked = options?.batchSize;
  if (asked === undefined) return state.fixture.limits?.defaultBatchSize ?? DEFAULT_BATCH_SIZE;
  if (asked < 1) throw apiFault("INVALID_BATCH_SIZE", `invalid batch size: ${asked}`);
  return Math.min(asked, MAX_BATCH_SIZE);
}

/** DebuggingHeader asks for a log: answer with a DebuggingInfo response header describing the call. */
function debugLog(
  ctx: { headers: { DebuggingHeader?: { debugLevel: string } }; operation: string; setResponseHeader(name: "DebuggingInfo", value: { debugLog: string }): void },
  results: readonly { success: boolean }[],
): void {
  const level = ctx.headers.DebuggingHeader?.debugLevel;
  if (level === undefined || level === "None") return;
  const failed = results.filter((r) => !r.success).length;
  ctx.setResponseHeader("DebuggingInfo", { debugLog: `${ctx.operation}: ${results.length} record(s), ${failed} failed (level ${level})` });
}

function withQueryFaults<T>(run: () => T): T {
  try {
    return run();
  } catch (e) {
    if (e instanceof QueryError) throw queryFault(e);
    throw e;
  }
}

/** The emulator's handlers: each checks the session, then delegates to the module that owns the behaviour. */
export function partnerHandlers(state: PartnerState): PartnerServiceHandlers {
  const auth = (headers: { SessionHeader?: SessionHeader }, operation: string) => sessions.requireSession(state, headers.SessionHeader, operation);
  const query = (queryString: string, sessionId: string, options: QueryOptions | undefined, includeDeleted: boolean) =>
    withQueryFaults(() => {
      const rows = executeQuery(parseQuery(queryString), state.schema, state.store, includeDeleted);
      return { result: state.cursors.first(rows, sessionId, batchSize(state, options)) };
    });

  return {
    login: (input, ctx) => ({ result: sessions.login(state, input.username, input.password, ctx.request.url) }),
    logout: (_input, ctx) => {
      sessions.logout(state, auth(ctx.headers, ctx.operation).session);
      return {};
    },
    invalidateSessions: (input, ctx) => {
      auth(ctx.headers, ctx.operation);
      return { result: sessions.invalidateSessions(state, input.sessionIds ?? []) };
    },
    getUserInfo: (_input, ctx) => ({ result: sessions.getUserInfo(state, auth(ctx.headers, ctx.operation).user, ctx.request.url) }),
    getServerTimestamp: (_input, ctx) => {
      auth(ctx.headers, ctx.operation);
      return { result: sessions.getServerTimestamp(state) };
    },
    setPassword: (input, ctx) => {
      auth(ctx.headers, ctx.operation);
      sessions.setPassword(state, input.userId, input.password);
      return { result: {} };
    },
    resetPassword: (input, ctx) => {
      auth(ctx.headers, ctx.operation);
      return { result: sessions.resetPassword(state, input.userId) };
    },
    create: (input, ctx) => {
      auth(ctx.headers, ctx.operation);
      const result = records.create(state, input.sObjects ?? []);
      debugLog(ctx, result);
      return { result };
    },
    update: (input, ctx) => {
      auth(ctx.headers, ctx.operation);
      const result = records.update(state, input.sObjects ?? []);
      debugLog(ctx, result);
      return { result };
    },
    upsert: (input, ctx) => {
      auth(ctx.headers, ctx.operation);
      const result = records.upsert(state, input.externalIDFieldName, input.sObjects ?? []);
      debugLog(ctx, result);
      return { result };
    },
    merge: (input, ctx) => {
      auth(ctx.headers, ctx.operation);
      return { result: records.merge(state, input.request ?? []) };
    },
    delete: (input, ctx) => {
      auth(ctx.headers, ctx.operation);
      const result = records.deleteRecords(state, input.ids ?? []);
      debugLog(ctx, result);
      return { result };
    },
    undelete: (input, ctx) => {
      auth(ctx.headers, ctx.operation);
      return { result: nonEmpty(records.undelete(state, input.ids)) };
    },
    emptyRecycleBin: (input, ctx) => {
      auth(ctx.headers, ctx.operation);
      return { result: nonEmpty(records.emptyRecycleBin(state, input.ids)) };
    },
    retrieve: (input, ctx) => {
      auth(ctx.headers, ctx.operation);
      return { result: records.retrieve(state, input.fieldList, input.sObjectType, input.ids ?? []) };
    },
    query: (input, ctx) => query(input.queryString, auth(ctx.headers, ctx.operation).session.id, ctx.headers.QueryOptions, false),
    queryAll: (input, ctx) => query(input.queryString, auth(ctx.headers, ctx.operation).session.id, ctx.headers.QueryOptions, true),
    queryMore: (input, ctx) => {
      const { session } = auth(ctx.headers, ctx.operation);
      const page = state.cursors.more(input.queryLocator, session.id, batchSize(state, ctx.headers.QueryOptions));
      if (!page) throw invalidQueryLocatorFault(`invalid query locator: ${input.queryLocator}`);
      return { result: page };
    },
    search: (input, ctx) => {
      auth(ctx.headers, ctx.operation);
      const hits = withQueryFaults(() => runSearch(input.searchString, state.schema, state.store));
      return { result: { searchRecords: hits.map((h) => ({ record: toSObject(h.record, h.fields) })) } };
    },
    getUpdated: (input, ctx) => {
      auth(ctx.headers, ctx.operation);
      return { result: getUpdated(state, input.sObjectType, input.startDate, input.endDate) };
    },
    getDeleted: (input, ctx) => {
      auth(ctx.headers, ctx.operation);
      return { result: getDeleted(state, input.sObjectType, input.startDate, input.endDate) };
    },
    convertLead: (input, ctx) => {
      auth(ctx.headers, ctx.operation);
      return { result: convertLead(state, input.leadConverts ?? []) };
    },
    process: (input, ctx) => ({ result: processActions(state, auth(ctx.headers, ctx.operation).user, input.actions ?? []) }),
    sendEmail: (input, ctx) => ({ result: sendEmail(state, auth(ctx.headers, ctx.operation).user, input.messages ?? []) }),
    describeSObject: (input, ctx) => {
      auth(ctx.headers, ctx.operation);
      return { result: describeSObject(state, input.sObjectType) };
    },
    describeSObjects: (input, ctx) => {
      auth(ctx.headers, ctx.operation);
      return { result: (input.sObjectType ?? []).map((t) => describeSObject(state, t)) };
    },
    describeGlobal: (_input, ctx) => {
      auth(ctx.headers, ctx.operation);
      return { result: describeGlobal(state) };
    },
    describeLayout: (input, ctx) => {
      auth(ctx.headers, ctx.operation);
      return { result: describeLayout(state, input.sObjectType) };
    },
    describeSoftphoneLayout: (_input, ctx) => {
      auth(ctx.headers, ctx.operation);
      return { result: describeSoftphoneLayout(state) };
    },
    describeTabs: (_input, ctx) => {
      auth(ctx.headers, ctx.operation);
      return { result: describeTabs(state) };
    },
  };
}
