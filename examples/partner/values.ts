import type { StatusCode } from "../../generated/partner/index.js";
import { isWellFormedId } from "./ids.js";
import type { FieldMeta } from "./schema.js";

/** A field value as the emulator stores it: the XML lexical form, or null. */
export type Lexical = string | null;

export type Checked = { readonly ok: true; readonly value: Lexical } | { readonly ok: false; readonly statusCode: StatusCode; readonly message: string };

const fail = (statusCode: StatusCode, message: string): Checked => ({ ok: false, statusCode, message });

/**
 * Check one incoming field value against its field's type and turn it into the stored lexical form. Values come from
 * a record's open content, so they may be strings (the common case), numbers, booleans, null, or something nested.
 */
export function checkValue(field: FieldMeta, raw: unknown): Checked {
  if (raw === null || raw === undefined) return { ok: true, value: null };
  if (typeof raw === "object") return fail("INVALID_TYPE_ON_FIELD_IN_RECORD", `${field.name}: a nested value is not allowed here`);
  const text = String(raw).trim();
  const bad = (what: string) => fail("INVALID_TYPE_ON_FIELD_IN_RECORD", `${field.name}: value not of required type ${what}: ${text}`);
  switch (field.type) {
    case "boolean":
      if (text === "true" || text === "1") return { ok: true, value: "true" };
      if (text === "false" || text === "0") return { ok: true, value: "false" };
      return bad("boolean");
    case "int":
      if (!/^[+-]?\d+$/.test(text) || Math.abs(Number(text)) > 2 ** 31) return bad("int");
      return { ok: true, value: String(Number(text)) };
    case "double":
    case "currency":
    case "percent":
      if (text === "" || !Number.isFinite(Number(text))) return bad("double");
      return { ok: true, value: String(Number(text)) };
    case "date":
      if (!/^\d{4}-\d{2}-\d{2}$/.test(text) || Number.isNaN(Date.parse(text))) return bad("date");
      return { ok: true, value: text };
    case "datetime": {
      const t = Date.parse(text);
      if (Number.isNaN(t)) return bad("dateTime");
      return { ok: true, value: new Date(t).toISOString() };
    }
    case "id":
    case "reference":
      if (!isWellFormedId(text)) return fail("MALFORMED_ID", `${field.name}: id value of incorrect type: ${text}`);
      return { ok: true, value: text };
    case "email":
      if (!/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(text)) return fail("INVALID_EMAIL_ADDRESS", `${field.name}: invalid email address: ${text}`);
      break;
    case "picklist":
      if (field.picklistValues.length > 0 && !field.picklistValues.includes(text)) {
        return fail("INVALID_OR_NULL_FOR_RESTRICTED_PICKLIST", `${field.name}: bad value for restricted picklist field: ${text}`);
      }
      break;
    default:
      break;
  }
  if (field.length > 0 && text.length > field.length) {
    return fail("STRING_TOO_LONG", `${field.name}: data value too large: max length=${field.length}`);
  }
  return { ok: true, value: String(raw) };
}

/** Order two stored values of a field for ORDER BY and range comparisons; null compares lowest. */
export function compareLexical(field: FieldMeta, a: Lexical, b: Lexical): number {
  if (a === null || b === null) return a === b ? 0 : a === null ? -1 : 1;
  if (["int", "double", "currency", "percent"].includes(field.type)) return Number(a) - Number(b);
  if (field.type === "datetime") return Date.parse(a) - Date.parse(b);
  // Dates (YYYY-MM-DD) and everything else: text order, case-insensitive like the service's default collation.
  const la = a.toLowerCase();
  const lb = b.toLowerCase();
  return la < lb ? -1 : la > lb ? 1 : 0;
}
