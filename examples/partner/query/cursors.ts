import type { QueryResult } from "../../../generated/partner/index.js";
import { toSObject } from "../sobject.js";
import type { QueryRows } from "./execute.js";

/** The default and largest QueryOptions.batchSize the emulator uses. */
export const DEFAULT_BATCH_SIZE = 500;
export const MAX_BATCH_SIZE = 2000;

interface Cursor {
  readonly sessionId: string;
  readonly rows: QueryRows;
}

/**
 * Open query cursors. A result with more rows than the batch size carries a locator "<cursor>-<offset>" that
 * queryMore takes; the rows are a snapshot taken when the query ran. A cursor belongs to the session that opened it
 * and is dropped once its last page is served (then its locators are INVALID_QUERY_LOCATOR, as are foreign ones).
 */
export class Cursors {
  private readonly open = new Map<string, Cursor>();
  private counter = 0;

  first(rows: QueryRows, sessionId: string, batchSize: number): QueryResult {
    const id = `01g${(++this.counter).toString(36).padStart(6, "0")}`;
    this.open.set(id, { sessionId, rows });
    return this.page(id, 0, batchSize);
  }

  /** The page at a locator; undefined when the locator names no open cursor of this session. */
  more(locator: string, sessionId: string, batchSize: number): QueryResult | undefined {
    const m = /^(01g[0-9a-z]+)-(\d+)$/.exec(locator);
    const cursor = m ? this.open.get(m[1]!) : undefined;
    if (!m || !cursor || cursor.sessionId !== sessionId) return undefined;
    const offset = Number(m[2]);
    if (offset <= 0 || offset >= cursor.rows.records.length) return undefined;
    return this.page(m[1]!, offset, batchSize);
  }

  private page(id: string, offset: number, batchSize: number): QueryResult {
    const { rows } = this.open.get(id)!;
    const end = Math.min(offset + batchSize, rows.records.length);
    const done = end >= rows.records.length;
    if (done) this.open.delete(id);
    return {
      done,
      queryLocator: done ? null : `${id}-${end}`,
      records: rows.records.slice(offset, end).map((r) => toSObject(r, rows.fields)),
      size: rows.records.length,
    };
  }
}
