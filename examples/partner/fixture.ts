import { readFileSync } from "node:fs";
import path from "node:path";
import type { FieldType } from "../../generated/partner/index.js";

/**
 * The emulator's starting data: organization, users, object types with their fields, and records. The default
 * fixture is default-fixture.json; `--fixture <file>` loads another one of the same shape (see README.md).
 */
export interface Fixture {
  /** The organization id is generated (prefix 00D) when not given. */
  readonly organization: { readonly id?: string; readonly name: string };
  readonly users: readonly FixtureUser[];
  readonly limits?: FixtureLimits;
  readonly objects: readonly FixtureObject[];
}

export interface FixtureLimits {
  /** Single-email recipients (to + cc + bcc) the emulator accepts per day; over it: LIMIT_EXCEEDED per message. */
  readonly dailyEmailRecipients?: number;
  /** Default QueryOptions.batchSize; a header may ask for 1..2000. */
  readonly defaultBatchSize?: number;
}

export interface FixtureUser {
  /** Generated (prefix 005, in fixture order) when not given. */
  readonly id?: string;
  readonly username: string;
  readonly password: string;
  readonly fullName: string;
  readonly email: string;
  readonly profileId?: string;
  readonly roleId?: string;
  readonly language?: string;
  readonly locale?: string;
  readonly timeZone?: string;
  readonly passwordExpired?: boolean;
}

export interface FixtureField {
  readonly name: string;
  readonly label?: string;
  readonly type: FieldType;
  readonly length?: number;
  /** Required on create (nillable false). */
  readonly required?: boolean;
  readonly createable?: boolean;
  readonly updateable?: boolean;
  readonly externalId?: boolean;
  readonly referenceTo?: readonly string[];
  readonly picklistValues?: readonly string[];
}

export interface FixtureObject {
  readonly name: string;
  readonly label?: string;
  readonly labelPlural?: string;
  /** Three characters that start every id of this type. */
  readonly keyPrefix: string;
  readonly fields: readonly FixtureField[];
  /**
   * Records: field name -> value (lexical form, as on the wire). "$key" names a record so others can refer to it:
   * a string value "@name" becomes that record's id.
   */
  readonly records?: readonly Readonly<Record<string, string | number | boolean | null>>[];
}

const here = path.dirname(new URL(import.meta.url).pathname);

export const DEFAULT_FIXTURE_FILE = path.join(here, "default-fixture.json");

/** Read and sanity-check a fixture file; a bad file fails loudly at start-up, not on the first request. */
export function loadFixture(file: string = DEFAULT_FIXTURE_FILE): Fixture {
  const data = JSON.parse(readFileSync(file, "utf8")) as Fixture;
  const problems: string[] = [];
  if (!data.organization?.name) problems.push("organization.name is required");
  if (!Array.isArray(data.users) || data.users.length === 0) problems.push("users: at least one user is required");
  if (!Array.isArray(data.objects)) problems.push("objects: an array is required");
  const prefixes = new Set<string>();
  for (const o of data.objects ?? []) {
    if (!/^[a-zA-Z0-9]{3}$/.test(o.keyPrefix ?? "")) problems.push(`${o.name}: keyPrefix must be 3 alphanumerics`);
    if (prefixes.has(o.keyPrefix)) problems.push(`${o.name}: keyPrefix ${o.keyPrefix} is used twice`);
    prefixes.add(o.keyPrefix);
    if (!Array.isArray(o.fields)) problems.push(`${o.name}: fields must be an array`);
  }
  if (problems.length > 0) throw new Error(`invalid fixture ${file}:\n  ${problems.join("\n  ")}`);
  return data;
}
