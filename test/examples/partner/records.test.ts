import { existsSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { faultOf, field, loggedIn, sobject, type Session } from "./helpers.js";

let s: Session;
beforeAll(async () => {
  s = await loggedIn();
});
afterAll(() => s.emulator.close());

const opts = () => ({ headers: s.headers });

async function accountIdNamed(name: string): Promise<string> {
  const r = await s.client.query({ queryString: `SELECT Id FROM Account WHERE Name = '${name}'` }, opts());
  return r.body.result.records![0]!.Id!;
}

describe("partner emulator: record writes", () => {
  it("create returns one result per record, with per-record errors and status codes", async () => {
    const acme = await accountIdNamed("Acme Corporation");
    const r = await s.client.create(
      {
        sObjects: [
          sobject("Contact", { FirstName: "Daffy", LastName: "Duck", AccountId: acme, Email: "daffy@acme.example" }),
          sobject("Nope", { Name: "x" }),
          sobject("Contact", { FirstName: "No", Shoe: "size" }),
          sobject("Contact", { FirstName: "Nameless" }),
          sobject("Contact", { LastName: "Bad", AccountId: "001000000000001AAB" }),
          sobject("Contact", { LastName: "Dangling", AccountId: "001000000000999AAA" }),
          sobject("Account", { Name: "x", NumberOfEmployees: "many" }),
        ],
      },
      opts(),
    );
    const results = r.body.result!;
    expect(results.map((x) => x.success)).toEqual([true, false, false, false, false, false, false]);
    expect(results[0]!.id).toMatch(/^003[a-zA-Z0-9]{15}$/);
    expect(results.slice(1).map((x) => x.errors?.[0]?.statusCode)).toEqual([
      "INVALID_TYPE", "INVALID_FIELD", "REQUIRED_FIELD_MISSING", "MALFORMED_ID", "INVALID_CROSS_REFERENCE_KEY", "INVALID_TYPE_ON_FIELD_IN_RECORD",
    ]);
    expect(results[3]!.errors?.[0]?.fields).toEqual(["LastName"]);
  });

  it("answers a DebuggingHeader with a typed DebuggingInfo response header", async () => {
    const r = await s.client.create({ sObjects: [sobject("Case", { Subject: "debug me" }), sobject("Case", {})] }, { headers: { ...s.headers, DebuggingHeader: { debugLevel: "Db" } } });
    expect(r.headers.DebuggingInfo?.debugLog).toBe("create: 2 record(s), 1 failed (level Db)");
    const quiet = await s.client.create({ sObjects: [sobject("Case", { Subject: "quiet" })] }, { headers: s.headers });
    expect(quiet.headers).toEqual({});
  });

  it("update changes fields, honours fieldsToNull, and reports ENTITY_IS_DELETED / MISSING_ARGUMENT", async () => {
    const created = await s.client.create({ sObjects: [sobject("Account", { Name: "Tmp Co", Phone: "123", Industry: "Energy" })] }, opts());
    const id = created.body.result![0]!.id!;
    const upd = await s.client.update({ sObjects: [sobject("Account", { Name: "Tmp Co Renamed" }, id, ["Phone"]), sobject("Account", { Name: "x" })] }, opts());
    expect(upd.body.result!.map((x) => x.success)).toEqual([true, false]);
    expect(upd.body.result![1]!.errors?.[0]?.statusCode).toBe("MISSING_ARGUMENT");
    const got = await s.client.retrieve({ fieldList: "Name, Phone, Industry", sObjectType: "Account", ids: [id] }, opts());
    const rec = got.body.result![0]!;
    expect([field(rec, "Name"), field(rec, "Phone"), field(rec, "Industry")]).toEqual(["Tmp Co Renamed", null, "Energy"]);
    await s.client.delete({ ids: [id] }, opts());
    const again = await s.client.update({ sObjects: [sobject("Account", { Name: "ghost" }, id)] }, opts());
    expect(again.body.result![0]!.errors?.[0]?.statusCode).toBe("ENTITY_IS_DELETED");
  });

  it("upsert creates, updates by external id, and reports DUPLICATE_EXTERNAL_ID", async () => {
    const r1 = await s.client.upsert({ externalIDFieldName: "AccountNumber", sObjects: [sobject("Account", { Name: "Upserted", AccountNumber: "U-1" })] }, opts());
    expect(r1.body.result![0]).toMatchObject({ success: true, created: true });
    const r2 = await s.client.upsert({ externalIDFieldName: "AccountNumber", sObjects: [sobject("Account", { Name: "Upserted 2", AccountNumber: "U-1" })] }, opts());
    expect(r2.body.result![0]).toMatchObject({ success: true, created: false, id: r1.body.result![0]!.id });
    await s.client.create({ sObjects: [sobject("Account", { Name: "Dup A", AccountNumber: "D-1" }), sobject("Account", { Name: "Dup B", AccountNumber: "D-1" })] }, opts());
    const r3 = await s.client.upsert({ externalIDFieldName: "AccountNumber", sObjects: [sobject("Account", { Name: "Dup", AccountNumber: "D-1" })] }, opts());
    expect(r3.body.result![0]!.errors?.[0]?.statusCode).toBe("DUPLICATE_EXTERNAL_ID");
    const r4 = await s.client.upsert({ externalIDFieldName: "Phone", sObjects: [sobject("Account", { Name: "x", Phone: "1" })] }, opts());
    expect(r4.body.result![0]!.errors?.[0]?.statusCode).toBe("INVALID_FIELD");
  });

  it("delete, undelete and emptyRecycleBin move records through the recycle bin", async () => {
    const id = (await s.client.create({ sObjects: [sobject("Case", { Subject: "Recycle me" })] }, opts())).body.result![0]!.id!;
    const del = await s.client.delete({ ids: [id, id, "500000000000999AAA", "500000000000001AAB"] }, opts());
    expect(del.body.result!.map((x) => x.errors?.[0]?.statusCode ?? "ok")).toEqual(["ok", "ENTITY_IS_DELETED", "INVALID_CROSS_REFERENCE_KEY", "MALFORMED_ID"]);
    const und = await s.client.undelete({ ids: [id] }, opts());
    expect(und.body.result[0]).toMatchObject({ success: true, id });
    expect((await s.client.undelete({ ids: [id] }, opts())).body.result[0]!.errors?.[0]?.statusCode).toBe("UNDELETE_FAILED");
    expect((await s.client.emptyRecycleBin({ ids: [id] }, opts())).body.result[0]!.errors?.[0]?.statusCode).toBe("INVALID_OPERATION");
    await s.client.delete({ ids: [id] }, opts());
    expect((await s.client.emptyRecycleBin({ ids: [id] }, opts())).body.result[0]!.success).toBe(true);
    const all = await s.client.queryAll({ queryString: `SELECT Id FROM Case WHERE Id = '${id}'` }, opts());
    expect(all.body.result.size).toBe(0);
  });

  it("merge keeps the master, deletes the others and re-points their children", async () => {
    const [a, b] = (await s.client.create({ sObjects: [sobject("Account", { Name: "Master" }), sobject("Account", { Name: "Victim" })] }, opts())).body.result!.map((x) => x.id!);
    const child = (await s.client.create({ sObjects: [sobject("Contact", { LastName: "Child", AccountId: b! })] }, opts())).body.result![0]!.id!;
    const r = await s.client.merge({ request: [{ masterRecord: sobject("Account", { Description: "merged" }, a!), recordToMergeIds: [b!] }] }, opts());
    expect(r.body.result![0]).toMatchObject({ success: true, id: a, mergedRecordIds: [b], updatedRelatedIds: [child] });
    const moved = await s.client.retrieve({ fieldList: "AccountId", sObjectType: "Contact", ids: [child] }, opts());
    expect(field(moved.body.result![0], "AccountId")).toBe(a);
    const gone = await s.client.retrieve({ fieldList: "Name", sObjectType: "Account", ids: [b!] }, opts());
    expect(gone.body.result).toEqual([null]);
  });

  it("retrieve faults on unknown types and fields", async () => {
    expect((await faultOf(s.client.retrieve({ fieldList: "Name", sObjectType: "Widget", ids: [] }, opts()))).detail).toMatchObject({ exceptionCode: "INVALID_TYPE" });
    expect((await faultOf(s.client.retrieve({ fieldList: "Nope", sObjectType: "Account", ids: [] }, opts()))).detail).toMatchObject({ exceptionCode: "INVALID_FIELD" });
  });

  // Needs the XSD validators artifact (generated/partner/validate.ts); without it the server cannot validate.
  it.skipIf(!existsSync(new URL("../../../generated/partner/validate.ts", import.meta.url)))("a request the schema rejects (an id that is not 18 characters) is a Client fault listing the issue", async () => {
    const f = await faultOf(s.client.delete({ ids: ["short"] }, opts()));
    expect(f.code).toEqual({ ns: "http://schemas.xmlsoap.org/soap/envelope/", local: "Client" });
    expect(f.message).toMatch(/\/ids\/0/);
  });
});
