import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SingleEmailMessage } from "../../../generated/partner/index.js";
import { faultOf, field, loggedIn, type Session } from "./helpers.js";

let s: Session;
beforeAll(async () => {
  s = await loggedIn();
});
afterAll(() => s.emulator.close());

const opts = () => ({ headers: s.headers });

async function idOf(query: string): Promise<string> {
  return (await s.client.query({ queryString: query }, opts())).body.result.records![0]!.Id!;
}

function email(fields: Partial<SingleEmailMessage>): SingleEmailMessage {
  return {
    $type: "SingleEmailMessage", bccSender: null, emailPriority: null, replyTo: null, saveAsActivity: null, senderDisplayName: null,
    subject: "Hello", useSignature: null, charset: null, htmlBody: null, plainTextBody: "Hi there", targetObjectId: null,
    templateId: null, whatId: null, ...fields,
  };
}

describe("partner emulator: describes", () => {
  it("describeGlobal lists the fixture's types", async () => {
    const r = await s.client.describeGlobal({}, opts());
    expect(r.body.result.sobjects?.map((o) => o.name)).toEqual(["Account", "Contact", "Lead", "Opportunity", "Case"]);
    expect(r.body.result.sobjects?.[0]).toMatchObject({ keyPrefix: "001", labelPlural: "Accounts", queryable: true });
  });

  it("describeSObject(s) give fields with types, references and picklists; unknown types fault", async () => {
    const r = await s.client.describeSObject({ sObjectType: "contact" }, opts());
    const fields = r.body.result!.fields!;
    expect(fields.find((f) => f?.name === "AccountId")).toMatchObject({ type: "reference", referenceTo: ["Account"], soapType: "tns:ID" });
    expect(fields.find((f) => f?.name === "LastName")).toMatchObject({ nillable: false, createable: true });
    expect(fields.find((f) => f?.name === "LeadSource")?.picklistValues?.map((p) => p?.value)).toContain("Web");
    const many = await s.client.describeSObjects({ sObjectType: ["Account", "Case"] }, opts());
    expect(many.body.result?.map((d) => d?.name)).toEqual(["Account", "Case"]);
    expect((await s.client.describeSObject({ sObjectType: "Account" }, opts())).body.result!.childRelationships?.map((c) => c.childSObject)).toEqual(["Contact", "Lead", "Opportunity", "Case"]);
    expect((await faultOf(s.client.describeSObject({ sObjectType: "Widget" }, opts()))).detail).toMatchObject({ exceptionCode: "INVALID_TYPE" });
  });

  it("describeLayout, describeTabs and describeSoftphoneLayout", async () => {
    const layout = await s.client.describeLayout({ sObjectType: "Case" }, opts());
    const section = layout.body.result!.layouts[0].detailLayoutSections![0]!;
    expect(section.layoutRows[0].layoutItems.map((i) => i.label)).toEqual(["Subject", "Status"]);
    const tabs = await s.client.describeTabs({}, opts());
    expect(tabs.body.result?.[0]?.tabs?.map((t) => t.sobjectName)).toContain("Opportunity");
    const phone = await s.client.describeSoftphoneLayout({}, opts());
    expect(phone.body.result!.callTypes[0].name).toBe("Inbound");
  });
});

