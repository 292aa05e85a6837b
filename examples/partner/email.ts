import type { AnyEmail, SendEmailError, SendEmailResult, StatusCode } from "../../generated/partner/index.js";
import { apiFault } from "./faults.js";
import { isWellFormedId } from "./ids.js";
import type { PartnerState, UserState } from "./state.js";

/** An email the emulator "sent": kept in the outbox for tests to read. */
export interface SentEmail {
  readonly kind: "single" | "mass";
  readonly fromUserId: string;
  readonly senderDisplayName: string | null;
  readonly to: readonly string[];
  readonly cc: readonly string[];
  readonly bcc: readonly string[];
  readonly subject: string | null;
  readonly plainTextBody: string | null;
  readonly htmlBody: string | null;
  readonly templateId: string | null;
  readonly targetObjectIds: readonly string[];
  readonly sentAt: string;
}

/** The seed's limit on messages per call; over it the whole call is EMAIL_BATCH_SIZE_LIMIT_EXCEEDED. */
export const MAX_MESSAGES = 10;

const DEFAULT_DAILY_RECIPIENTS = 1000;

class MessageError extends Error {
  constructor(
    readonly statusCode: StatusCode,
    message: string,
    readonly fields: string[] = [],
    readonly targetObjectId: string | null = null,
  ) {
    super(message);
  }
}

/** The seed's per-message limits, by field. */
export const MESSAGE_LIMITS = { toAddresses: 100, ccAddresses: 25, bccAddresses: 25, targetObjectIds: 250, whatIds: 250 } as const;

/**
 * The seed's limits are the schema's maxOccurs; the server does not validate sendEmail requests as a whole, so that
 * each message is checked here on its own and a message over a limit gets its own error (LIMIT_EXCEEDED, or
 * MAXIMUM_CCEMAILS_EXCEEDED for cc/bcc) instead of failing the whole call.
 */
function overLimit(message: AnyEmail): MessageError | undefined {
  for (const [field, max] of Object.entries(MESSAGE_LIMITS)) {
    const list = (message as unknown as Record<string, unknown>)[field];
    if (Array.isArray(list) && list.length > max) {
      const code: StatusCode = field === "ccAddresses" || field === "bccAddresses" ? "MAXIMUM_CCEMAILS_EXCEEDED" : "LIMIT_EXCEEDED";
      return new MessageError(code, `${field}: at most ${max} entries are allowed, got ${list.length}`, [field]);
    }
  }
  return undefined;
}

const ADDRESS = /^[^@\s]+@[^@\s]+\.[^@\s]+$/;

/** The address of a Contact, Lead or user id (what targetObjectId(s) name). */
function addressOf(state: PartnerState, id: string, field: string): string {
  const user = state.user(id);
  if (user) return user.fixture.email;
  const record = isWellFormedId(id) ? state.store.get(id) : undefined;
  const email = record && record.deletedAt === undefined && (record.type === "Contact" || record.type === "Lead") ? record.fields.get("Email") : undefined;
  if (!email) throw new MessageError("INVALID_ID_FIELD", `${id} is not a contact, lead or user with an email address`, [field], id);
  return email;
}

function prepare(state: PartnerState, user: UserState, m: AnyEmail): SentEmail {
  const limit = overLimit(m);
  if (limit) throw limit;
  const base = { fromUserId: user.id, senderDisplayName: m.senderDisplayName, subject: m.subject, sentAt: state.now() };
  if (m.$type === "SingleEmailMessage") {
    const list = (xs: readonly (string | null)[] | undefined) => (xs ?? []).filter((x): x is string => x !== null);
    const to = list(m.toAddresses);
    if (m.targetObjectId) to.push(addressOf(state, m.targetObjectId, "targetObjectId"));
    const cc = list(m.ccAddresses);
    const bcc = list(m.bccAddresses);
    const bad = [...to, ...cc, ...bcc].find((a) => !ADDRESS.test(a));
    if (bad) throw new MessageError("INVALID_EMAIL_ADDRESS", `invalid email address: ${bad}`, ["toAddresses"]);
    if (to.length + cc.length + bcc.length === 0) throw new MessageError("REQUIRED_FIELD_MISSING", "Add a recipient to send an email.", ["toAddresses"]);
    if (m.plainTextBody === null && m.htmlBody === null && m.templateId === null) {
      throw new MessageError("REQUIRED_FIELD_MISSING", "Either plainTextBody, htmlBody or templateId is required.", ["plainTextBody"]);
    }
    return { ...base, kind: "single", to, cc, bcc, plainTextBody: m.plainTextBody, htmlBody: m.htmlBody, templateId: m.templateId, targetObjectIds: m.targetObjectId ? [m.targetObjectId] : [] };
  }
  if (m.$type === "MassEmailMessage") {
    const targets = m.targetObjectIds ?? [];
    if (targets.length === 0) throw new MessageError("REQUIRED_FIELD_MISSING", "targetObjectIds is required", ["targetObjectIds"]);
    const to = targets.map((id) => addressOf(state, id, "targetObjectIds"));
    return { ...base, kind: "mass", to, cc: [], bcc: [], plainTextBody: null, htmlBody: null, templateId: m.templateId, targetObjectIds: targets };
  }
  throw new MessageError("INVALID_TYPE_FOR_OPERATION", "send a SingleEmailMessage or a MassEmailMessage (xsi:type)");
}

/**
 * sendEmail: every message is checked first; if any fails, it gets its error and every other message
 * EMAIL_NOT_PROCESSED_DUE_TO_PRIOR_ERROR, and nothing is sent (the service's all-or-none behaviour). Otherwise all
 * go to the outbox. The fixture's dailyEmailRecipients bounds recipients per day (LIMIT_EXCEEDED past it).
 */
export function sendEmail(state: PartnerState, user: UserState, messages: readonly AnyEmail[]): SendEmailResult[] {
  if (messages.length > MAX_MESSAGES) throw apiFault("EMAIL_BATCH_SIZE_LIMIT_EXCEEDED", `at most ${MAX_MESSAGES} messages per call`);
  const limit = state.fixture.limits?.dailyEmailRecipients ?? DEFAULT_DAILY_RECIPIENTS;
  const today = state.now().slice(0, 10);
  let used = state.outbox.filter((e) => e.sentAt.startsWith(today)).reduce((n, e) => n + e.to.length + e.cc.length + e.bcc.length, 0);
  const prepared = messages.map((m) => {
    try {
      const email = prepare(state, user, m);
      used += email.to.length + email.cc.length + email.bcc.length;
      if (used > limit) throw new MessageError("LIMIT_EXCEEDED", `daily limit of ${limit} email recipients exceeded`);
      return email;
    } catch (e) {
      if (e instanceof MessageError) return e;
      throw e;
    }
  });
  const failed = prepared.some((p) => p instanceof MessageError);
  return prepared.map((p) => {
    if (p instanceof MessageError) return { success: false, errors: [errorOf(p)] };
    if (failed) return { success: false, errors: [errorOf(new MessageError("EMAIL_NOT_PROCESSED_DUE_TO_PRIOR_ERROR", "Email not sent due to an error in another message"))] };
    state.outbox.push(p);
    return { success: true };
  });
}

const errorOf = (e: MessageError): SendEmailError => ({ statusCode: e.statusCode, message: e.message, fields: e.fields, targetObjectId: e.targetObjectId });
