import type { Error$, LeadConvert, LeadConvertResult, StatusCode } from "../../generated/partner/index.js";
import { isWellFormedId } from "./ids.js";
import type { ObjectMeta } from "./schema.js";
import type { PartnerState } from "./state.js";
import type { StoredRecord } from "./store.js";
import type { Lexical } from "./values.js";

/**
 * convertLead: turns a lead into an account (existing or new, named after the lead's Company), a contact (existing
 * or new) and, unless doNotCreateOpportunity, an opportunity; the lead is marked converted with the given status
 * (a Lead.Status value containing "Converted"). Everything is checked before anything is written, so a failed
 * conversion leaves no half-created records.
 */
class ConvertError extends Error {
  constructor(
    readonly statusCode: StatusCode,
    message: string,
    readonly fields: string[] = [],
  ) {
    super(message);
  }
}

function live(state: PartnerState, id: string, type: string, field: string): StoredRecord {
  if (!isWellFormedId(id)) throw new ConvertError("MALFORMED_ID", `malformed id ${id}`, [field]);
  const r = state.store.get(id);
  if (!r || r.deletedAt !== undefined || r.type !== type) throw new ConvertError("INVALID_CROSS_REFERENCE_KEY", `no ${type} with id ${id}`, [field]);
  return r;
}

function meta(state: PartnerState, type: string): ObjectMeta {
  const m = state.schema.object(type);
  if (!m) throw new ConvertError("INVALID_TYPE", `the fixture has no ${type} type`);
  return m;
}

/** Insert with only the fields the type has (a fixture may leave some out). */
function insert(state: PartnerState, m: ObjectMeta, values: Record<string, Lexical | undefined>): StoredRecord {
  const known = new Map<string, Lexical>();
  for (const [k, v] of Object.entries(values)) {
    const f = m.byName.get(k.toLowerCase());
    if (f && v !== undefined) known.set(f.name, v);
  }
  return state.store.insert(m, known, state.now());
}

function convertOne(state: PartnerState, c: LeadConvert): LeadConvertResult {
  const lead = live(state, c.leadId, "Lead", "leadId");
  if (lead.fields.get("IsConverted") === "true") throw new ConvertError("CANNOT_UPDATE_CONVERTED_LEAD", "lead is already converted", ["leadId"]);
  const statuses = meta(state, "Lead").byName.get("status")?.picklistValues.filter((v) => /converted/i.test(v)) ?? [];
  if (!statuses.includes(c.convertedStatus)) {
    throw new ConvertError("INVALID_STATUS", `invalid converted status: ${c.convertedStatus} (expected one of: ${statuses.join(", ")})`, ["convertedStatus"]);
  }
  const account = c.accountId ? live(state, c.accountId, "Account", "accountId") : undefined;
  const contact = c.contactId ? live(state, c.contactId, "Contact", "contactId") : undefined;
  if (c.ownerId && !state.user(c.ownerId)) throw new ConvertError("INVALID_CROSS_REFERENCE_KEY", `no user with id ${c.ownerId}`, ["ownerId"]);
  const [accountMeta, contactMeta, opportunityMeta] = [meta(state, "Account"), meta(state, "Contact"), c.doNotCreateOpportunity ? undefined : meta(state, "Opportunity")];

  const get = (f: string) => lead.fields.get(f) ?? null;
  const company = get("Company") ?? [get("FirstName"), get("LastName")].filter(Boolean).join(" ");
  const accountId = account?.id ?? insert(state, accountMeta, { Name: company }).id;
  let contactId: string;
  if (contact) {
    if (c.overwriteLeadSource && get("LeadSource") !== null) contact.fields.set("LeadSource", get("LeadSource"));
    contactId = contact.id;
  } else {
    contactId = insert(state, contactMeta, {
      FirstName: get("FirstName"), LastName: get("LastName"), Email: get("Email"), AccountId: accountId, LeadSource: get("LeadSource"),
    }).id;
  }
  let opportunityId: string | null = null;
  if (opportunityMeta) {
    const close = new Date(state.nowMs() + 30 * 86_400_000).toISOString().slice(0, 10);
    const stage = opportunityMeta.byName.get("stagename")?.picklistValues[0] ?? "Prospecting";
    opportunityId = insert(state, opportunityMeta, { Name: c.opportunityName ?? `${company}-`, StageName: stage, CloseDate: close, AccountId: accountId }).id;
  }
  lead.fields.set("Status", c.convertedStatus);
  lead.fields.set("IsConverted", "true");
  lead.fields.set("ConvertedAccountId", accountId);
  lead.fields.set("ConvertedContactId", contactId);
  lead.fields.set("ConvertedOpportunityId", opportunityId);
  state.store.touch(lead, state.now());
  return { success: true, leadId: lead.id, accountId, contactId, opportunityId };
}

export function convertLead(state: PartnerState, converts: readonly LeadConvert[]): LeadConvertResult[] {
  return converts.map((c) => {
    try {
      return convertOne(state, c);
    } catch (e) {
      if (!(e instanceof ConvertError)) throw e;
      const error: Error$ = { statusCode: e.statusCode, message: e.message, fields: e.fields };
      return { success: false, leadId: c.leadId, accountId: null, contactId: null, opportunityId: null, errors: [error] };
    }
  });
}
