import { describe, expect, it } from "vitest";
import fc from "fast-check";
import path from "node:path";
import * as v from "../../../generated/partner/validate.js";
import * as p from "../../../generated/partner/index.js";
import { inspect } from "../../../src/api.js";
import { assignNames } from "../../../src/naming/assign-names.js";
import { arbitraries } from "../xml/helpers/arbitraries.js";

const ID = "001000000000000AAA";
const ENS = "urn:sobject.api.example";
const rules = (issues: readonly { path: string; rule: string }[]) => issues.map((i) => `${i.path} ${i.rule}`);

const single = (extra: Partial<p.SingleEmailMessage>): p.SingleEmailMessage => ({
  $type: "SingleEmailMessage", bccSender: null, emailPriority: null, replyTo: null, saveAsActivity: null, senderDisplayName: null,
  subject: null, useSignature: null, charset: null, htmlBody: null, plainTextBody: null, targetObjectId: null, templateId: null,
  whatId: null, ...extra,
});

describe("partner validators", () => {
  it("accept every schema-valid sample of every element's type", () => {
    const doc = inspect(path.resolve(import.meta.dirname, "../../../specs/partner.wsdl"));
    const arbs = arbitraries(doc);
    const names = assignNames(doc);
    const byType = v as unknown as Record<string, (value: unknown) => unknown[]>;
    let checked = 0;
    for (const el of doc.elements) {
      if (el.type.kind !== "ref") continue;
      const t = doc.types.find((x) => x.id === (el.type as { id: string }).id)!;
      const name = names.derived(t.id, "validate");
      const validate = byType[name];
      if (!validate) continue;
      for (const value of fc.sample(arbs.element(el.id), { numRuns: 3, seed: 7 })) {
        if (value === null) continue;
        expect({ el: el.name.local, issues: validate(value) }).toEqual({ el: el.name.local, issues: [] });
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(150);
  });

  it("checks the 18-character ID (length and pattern)", () => {
    expect(v.validateID(ID)).toEqual([]);
    expect(rules(v.validateID("001"))).toEqual([" length", " pattern"]);
    expect(rules(v.validateID("001000000000000AA!"))).toEqual([" pattern"]);
    expect(rules(v.validateID(18))).toEqual([" type"]);
  });

  it("checks bounded lists (25, 100, 250; maxOccurs 1 is a single value) and reports every error with its path", () => {
    const many = (n: number) => Array.from({ length: n }, () => "a@example.com");
    const issues = v.validateSingleEmailMessage(single({ bccAddresses: many(26), ccAddresses: many(25), toAddresses: many(101), orgWideEmailAddressId: [ID, ID] as never }));
    expect(rules(issues)).toEqual(["/bccAddresses maxOccurs", "/orgWideEmailAddressId type", "/toAddresses maxOccurs"]);
    const mass: p.MassEmailMessage = {
      $type: "MassEmailMessage", bccSender: null, emailPriority: null, replyTo: null, saveAsActivity: null, senderDisplayName: null,
      subject: null, useSignature: null, description: null, templateId: ID, targetObjectIds: Array(251).fill(ID), whatIds: Array(250).fill(ID),
    };
    expect(rules(v.validateMassEmailMessage(mass))).toEqual(["/targetObjectIds maxOccurs"]);
    expect(rules(v.validateMassEmailMessage({ ...mass, targetObjectIds: [ID, "bad"], whatIds: [] }))).toEqual([
      "/targetObjectIds/1 length", "/targetObjectIds/1 pattern",
    ]);
  });

  it("tells required from nillable, and checks enumerations and types", () => {
    expect(rules(v.validateQueryResult({ done: true, size: 1 }))).toEqual(["/queryLocator required"]);
    expect(rules(v.validateQueryResult({ done: null, queryLocator: null, size: "1" }))).toEqual(["/done nullable", "/size type"]);
    expect(rules(v.validateDebuggingHeader({ debugLevel: "Loud" }))).toEqual(["/debugLevel enum"]);
    expect(rules(v.validateSObject({ type: "A", Id: null, fieldsToNull: ["x", null] }))).toEqual([]);
    expect(rules(v.validateSObject({ type: "A", Id: null, $any: [{ ns: "urn:other", name: "X", value: 1 }, { name: "Y" }] }))).toEqual([
      "/$any/0/ns namespace", "/$any/1 type",
    ]);
    expect(rules(v.validateSObject({ type: "A", Id: null, $any: [{ ns: ENS, name: "X", value: "1" }] }))).toEqual([]);
  });

  it("validates family members by $type and nested records with full paths", () => {
    expect(rules(v.validateEmail(single({ toAddresses: ["x"] })))).toEqual([]);
    expect(rules(v.validateEmail({ ...single({}), $type: "Postcard" }))).toEqual(["/$type type"]);
    expect(rules(v.validateApiFault({ $type: "ApiQueryFault", exceptionCode: "NOPE", exceptionMessage: "m", row: 1.5, column: 1 }))).toEqual([
      "/exceptionCode enum", "/row type",
    ]);
    const issues = v.validateSendEmail({ messages: [single({}), single({ targetObjectId: "short" })] });
    expect(rules(issues)).toEqual(["/messages/1/targetObjectId length", "/messages/1/targetObjectId pattern"]);
    expect(issues[0]!.message).toBe("length must be 18");
  });
});
