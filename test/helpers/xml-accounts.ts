import { XmlCodecs, xmlTextCodec, type XmlFieldSpec } from "../../src/runtime/index.js";

/**
 * A small XML schema with long element names, for the pull reader's tag comparisons: <t:list> of <t:account>,
 * account = billingCountryName (text), subrecordOfTheAccount (a record: entered, not read whole), no wildcard. The
 * pair </t:billingCountryName><t:subrecordOfTheAccount> is 49 characters long.
 */
export const ACCOUNTS_NS = "urn:t";

/** The root element's codec, made fresh (nothing met yet). */
export function accountCodecs() {
  const NS = ACCOUNTS_NS;
  const text = xmlTextCodec((t: string) => t);
  const c = new XmlCodecs([[NS, "t"]]);
  const sub = c.record(NS, "sub", "Sub", 0, () => [[0, NS, "v", "v", text]] as XmlFieldSpec[]);
  const account = c.record(NS, "account", "Account", 0, () =>
    [
      [0, NS, "billingCountryName", "billingCountryName", text],
      [0, NS, "subrecordOfTheAccount", "subrecordOfTheAccount", sub],
    ] as XmlFieldSpec[],
  );
  const list = c.record(NS, "list", "List", 0, () => [[8, NS, "account", "account", account]] as XmlFieldSpec[]);
  c.types([
    [NS, "account", account],
    [NS, "sub", sub],
  ]);
  return c.element(NS, "list", list, false);
}

/** An account whose second child is `<next>` (the record's name, or another) and whose first ends with `</close>`. */
export function account(next: string, close = "t:billingCountryName"): string {
  return `<t:account><t:billingCountryName>x</${close}><${next}><t:v>v</t:v></${next}></t:account>`;
}

/** The usual account: every name as the schema has it. */
export const USUAL_ACCOUNT = account("t:subrecordOfTheAccount");

export function accountList(...accounts: string[]): string {
  return `<t:list xmlns:t="${ACCOUNTS_NS}">${accounts.join("")}</t:list>`;
}