describe("partner emulator: business actions", () => {
  it("convertLead creates account, contact and opportunity as asked and marks the lead converted", async () => {
    const lead = await idOf("SELECT Id FROM Lead WHERE LastName = 'Gunderson'");
    const acme = await idOf("SELECT Id FROM Account WHERE Name = 'Acme Corporation'");
    const base = { contactId: null, doNotCreateOpportunity: false, opportunityName: null, overwriteLeadSource: false, ownerId: null, sendNotificationEmail: false };
    const r = await s.client.convertLead({ leadConverts: [{ ...base, leadId: lead, accountId: null, convertedStatus: "Closed - Converted", opportunityName: "Brainerd deal" }] }, opts());
    const res = r.body.result![0]!;
    expect(res).toMatchObject({ success: true, leadId: lead });
    const opp = await s.client.retrieve({ fieldList: "Name, AccountId", sObjectType: "Opportunity", ids: [res.opportunityId!] }, opts());
    expect([field(opp.body.result![0], "Name"), field(opp.body.result![0], "AccountId")]).toEqual(["Brainerd deal", res.accountId]);
    const converted = await s.client.retrieve({ fieldList: "IsConverted, Status, ConvertedContactId", sObjectType: "Lead", ids: [lead] }, opts());
    expect(field(converted.body.result![0], "IsConverted")).toBe("true");
    expect(field(converted.body.result![0], "ConvertedContactId")).toBe(res.contactId);

    const jerry = await idOf("SELECT Id FROM Lead WHERE LastName = 'Lundegaard'");
    const into = await s.client.convertLead({ leadConverts: [{ ...base, leadId: jerry, accountId: acme, convertedStatus: "Closed - Converted", doNotCreateOpportunity: true }] }, opts());
    expect(into.body.result![0]).toMatchObject({ success: true, accountId: acme, opportunityId: null });
    const again = await s.client.convertLead({ leadConverts: [{ ...base, leadId: lead, accountId: null, convertedStatus: "Closed - Converted" }] }, opts());
    expect(again.body.result![0]!.errors?.[0]?.statusCode).toBe("CANNOT_UPDATE_CONVERTED_LEAD");
    const carl = await idOf("SELECT Id FROM Lead WHERE LastName = 'Showalter'");
    const status = await s.client.convertLead({ leadConverts: [{ ...base, leadId: carl, accountId: null, convertedStatus: "Working - Contacted" }] }, opts());
    expect(status.body.result![0]!.errors?.[0]?.statusCode).toBe("INVALID_STATUS");
  });

  it("process: submit, then approve or reject a one-step approval", async () => {
    const opp = await idOf("SELECT Id FROM Opportunity WHERE Name = 'Acme - Rockets'");
    const submit = await s.client.process({ actions: [{ $type: "ProcessSubmitRequest", comments: "please", objectId: opp }] }, opts());
    const sub = submit.body.result![0]!;
    expect(sub).toMatchObject({ success: true, instanceStatus: "Pending", entityId: opp, actorIds: [s.userId] });
    const twice = await s.client.process({ actions: [{ $type: "ProcessSubmitRequest", comments: null, objectId: opp }] }, opts());
    expect(twice.body.result![0]!.errors?.[0]?.statusCode).toBe("ALREADY_IN_PROCESS");
    const approve = await s.client.process({ actions: [{ $type: "ProcessWorkitemRequest", comments: "ok", action: "Approve", workitemId: sub.newWorkitemIds![0]! }] }, opts());
    expect(approve.body.result![0]).toMatchObject({ success: true, instanceStatus: "Approved", instanceId: sub.instanceId });
    const stale = await s.client.process({ actions: [{ $type: "ProcessWorkitemRequest", comments: null, action: "Reject", workitemId: sub.newWorkitemIds![0]! }] }, opts());
    expect(stale.body.result![0]!.errors?.[0]?.statusCode).toBe("INVALID_CROSS_REFERENCE_KEY");
    const again = (await s.client.process({ actions: [{ $type: "ProcessSubmitRequest", comments: null, objectId: opp }] }, opts())).body.result![0]!;
    const reject = await s.client.process({ actions: [{ $type: "ProcessWorkitemRequest", comments: "no", action: "Reject", workitemId: again.newWorkitemIds![0]! }] }, opts());
    expect(reject.body.result![0]!.instanceStatus).toBe("Rejected");
  });

  it("sendEmail puts messages in the outbox; a message over a limit gets its own error and nothing is sent", async () => {
    const before = s.emulator.state.outbox.length;
    const contact = await idOf("SELECT Id FROM Contact WHERE LastName = 'Scorpio'");
    const ok = await s.client.sendEmail({ messages: [email({ toAddresses: ["a@example.com"] }), email({ targetObjectId: contact, subject: "Hi Hank" })] }, opts());
    expect(ok.body.result!.map((r) => r.success)).toEqual([true, true]);
    expect(s.emulator.state.outbox.slice(before).map((m) => [m.to, m.subject])).toEqual([[["a@example.com"], "Hello"], [["hank@globex.example"], "Hi Hank"]]);

    const tooMany = Array.from({ length: 101 }, (_, i) => `u${i}@example.com`);
    const cc = Array.from({ length: 26 }, (_, i) => `c${i}@example.com`);
    const r = await s.client.sendEmail({ messages: [email({ toAddresses: ["fine@example.com"] }), email({ toAddresses: tooMany }), email({ toAddresses: ["x@example.com"], ccAddresses: cc }), email({ toAddresses: ["not-an-address"] })] }, opts());
    expect(r.body.result!.map((x) => x.errors?.[0]?.statusCode)).toEqual(["EMAIL_NOT_PROCESSED_DUE_TO_PRIOR_ERROR", "LIMIT_EXCEEDED", "MAXIMUM_CCEMAILS_EXCEEDED", "INVALID_EMAIL_ADDRESS"]);
    expect(s.emulator.state.outbox.length).toBe(before + 2);

    const eleven = Array.from({ length: 11 }, () => email({ toAddresses: ["a@example.com"] }));
    expect((await faultOf(s.client.sendEmail({ messages: eleven }, opts()))).detail).toMatchObject({ exceptionCode: "EMAIL_BATCH_SIZE_LIMIT_EXCEEDED" });
  });
});
