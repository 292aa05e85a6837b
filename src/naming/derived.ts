import type { SpecFormat } from "../ir/model.js";

/**
 * The roles of module-level functions and constants the emitters declare per named type (`isWebhook`,
 * `encodeWebhookJson`, `FooDefaults`, `toJsonStringFoo`). The naming pass gives each (type, role) its name once,
 * per document; emitters ask `names.derived(id, role)` and never build one from strings.
 */
export type DerivedRole =
  | "is" | "check" | "collect" | "validate" | "assert" | "revive" | "encodeJson" | "decodeJson"
  | "encode" | "decode" | "defaults" | "toJson" | "fromJson" | "toJsonString" | "fromJsonString" | "toText" | "fromText"
  | "read" | "write"
  /** XSD validate.ts: the module's check of a type, and of a record's xsi:type family (`check<AnyT>`). */
  | "checkFamily"
  /** XSD module-private helpers: a record's rule table (`rulesOf<T>`, validate.ts), a restriction's lexical pattern
   * check, its patterns and the writer that keeps them (`checkLexical<T>`, `checkLexical<T>Patterns`,
   * `writeLexical<T>`, xml.ts). */
  | "rules" | "checkLexical" | "lexicalPatterns" | "writeLexical";

/** How a role's wanted name is spelled: prefix + type name (without its keyword `$` when `stem`) + suffix. */
interface RolePattern {
  readonly role: DerivedRole;
  readonly prefix: string;
  readonly suffix: string;
  readonly stem?: boolean;
}

const p = (role: DerivedRole, prefix: string, suffix = "", stem = false): RolePattern => ({ role, prefix, suffix, stem });

/**
 * Roles claimed together with the type name: a type is only named `T` when every one of these is free as well (not
 * another type's, not an operation's). Emitters that add a per-type function add its role here or in LATE.
 */
const WITH_TYPE: Record<SpecFormat, readonly RolePattern[]> = {
  // validate.ts (is/check/collect/validate/assert) and json.ts (encode/decode ...Json, revive).
  openapi: [p("is", "is", "", true), p("check", "check", "", true), p("collect", "collect", "", true), p("validate", "validate", "", true), p("assert", "assert", "", true), p("revive", "revive", "", true), p("encodeJson", "encode", "Json", true), p("decodeJson", "decode", "Json", true)],
  // protobuf.ts and validate.ts.
  proto: [p("encode", "encode", "", true), p("decode", "decode", "", true), p("validate", "validate", "", true)],
  // xml.ts record readers/writers and validate.ts (whose validators are named after the type without its `$`).
  wsdl: [p("read", "read"), p("write", "write"), p("validate", "validate", "", true)],
  xsd: [p("read", "read"), p("write", "write"), p("validate", "validate", "", true)],
};

/**
 * Roles claimed after every type, operation and service name, role by role in declaration order: on a clash with
 * any name claimed before (a type `FooDefaults`, `StringFoo`'s `toJsonStringFoo`) the later one takes "_2", "_3"...
 * A type's name never changes for these.
 */
const LATE: Record<SpecFormat, readonly RolePattern[]> = {
  openapi: [],
  proto: [
    p("defaults", "", "Defaults", true),
    // Value functions before text conveniences: `toJson<StringFoo>` keeps `toJsonStringFoo`, and `Foo`'s
    // `toJsonString` becomes `toJsonStringFoo_2`.
    p("toJson", "toJson"), p("fromJson", "fromJson"), p("toJsonString", "toJsonString"), p("fromJsonString", "fromJsonString"),
    p("toText", "toText"), p("fromText", "fromText"),
  ],
  // validate.ts's module-internal checks (`check<T>`; the family's `check<AnyT>` is claimed with the family name),
  // then module-private helpers: validate.ts's rule tables, xml.ts's lexical pattern checks.
  wsdl: [p("check", "check"), p("rules", "rulesOf"), p("checkLexical", "checkLexical"), p("lexicalPatterns", "checkLexical", "Patterns"), p("writeLexical", "writeLexical")],
  xsd: [p("check", "check"), p("rules", "rulesOf"), p("checkLexical", "checkLexical"), p("lexicalPatterns", "checkLexical", "Patterns"), p("writeLexical", "writeLexical")],
};

function spell(pattern: RolePattern, typeName: string): string {
  return `${pattern.prefix}${pattern.stem ? typeName.replace(/\$$/, "") : typeName}${pattern.suffix}`;
}

/** The names claimed with a type name, by role. */
export function derivedWithType(format: SpecFormat, typeName: string): [DerivedRole, string][] {
  return WITH_TYPE[format].map((r) => [r.role, spell(r, typeName)]);
}

/** The roles claimed after all other names, with their wanted names. */
export function derivedLate(format: SpecFormat): readonly { role: DerivedRole; wanted: (typeName: string) => string }[] {
  return LATE[format].map((r) => ({ role: r.role, wanted: (typeName: string) => spell(r, typeName) }));
}

/** Every role a format's types have. */
export function derivedRoles(format: SpecFormat): readonly DerivedRole[] {
  return [...WITH_TYPE[format], ...LATE[format]].map((r) => r.role);
}

/** The names derived from a type name (claimed with it). */
export function derivedFunctionNames(format: SpecFormat, typeName: string): string[] {
  return derivedWithType(format, typeName).map(([, n]) => n);
}

/**
 * Names generated modules declare for themselves at module level (compiled patterns, value sets, the prototype
 * alias in validate.ts). A type imported under one of these names would collide with the declaration.
 */
export function isModuleInternalName(name: string): boolean {
  return /^(PATTERN|VALUES)_\d+$/.test(name) || name === "OBJECT_PROTOTYPE";
}
