import { apiMajor, SPEC_API_VERSION, USER_INFO_V40 } from "./api-version.js";
import type { GetUserInfoResult } from "../../generated/partner/index.js";
import type { ApprovalInstance } from "./approval.js";
import { Cursors } from "./query/cursors.js";
import type { SentEmail } from "./email.js";
import { loadFixture, type Fixture, type FixtureUser } from "./fixture.js";
import { makeId } from "./ids.js";
import { Schema } from "./schema.js";
import { RecordStore } from "./store.js";
import { checkValue, type Lexical } from "./values.js";

export interface EmulatorOptions {
  /** Default: default-fixture.json. */
  readonly fixture?: Fixture;
  /** The emulator's clock (tests may pin it). */
  readonly clock?: () => Date;
  /** Session lifetime in seconds (default 2 hours); an expired session is INVALID_SESSION_ID. */
  readonly sessionSeconds?: number;
}

export interface UserState {
  readonly id: string;
  readonly fixture: FixtureUser;
  password: string;
  passwordExpired: boolean;
}

export interface Session {
  readonly id: string;
  readonly userId: string;
  readonly expiresAt: number;
}

/** Everything the emulator holds in memory. One instance per emulator; handlers read and change it. */
export class PartnerState {
  readonly fixture: Fixture;
  readonly schema: Schema;
  readonly store = new RecordStore();
  readonly organizationId: string;
  readonly users: UserState[];
  readonly sessions = new Map<string, Session>();
  readonly cursors = new Cursors();
  /** Every email the emulator accepted, in order: what a test reads instead of a mailbox. */
  readonly outbox: SentEmail[] = [];
  readonly approvals: ApprovalInstance[] = [];
  readonly startedAt: string;
  readonly sessionSeconds: number;
  private readonly clock: () => Date;
  private sessionCounter = 0;
  private approvalCounter = 0;

  constructor(options: EmulatorOptions = {}) {
    this.fixture = options.fixture ?? loadFixture();
    this.clock = options.clock ?? (() => new Date());
    this.sessionSeconds = options.sessionSeconds ?? 7200;
    this.schema = new Schema(this.fixture);
    this.organizationId = this.fixture.organization.id ?? makeId("00D", 1);
    this.users = this.fixture.users.map((u, i) => ({
      id: u.id ?? makeId("005", i + 1),
      fixture: u,
      password: u.password,
      passwordExpired: u.passwordExpired ?? false,
    }));
    this.startedAt = this.now();
    this.loadRecords();
  }

  now(): string {
    return this.clock().toISOString();
  }

  nowMs(): number {
    return this.clock().getTime();
  }

  newSessionId(): string {
    // Unguessable enough for an emulator, and unique: a counter plus random bits.
    const random = Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, "0")).join("");
    return `${this.organizationId.slice(0, 15)}!${++this.sessionCounter}${random}`;
  }

  newApprovalIds(): { instanceId: string; workitemId: string } {
    const n = ++this.approvalCounter;
    return { instanceId: makeId("04g", n), workitemId: makeId("04i", n) };
  }

  user(id: string): UserState | undefined {
    return this.users.find((u) => u.id.slice(0, 15) === id.slice(0, 15));
  }

  /**
   * getUserInfo / LoginResult.userInfo. From API 40.0 on (by the endpoint path) it carries the four elements the
   * v40 WSDL requires and older ones do not declare; older clients never see them.
   */
  userInfo(user: UserState, apiVersion: string = SPEC_API_VERSION): GetUserInfoResult {
    const u = user.fixture;
    const v40 = apiMajor(apiVersion) >= USER_INFO_V40;
    return {
      accessibilityMode: false,
      ...(v40 ? { chatterExternal: false } : {}),
      currencySymbol: "$",
      ...(v40 ? { orgAttachmentFileSizeLimit: 5_242_880 } : {}),
      orgDefaultCurrencyIsoCode: "USD",
      ...(v40 ? { orgDefaultCurrencyLocale: "en_US" } : {}),
      orgDisallowHtmlAttachments: false,
      orgHasPersonAccounts: false,
      organizationId: this.organizationId,
      organizationMultiCurrency: false,
      organizationName: this.fixture.organization.name,
      profileId: u.profileId ?? makeId("00e", 1),
      roleId: u.roleId ?? null,
      ...(v40 ? { sessionSecondsValid: this.sessionSeconds } : {}),
      userDefaultCurrencyIsoCode: null,
      userEmail: u.email,
      userFullName: u.fullName,
      userId: user.id,
      userLanguage: u.language ?? "en_US",
      userLocale: u.locale ?? "en_US",
      userName: u.username,
      userTimeZone: u.timeZone ?? "UTC",
      userType: "Standard",
      userUiSkin: "Theme3",
    };
  }

  /** Fixture records: "$key" names a record, "@key" values refer to it (resolved after every id is known). */
  private loadRecords(): void {
    const keys = new Map<string, string>();
    const pending: { meta: NonNullable<ReturnType<Schema["object"]>>; id: string; record: Readonly<Record<string, unknown>> }[] = [];
    for (const o of this.fixture.objects) {
      const meta = this.schema.object(o.name)!;
      for (const record of o.records ?? []) {
        const id = this.store.newId(meta);
        const key = record["$key"];
        if (typeof key === "string") keys.set(key, id);
        pending.push({ meta, id, record });
      }
    }
    const now = this.now();
    for (const { meta, id, record } of pending) {
      const values = new Map<string, Lexical>();
      for (const [name, raw] of Object.entries(record)) {
        if (name === "$key") continue;
        const field = meta.byName.get(name.toLowerCase());
        if (!field || field.system) throw new Error(`fixture: ${meta.name} has no writable field ${name}`);
        const resolved = typeof raw === "string" && raw.startsWith("@") ? keys.get(raw.slice(1)) : raw;
        if (resolved === undefined) throw new Error(`fixture: unknown record key ${String(raw)}`);
        const checked = checkValue(field, resolved);
        if (!checked.ok) throw new Error(`fixture: ${meta.name}.${name}: ${checked.message}`);
        values.set(field.name, checked.value);
      }
      this.store.insert(meta, values, now, id);
    }
  }
}
