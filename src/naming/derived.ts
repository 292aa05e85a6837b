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

/**
 * The second spelling of a late role, tried when its first is taken, before any number: the role's words, "Of",
 * then the type name (`toJsonStringOfValue` for `Value` when `toJsonStringValue` is `StringValue`'s `toJson`;
 * `DefaultsOfFoo` when a message is named `FooDefaults`). Concatenating a prefix and a type name is ambiguous
 * exactly when one type name ends another; "Of" marks where the type name starts, so the name says whose it is.
 * None for a role whose words already end in "Of" (`rulesOf`).
 */
function spellOf(pattern: RolePattern, typeName: string): string | undefined {
  if (pattern.prefix.endsWith("Of")) return undefined;
  const words = `${pattern.prefix}${pattern.suffix}`;
  return `${words}Of${stemOf(typeName)}`;
}

/** The names claimed with a type name, by role. */
export function derivedWithType(format: SpecFormat, typeName: string): [DerivedRole, string][] {
  return WITH_TYPE[format].map((r) => [r.role, spell(r, typeName)]);
}

/** The roles claimed after all other names, with their wanted names and the spelling tried next (see spellOf). */
export function derivedLate(format: SpecFormat): readonly { role: DerivedRole; wanted: (typeName: string) => string; alternative: (typeName: string) => string | undefined }[] {
  return LATE[format].map((r) => ({ role: r.role, wanted: (typeName: string) => spell(r, typeName), alternative: (typeName: string) => spellOf(r, typeName) }));
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

/** A name without the naming pass's keyword mark (`Error$` -> `Error`), for use inside a longer name. */
export function stemOf(name: string): string {
  return name.replace(/\$$/, "");
}

function lowerFirst(name: string): string {
  return name.charAt(0).toLowerCase() + name.slice(1);
}

/**
 * A simple English plural for generated function names ("Entry" -> "Entries", "Status" -> "Statuses",
 * "Item" -> "Items"). Only the common rules: a name it gets wrong is still a valid, unique identifier.
 */
export function plural(name: string): string {
  if (/[^aeiou]y$/i.test(name)) return `${name.slice(0, -1)}ies`;
  if (/(s|x|z|ch|sh)$/i.test(name)) return `${name}es`;
  return `${name}s`;
}

/**
 * How the naming pass spells every name it composes from another one (a service's, a claimed client's, an
 * operation's, an element's, a type's). Only src/naming uses these: emitters ask `Names` for the result.
 */
export const SPELL = {
  // HTTP and SOAP services (`base` is the operations interface's name without "Operations").
  client: (base: string) => `${base}Client`,
  handlers: (base: string) => `${base}Handlers`,
  server: (base: string) => `${base}Server`,
  create: (claimed: string) => `create${claimed}`,
  resultOf: (client: string) => `ResultOf${client}`,
  inputOf: (handlers: string) => `InputOf${handlers}`,
  operations: (base: string) => `${base}Operations`,
  // SOAP only: the faults interface, the fault factory, the descriptor and RPC message tables.
  faults: (base: string) => `${base}Faults`,
  fault: (base: string) => lowerFirst(`${base}Fault`),
  faultNamespaces: (faults: string) => `${lowerFirst(faults)}Namespaces`,
  descriptor: (base: string) => lowerFirst(`${base}Descriptor`),
  serverMessages: (base: string) => lowerFirst(`${base}Messages`),
  clientBinding: (client: string) => `${lowerFirst(client)}Binding`,
  clientMessages: (client: string) => `${lowerFirst(client)}Messages`,
  // Plugin files (not re-exported by the index), from the claimed client name without "Client" (`WebhooksAPI`).
  queries: (clientStem: string) => `${lowerFirst(clientStem)}Queries`,
  mockHandlers: (clientStem: string) => `${lowerFirst(clientStem)}MockHandlers`,
  mswHandlers: (clientStem: string) => `${lowerFirst(clientStem)}MswHandlers`,
  // Proto services (connect.ts).
  implementation: (base: string) => `${base}Implementation`,
  createClient: (base: string) => `create${base}Client`,
  createHandler: (base: string) => `create${base}Handler`,
  procedure: (base: string, method: string) => `${lowerFirst(base)}${method.replace(/[^A-Za-z0-9_$]/g, "_")}Procedure`,
  // HTTP operations (`stem` is the PascalCase method name).
  parseParameters: (stem: string) => `parse${stem}Parameters`,
  decodeForm: (stem: string) => `decode${stem}Form`,
  decodeMultipart: (stem: string) => `decode${stem}Multipart`,
  validateResponse: (stem: string) => `validate${stem}Response`,
  // XSD global elements.
  encodeElement: (stem: string) => `encode${stem}Element`,
  decodeElement: (stem: string) => `decode${stem}Element`,
  // Per type, not roles of derived.ts's tables.
  family: (stem: string) => `Any${stem}`,
  enumValues: (stem: string) => `${stem}Values`,
  standardSchema: (stem: string) => `${stem}Schema`,
  extensions: (stem: string) => `${stem}Extensions`,
  anonymousElement: (stem: string) => `${stem}Element`,
  checkFamily: (family: string) => `check${family}`,
  // Feeds (feed.ts): per page message P with items I.
  fetchPage: (page: string) => `fetch${page}`,
  iterateItems: (item: string) => `iterate${plural(item)}`,
  servePages: (page: string) => `serve${plural(page)}`,
  pageParts: (page: string) => `${lowerFirst(page)}PageParts`,
} as const;

/**
 * Module-private helpers per type, named in each module's own scope (ModuleScope, src/naming/module-scope.ts):
 * protobuf.ts's readers, writers and enum tables, validate.ts's checks, prototext.ts's tables, the HTTP codec
 * constants of connect.ts and feed.ts.
 */
export type HelperRole = "read" | "write" | "readEntry" | "nameOf" | "numberOf" | "fieldNames" | "check" | "isEnum" | "text" | "codec";

const HELPERS: Record<HelperRole, (stem: string, extra: string) => string> = {
  read: (t) => `read${t}`,
  write: (t) => `write${t}`,
  // A map field's entry reader: `read<T><Field>Entry`.
  readEntry: (t, field) => `read${t}${field.charAt(0).toUpperCase()}${field.slice(1)}Entry`,
  nameOf: (t) => `nameOf${t}`,
  numberOf: (t) => `numberOf${t}`,
  fieldNames: (t) => `fieldNamesOf${t}`,
  check: (t) => `check${t}`,
  isEnum: (t) => `is${t}`,
  text: (t) => `text${t}`,
  codec: (t) => `${lowerFirst(t)}Codec`,
};

/** The wanted name of a module-private helper of the type named `typeName`. */
export function helperName(role: HelperRole, typeName: string, extra = ""): string {
  return HELPERS[role](stemOf(typeName), extra);
}

/**
 * The helpers a module exports for the modules of other input files that import it (src/emitters/modules.ts).
 * Spelled `$` + role + the full type name (`$readEntry`, `$checkError$`): the naming pass never hands out a name
 * starting with `$`, so these cannot clash with anything a spec names, and the importing module knows the name from
 * the type's name alone.
 */
export type SharedRole = "read" | "write" | "check" | "text" | "jsonRead" | "enumTable" | SharedDerivedRole;

/** OpenAPI modules share their per-type functions under `$` + the function's own name (`$isMoney`, `$reviveMoney`). */
export type SharedDerivedRole = "is" | "collect" | "revive";

export function isSharedDerivedRole(role: SharedRole): role is SharedDerivedRole {
  return role === "is" || role === "collect" || role === "revive";
}

/** The shared name of a per-type function named `derivedName` by the naming pass. */
export function sharedDerivedName(derivedName: string): string {
  return `$${derivedName}`;
}

const SHARED: Record<Exclude<SharedRole, SharedDerivedRole>, (typeName: string) => string> = {
  read: (t) => `$read${t}`,
  write: (t) => `$write${t}`,
  check: (t) => `$check${t}`,
  text: (t) => `$text${t}`,
  jsonRead: (t) => `$${jsonHelperName("jsonRead", t)}`,
  enumTable: (t) => `$${jsonHelperName("enumTable", t)}`,
};

/** The name under which a module exports a type's helper to other modules. */
export function sharedHelperName(role: Exclude<SharedRole, SharedDerivedRole>, typeName: string): string {
  return SHARED[role](typeName);
}

/**
 * protojson.ts's module-internal reader and enum table of a type: `read$T`, `enum$T` (a `$` inside: no name the
 * naming pass hands out has one there, so these are unique because type names are).
 */
export function jsonHelperName(role: "jsonRead" | "enumTable", typeName: string): string {
  return role === "jsonRead" ? `read$${typeName}` : `enum$${typeName}`;
}

/**
 * The name a module exports one of its own tables (its ProtoJSON registry, its text-format types) under for the
 * modules that import it: `$`, the table's name, `$`, and the module's folder, since a module may import several.
 */
export function moduleTableName(table: string, dir: string): string {
  return `$${table}$${dir.replace(/[^A-Za-z0-9]/g, (c) => `_${c.charCodeAt(0).toString(16)}_`)}`;
}
