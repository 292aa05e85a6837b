/**
 * Open content in document order (issue 14, item 1): a record with fixed elements and a wildcard reads a fixed
 * element into its field only at its schema position; a later element of the same name is open content, kept in
 * `$any` in order. The real service returns every record with `Id` twice (the sObject's own, then the queried
 * field), so this is what decode(encode(x)) = x needs for its responses.
 */
import { describe, expect, it } from "vitest";
import * as p from "../../../generated/partner/index.js";
import { isNil, parseXml, xsiType, type XmlElementNode } from "../../../src/runtime/index.js";

const TNS = "urn:partner.api.example";
const ENS = "urn:sobject.api.example";
const XSI = "http://www.w3.org/2001/XMLSchema-instance";

/** A queryResponse as the real service shapes it: Ids twice, nils, a parent sObject, a child QueryResult, nested. */
const RESPONSE = `<?xml version="1.0" encoding="UTF-8"?>
<queryResponse xmlns="${TNS}" xmlns:sf="${ENS}" xmlns:xsi="${XSI}">
 <result xsi:type="QueryResult">
  <done>true</done>
  <queryLocator xsi:nil="true"/>
  <records xsi:type="sf:sObject">
   <sf:type>Contact</sf:type>
   <sf:Id>003000000000001AAA</sf:Id>
   <sf:Id>003000000000001AAA</sf:Id>
   <sf:LastName>Lee</sf:LastName>
   <sf:Email xsi:nil="true"/>
   <sf:Account xsi:type="sf:sObject">
    <sf:type>Account</sf:type>
    <sf:Id xsi:nil="true"/>
    <sf:Name>Acme &amp; Co</sf:Name>
    <sf:Id>001000000000001AAA</sf:Id>
    <sf:Owner xsi:type="sf:sObject"><sf:type>User</sf:type><sf:Id xsi:nil="true"/><sf:Id xsi:nil="true"/><sf:type>User</sf:type></sf:Owner>
   </sf:Account>
   <sf:Cases xsi:type="QueryResult">
    <done>true</done>
    <queryLocator xsi:nil="true"/>
    <records xsi:type="sf:sObject">
     <sf:type>Case</sf:type>
     <sf:Id>500000000000001AAA</sf:Id>
     <sf:Id>500000000000001AAA</sf:Id>
     <sf:Subject>Help</sf:Subject>
     <sf:fieldsToNull>late</sf:fieldsToNull>
    </records>
    <size>1</size>
   </sf:Cases>
   <sf:type>Contact</sf:type>
  </records>
  <size>1</size>
 </result>
</queryResponse>`;

/** The element structure, prefixes aside: [depth, {ns}local, leaf text or "", nil]; xsi:type left out. */
function structure(xml: string): string[] {
  const out: string[] = [];
  const walk = (n: XmlElementNode, depth: number): void => {
    out.push(`${depth} {${n.ns}}${n.local} ${n.children.length === 0 ? JSON.stringify(n.text) : ""}${isNil(n) ? " nil" : ""}`);
    for (const c of n.children) walk(c, depth + 1);
  };
  walk(parseXml(xml), 0);
  return out;
}

/** xsi:type of every element that has one, as {ns}local, in document order. */
function xsiTypes(xml: string): string[] {
  const out: string[] = [];
  const walk = (n: XmlElementNode): void => {
    const t = xsiType(n);
    if (t !== undefined) out.push(`${n.local}: {${t.ns}}${t.local}`);
    for (const c of n.children) walk(c);
  };
  walk(parseXml(xml));
  return out;
}

describe("sObject open content in document order", () => {
  const decoded = p.decodeQueryResponseElement(RESPONSE);
  const record = decoded.result.records![0]!;

  it("reads the first Id into the field and the second into $any, in order", () => {
    expect(record.type).toBe("Contact");
    expect(record.Id).toBe("003000000000001AAA");
    expect(record.$any!.map((i) => i.name)).toEqual(["Id", "LastName", "Email", "Account", "Cases", "type"]);
    expect(record.$any![0]).toEqual({ ns: ENS, name: "Id", value: "003000000000001AAA" });
    expect(record.$any![2]).toEqual({ ns: ENS, name: "Email", value: null });
    // A fixed name after the wildcard's position is open content too (the trailing `type`).
    expect(record.$any![5]).toEqual({ ns: ENS, name: "type", value: "Contact" });
  });

  it("nested parent sObjects and child query results keep their own order and nils", () => {
    const account = record.$any![3]!.value as p.SObject;
    expect(account).toMatchObject({ $type: "sObject", type: "Account", Id: null });
    expect(account.$any!.map((i) => [i.name, i.name === "Owner" ? "…" : i.value])).toEqual([
      ["Name", "Acme & Co"],
      ["Id", "001000000000001AAA"],
      ["Owner", "…"],
    ]);
    const owner = account.$any![2]!.value as p.SObject;
    expect(owner).toMatchObject({ type: "User", Id: null });
    expect(owner.$any).toEqual([
      { ns: ENS, name: "Id", value: null },
      { ns: ENS, name: "type", value: "User" },
    ]);
    const cases = record.$any![4]!.value as p.QueryResult;
    const child = cases.records![0]!;
    expect([child.type, child.Id, child.fieldsToNull]).toEqual(["Case", "500000000000001AAA", undefined]);
    expect(child.$any!.map((i) => [i.name, i.value])).toEqual([
      ["Id", "500000000000001AAA"],
      ["Subject", "Help"],
      ["fieldsToNull", "late"],
    ]);
  });

  it("re-encodes to the same elements in the same order, and decode(encode(x)) is x", () => {
    const encoded = p.encodeQueryResponseElement(decoded);
    expect(structure(encoded)).toEqual(structure(RESPONSE));
    expect(p.decodeQueryResponseElement(encoded)).toEqual(decoded);
    expect(p.encodeQueryResponseElement(p.decodeQueryResponseElement(encoded))).toBe(encoded);
    // The open-content records carry their type, so a reader of the re-encoded XML types them as the original did.
    expect(xsiTypes(encoded).filter((t) => t.startsWith("Account") || t.startsWith("Owner") || t.startsWith("Cases"))).toEqual([
      `Account: {${ENS}}sObject`,
      `Owner: {${ENS}}sObject`,
      `Cases: {${TNS}}QueryResult`,
    ]);
  });

  it("an sObject whose type comes after its Id has no type of its own: the later type is open content", () => {
    const xml = `<queryResponse xmlns="${TNS}" xmlns:sf="${ENS}"><result><done>true</done><queryLocator/><records><sf:Id>x</sf:Id><sf:type>Contact</sf:type></records><size>1</size></result></queryResponse>`;
    expect(() => p.decodeQueryResponseElement(xml)).toThrow("/result/records/0: required element type is missing");
  });

  it("a create request with Ids in open content round-trips too", () => {
    const create: p.Create = {
      sObjects: [{ type: "Contact", Id: null, $any: [{ ns: ENS, name: "Id", value: "003000000000001AAA" }, { ns: ENS, name: "LastName", value: "Lee" }] }],
    };
    const xml = p.encodeCreateElement(create);
    expect(p.decodeCreateElement(xml)).toEqual(create);
  });
});
