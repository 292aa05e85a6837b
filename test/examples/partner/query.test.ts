import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { faultOf, field, loggedIn, sobject, type Session } from "./helpers.js";

let s: Session;
beforeAll(async () => {
  s = await loggedIn();
});
afterAll(() => s.emulator.close());

const opts = (batchSize?: number) => ({ headers: { ...s.headers, ...(batchSize ? { QueryOptions: { batchSize } } : {}) } });
const names = (records: readonly unknown[] | undefined, f = "Name") => (records ?? []).map((r) => field(r as never, f));

describe("partner emulator: query language subset", () => {
  it("SELECT ... WHERE ... ORDER BY ... LIMIT", async () => {
    const r = await s.client.query({ queryString: "SELECT Id, Name, NumberOfEmployees FROM Account WHERE NumberOfEmployees > 100 ORDER BY NumberOfEmployees DESC LIMIT 2" }, opts());
    expect(r.body.result).toMatchObject({ done: true, size: 2, queryLocator: null });
    expect(names(r.body.result.records)).toEqual(["Umbrella Holdings", "Globex"]);
    expect(r.body.result.records![0]!.Id).toMatch(/^001/);
  });

  it("LIKE, IN, NOT IN, OR, AND, NOT, parentheses, != and null", async () => {
    const q = async (where: string) => names((await s.client.query({ queryString: `SELECT LastName FROM Contact WHERE ${where} ORDER BY LastName` }, opts())).body.result.records, "LastName");
    expect(await q("Email LIKE '%@acme.example'")).toEqual(["Coyote", "Runner"]);
    expect(await q("LastName IN ('Coyote', 'Gibbons')")).toEqual(["Coyote", "Gibbons"]);
    expect(await q("Email = null")).toEqual(["Waddams"]);
    expect(await q("(Title = 'CEO' OR Title = 'Collator') AND NOT LastName = 'Scorpio'")).toEqual(["Waddams"]);
    expect(await q("LastName NOT IN ('Coyote') AND Email != null AND LastName < 'H'")).toEqual(["Gibbons"]);
    expect(await q("Birthdate < 1950-01-01")).toEqual(["Coyote"]);
  });

  it("pages by QueryOptions.batchSize through queryMore until done", async () => {
    const first = await s.client.query({ queryString: "SELECT LastName FROM Contact ORDER BY LastName" }, opts(2));
    expect(first.body.result).toMatchObject({ done: false, size: 5 });
    const seen = [...names(first.body.result.records, "LastName")];
    let locator = first.body.result.queryLocator;
    const all = [...(first.body.result.records ?? [])];
    for (let page = 0; locator !== null && page < 10; page++) {
      const more = await s.client.queryMore({ queryLocator: locator }, opts(2));
      all.push(...(more.body.result.records ?? []));
      locator = more.body.result.done ? null : more.body.result.queryLocator;
    }
    expect(seen.length).toBe(2);
    expect(all.length).toBe(5);
    expect(locator).toBeNull();
  });

  it("an unknown or used-up locator is INVALID_QUERY_LOCATOR", async () => {
    const f = await faultOf(s.client.queryMore({ queryLocator: "01g999999-2" }, opts()));
    expect(f.fault).toBe("InvalidQueryLocatorFault");
    expect(f.detail).toMatchObject({ $type: "InvalidQueryLocatorFault", exceptionCode: "INVALID_QUERY_LOCATOR" });
  });

  it("malformed queries are MALFORMED_QUERY with row and column; unknown fields INVALID_FIELD", async () => {
    const bad = await faultOf(s.client.query({ queryString: "SELECT Name\nFROM Account WHERE Name = = 'x'" }, opts()));
    expect(bad.fault).toBe("ApiQueryFault");
    expect(bad.code).toEqual({ ns: "urn:fault.api.example", local: "MALFORMED_QUERY" });
    expect(bad.detail).toMatchObject({ $type: "ApiQueryFault", exceptionCode: "MALFORMED_QUERY", row: 2, column: 27 });
    const field_ = await faultOf(s.client.query({ queryString: "SELECT Name, Shoe FROM Account" }, opts()));
    expect(field_.detail).toMatchObject({ exceptionCode: "INVALID_FIELD", row: 1, column: 14 });
    const type = await faultOf(s.client.query({ queryString: "SELECT Id FROM Widget" }, opts()));
    expect(type.detail).toMatchObject({ exceptionCode: "INVALID_TYPE", row: 1, column: 16 });
  });

  it("queryAll includes deleted records (IsDeleted true); query does not", async () => {
    const id = (await s.client.create({ sObjects: [sobject("Case", { Subject: "Soon gone" })] }, opts())).body.result![0]!.id!;
    await s.client.delete({ ids: [id] }, opts());
    const q = `SELECT Id, IsDeleted FROM Case WHERE Subject = 'Soon gone'`;
    expect((await s.client.query({ queryString: q }, opts())).body.result.size).toBe(0);
    const all = await s.client.queryAll({ queryString: q }, opts());
    expect(all.body.result.size).toBe(1);
    expect(field(all.body.result.records![0], "IsDeleted")).toBe("true");
  });

  it("search: FIND {term} RETURNING types with fields", async () => {
    const r = await s.client.search({ searchString: "FIND {acme} RETURNING Account(Name), Contact(LastName, Email)" }, opts());
    const hits = r.body.result.searchRecords ?? [];
    expect(hits.map((h) => h.record.type)).toEqual(["Account", "Contact", "Contact"]);
    expect(field(hits[0]!.record, "Name")).toBe("Acme Corporation");
    const bad = await faultOf(s.client.search({ searchString: "FIND acme RETURNING Account" }, opts()));
    expect(bad.detail).toMatchObject({ exceptionCode: "MALFORMED_SEARCH", row: 1, column: 6 });
  });

  it("getUpdated and getDeleted report changes within the window", async () => {
    const start = new Date(Date.now() - 60_000).toISOString();
    const id = (await s.client.create({ sObjects: [sobject("Opportunity", { Name: "Window", StageName: "Prospecting", CloseDate: "2031-01-01" })] }, opts())).body.result![0]!.id!;
    await s.client.delete({ ids: [id] }, opts());
    const end = new Date(Date.now() + 60_000).toISOString();
    const del = await s.client.getDeleted({ sObjectType: "Opportunity", startDate: start, endDate: end }, opts());
    expect(del.body.result.deletedRecords?.map((d) => d.id)).toEqual([id]);
    const id2 = (await s.client.create({ sObjects: [sobject("Opportunity", { Name: "Window 2", StageName: "Prospecting", CloseDate: "2031-01-01" })] }, opts())).body.result![0]!.id!;
    const upd2 = await s.client.getUpdated({ sObjectType: "Opportunity", startDate: start, endDate: new Date(Date.now() + 60_000).toISOString() }, opts());
    expect(upd2.body.result.ids).toContain(id2);
    const old = await s.client.getUpdated({ sObjectType: "Opportunity", startDate: "2000-01-01T00:00:00Z", endDate: "2000-01-02T00:00:00Z" }, opts());
    expect(old.body.result.ids ?? []).toEqual([]);
    const backwards = await faultOf(s.client.getDeleted({ sObjectType: "Opportunity", startDate: end, endDate: start }, opts()));
    expect(backwards.detail).toMatchObject({ exceptionCode: "INVALID_REPLICATION_DATE" });
  });
});
