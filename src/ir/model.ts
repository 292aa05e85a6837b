/**
 * The specforge intermediate representation (IR).
 *
 * Every parser lowers its format's AST into this one model; every emitter reads only this model.
 * Conventions:
 *  - Discriminated unions on `kind`; everything is plain data (JSON-serialisable, see `specforge inspect --ir`).
 *  - Named types are referenced by `TypeId`, never by object identity, so the IR can be printed and diffed.
 *  - Names are *source* names (as written in the spec). TypeScript identifiers are chosen later by the naming pass.
 *  - Every node that came from the spec carries an `Origin` so errors and doc comments can name where it came from.
 *  - Numeric facet bounds are strings so that decimals and 64-bit values stay exact.
 *
 * TypeId conventions (opaque to emitters, but stable and readable):
 *  - XSD:     "xsd:{namespace}localName"          (complex and simple types; anonymous types get a synthesized
 *                                                  local name such as "{ns}Parent.child" and `anonymous: true`)
 *  - proto:   "proto:.package.Message.Nested"     (fully qualified proto name with a leading dot)
 *  - OpenAPI: "openapi:<file>#/json/pointer"      (the schema's location; inline schemas get their own pointer)
 * ElementId (XSD global elements): "xsd-element:{namespace}localName".
 */

/** Where a node was declared. `pointer` is an XPath (XML), a proto path (".pkg.Msg.field") or a JSON pointer. */
export interface Origin {
  readonly file: string;
  readonly line: number;
  readonly column: number;
  readonly pointer: string;
  /** Human description used in doc comments, e.g. "xsd complexType {urn:partner}SaveResult". */
  readonly construct: string;
}

export type TypeId = string;
export type ElementId = string;

export interface QName {
  readonly ns: string;
  readonly local: string;
}

export type ScalarKind =
  | "string"
  | "boolean"
  | "int32"
  | "int64"
  | "uint32"
  | "uint64"
  | "sint32"
  | "sint64"
  | "fixed32"
  | "fixed64"
  | "sfixed32"
  | "sfixed64"
  | "float"
  | "double"
  /** Exact decimal (xsd:decimal); carried as a string. */
  | "decimal"
  /** Arbitrary-precision integer (xsd:integer and its unbounded derivations); carried as a bigint. */
  | "integer"
  | "bytes"
  | "date"
  | "dateTime"
  | "time"
  | "duration"
  | "anyURI"
  | "QName"
  /** Anything at all (xsd:anyType, a schema without constraints); the only scalar emitted as `unknown`. */
  | "any";

/** Value constraints. Every facet is optional; a record of them so validators handle them in one place. */
export interface Facets {
  /** Each entry must match (XSD: patterns of one derivation step are already joined with `|`). Source syntax. */
  readonly patterns?: readonly string[];
  /**
   * Patterns no JavaScript RegExp can express (OpenAPI documents written for another engine, with constructs specforge
   * cannot translate): kept for doc comments, never checked. Each was a located warning of the parser.
   */
  readonly uncheckedPatterns?: readonly string[];
  readonly length?: number;
  readonly minLength?: number;
  readonly maxLength?: number;
  readonly minInclusive?: string;
  readonly maxInclusive?: string;
  readonly minExclusive?: string;
  readonly maxExclusive?: string;
  readonly totalDigits?: number;
  readonly fractionDigits?: number;
  readonly multipleOf?: string;
  /** Allowed values of a restricted scalar that was not promoted to an `enum` type. */
  readonly enumeration?: readonly string[];
  /** OpenAPI / JSON Schema `format` (date, date-time, email, uri, ...). */
  readonly format?: string;
  readonly whiteSpace?: "preserve" | "replace" | "collapse";
  /** Array bounds for `list` types (JSON arrays, xsd:list). Element repetition uses `Occurs` instead. */
  readonly minItems?: number;
  readonly maxItems?: number;
  readonly uniqueItems?: boolean;
}

/** Type expressions: what a field, part, parameter or alias holds. */
export type TypeExpr = ScalarType | RefType | ListType | MapType | UnionExpr | LiteralType;

export interface ScalarType {
  readonly kind: "scalar";
  readonly scalar: ScalarKind;
  /** The builtin as the spec named it, when it says more than `scalar` (e.g. "xsd:token", "xsd:unsignedShort"). */
  readonly builtin?: string;
}

export interface RefType {
  readonly kind: "ref";
  readonly id: TypeId;
}

/** A value that is itself a list: a JSON array, an xsd:list. (Repeated XML elements and repeated proto fields use
 * `Occurs` on the field instead.) */
export interface ListType {
  readonly kind: "list";
  readonly of: TypeExpr;
  readonly facets?: Facets;
}

export interface MapType {
  readonly kind: "map";
  readonly key: TypeExpr;
  readonly value: TypeExpr;
}

/** An anonymous union of alternatives: xsd:union, OpenAPI type arrays or inline oneOf/anyOf without discriminator. */
export interface UnionExpr {
  readonly kind: "union";
  readonly of: readonly TypeExpr[];
}

/** A single fixed value (JSON Schema `const`, an XSD `fixed` turned into a type). */
export interface LiteralType {
  readonly kind: "literal";
  readonly value: string | number | boolean | null;
}

/** How many times an element/field may occur. `max: "unbounded"` or a number (maxOccurs="100" is a bounded list). */
export interface Occurs {
  readonly min: number;
  readonly max: number | "unbounded";
}

export interface XmlFieldHint {
  readonly kind: "element" | "attribute" | "text";
  readonly ns: string;
  readonly form: "qualified" | "unqualified";
  /** Set when the field was declared via `ref="..."` to a global element. */
  readonly ref?: ElementId;
}

export interface ProtoFieldHint {
  readonly number: number;
  readonly label: "optional" | "required" | "repeated" | "implicit";
  readonly packed?: boolean;
  readonly group?: boolean;
  /** proto2 `[default = ...]`, as written in the .proto (string literals unescaped). */
  readonly default?: string;
  readonly jsonName: string;
  readonly jstype?: "JS_NORMAL" | "JS_STRING" | "JS_NUMBER";
  /**
   * Whether decoding checks this string field's UTF-8 (editions: the resolved features.utf8_validation). Absent:
   * the file's syntax decides (proto3 checks, proto2 does not).
   */
  readonly validateUtf8?: boolean;
  /** Options other than the ones above, by name as written (custom options keep their parentheses). */
  readonly options?: Readonly<Record<string, string | number | boolean>>;
  /** protovalidate `(buf.validate.field)` and protoc-gen-validate `(validate.rules)` options, in order. */
  readonly rules?: readonly ProtoRuleOption[];
}

/**
 * A validation option as written: `(buf.validate.field).string.min_len = 3` is extension "buf.validate.field", path
 * ["string", "min_len"], value 3. Aggregates (`= { min_len: 3 }`) are parsed as text format. Kept structured so
 * that repeated settings (several `.cel = {...}`) are not lost; the validators emitter gives them meaning.
 */
export interface ProtoRuleOption {
  /** The extension's full name without a leading dot: buf.validate.field / .message / .oneof, validate.rules, ... */
  readonly extension: string;
  readonly path: readonly string[];
  readonly value: ProtoOptionValue;
  /** Where the value is written (the entry .proto's folder-relative file, 1-based line and column). */
  readonly file: string;
  readonly line: number;
  readonly column: number;
}

/** A text-format value: scalars as written (numbers keep their text, so 64-bit bounds stay exact). */
export type ProtoOptionValue =
  | { readonly kind: "ident"; readonly text: string }
  | { readonly kind: "number"; readonly text: string }
  /** `value` decoded as UTF-8; `bytes` one char per byte (for bytes rules). */
  | { readonly kind: "string"; readonly value: string; readonly bytes: string }
  | { readonly kind: "message"; readonly fields: readonly ProtoOptionEntry[] }
  | { readonly kind: "list"; readonly items: readonly ProtoOptionValue[] };

export interface ProtoOptionEntry {
  readonly name: string;
  readonly value: ProtoOptionValue;
  readonly line: number;
  readonly column: number;
}

export interface JsonFieldHint {
  readonly key: string;
  readonly readOnly?: boolean;
  readonly writeOnly?: boolean;
}

export interface WireHints {
  readonly xml?: XmlFieldHint;
  readonly proto?: ProtoFieldHint;
  readonly json?: JsonFieldHint;
}

/** A field of a record. `occurs.min === 0` means optional; `nullable` (xsi:nil, JSON null) is independent. */
export interface Field {
  readonly kind: "field";
  readonly name: string;
  readonly type: TypeExpr;
  readonly occurs: Occurs;
  readonly nullable: boolean;
  readonly facets?: Facets;
  readonly default?: string;
  readonly fixed?: string;
  /** XSD element `block` (or blockDefault): derivations an xsi:type may not use, "e" extension, "r" restriction. */
  readonly block?: string;
  readonly deprecated?: boolean;
  readonly doc?: string;
  /** Example values written on the property's schema. */
  readonly examples?: readonly Example[];
  readonly origin: Origin;
  readonly wire: WireHints;
}

/**
 * A group of alternatives or a nested group inside a record: xsd:choice / nested xsd:sequence / xsd:all,
 * and proto `oneof` (with `oneofName`).
 */
export interface Group {
  readonly kind: "group";
  readonly compositor: "choice" | "sequence" | "all";
  readonly name?: string;
  readonly occurs: Occurs;
  readonly members: readonly Member[];
  /**
   * XSD: this choice stands for a reference to a substitution group head (§3.3.6): its members are the head (unless
   * abstract) and every element that may substitute for it, each with its own declaration.
   */
  readonly substitutionHead?: QName;
  readonly doc?: string;
  readonly origin: Origin;
  /** proto oneof name; when set this group is a oneof and emitted as a discriminated union by case. */
  readonly oneofName?: string;
  /** proto: `(buf.validate.oneof)` / `(validate.required)` options of the oneof. */
  readonly protoRules?: readonly ProtoRuleOption[];
}

/** Open content: xsd:any (elements from other vocabularies). */
export interface OpenContent {
  readonly kind: "any";
  readonly name: string;
  /** The namespace constraint as written: "##any", "##other", "##local", "##targetNamespace" or a URI list. */
  readonly namespace: string;
  readonly processContents: "strict" | "lax" | "skip";
  readonly occurs: Occurs;
  readonly origin: Origin;
}

export type Member = Field | Group | OpenContent;

interface NamedTypeBase {
  readonly id: TypeId;
  /** Source name (local name for XSD, simple name for proto, schema key for OpenAPI). */
  readonly name: string;
  /** Namespace, proto package or OpenAPI file, to keep same-named types apart. */
  readonly scope: string;
  readonly doc?: string;
  readonly deprecated?: boolean;
  /** True for types the spec declared inline (anonymous XSD types, inline OpenAPI schemas, proto groups). */
  readonly anonymous?: boolean;
  /**
   * The schema behind this type also admits null (OpenAPI `nullable: true`, `type: [..., "null"]`, a null enum
   * value, a null oneOf variant). The declared TypeScript type stays the non-null shape (an interface cannot be
   * `| null`); every use of the type is nullable (fields, items, bodies carry their own `nullable`), and the type's
   * own validator and codecs take `T | null`. A flag rather than an alias to `T | null`, so records keep their name
   * for inheritance and there is no extra synthesized type.
   */
  readonly nullable?: boolean;
  /**
   * Validation the type's shape does not express (JSON Schema `not`, `if`, `patternProperties`, `contains`...): every
   * check must hold besides the shape. The declared TypeScript type is then wider than the set of valid values (its
   * doc comment says so); validators check these exactly. Absent when there are none.
   */
  readonly checks?: readonly ValueCheck[];
  /** Example values of the schema behind this type (see Example); absent when there are none. */
  readonly examples?: readonly Example[];
  readonly origin: Origin;
}

/**
 * An example value the spec gives (OpenAPI `example`, `examples`, Swagger 2.0 `x-example` and response `examples`),
 * kept with where it was written. Examples are documentation: they are not checked against the schema (a spec's
 * example may be wrong), so consumers that need a valid value (the mock server) validate before using one.
 */
export interface Example {
  /** The key in an `examples` map (media types, parameters), absent for a single `example` or a schema's list. */
  readonly name?: string;
  readonly summary?: string;
  readonly value: JsonData;
  readonly origin: Origin;
}

/** A JSON value as the spec wrote it (enum and const values compared structurally). */
export type JsonData = null | boolean | number | string | readonly JsonData[] | { readonly [key: string]: JsonData };

/**
 * One extra validation rule of a named type (see NamedTypeBase.checks). Sub-schemas are type expressions, usually
 * references to named types (which may carry checks of their own). Object and array rules hold for any value of
 * another JSON kind, as in JSON Schema.
 */
export type ValueCheck =
  /** The value also matches this type (an `allOf` part, keywords written beside `anyOf`/`oneOf`/`$ref`). */
  | { readonly kind: "matches"; readonly type: TypeExpr }
  | { readonly kind: "not"; readonly type: TypeExpr }
  /** `if`/`then`/`else`: a value matching `if` must match `then`, any other must match `else` (absent: anything). */
  | { readonly kind: "conditional"; readonly if: TypeExpr; readonly then?: TypeExpr; readonly else?: TypeExpr }
  /**
   * `oneOf` (exactly one) or `anyOf` (at least one) that the shape does not already express. `atMostOne`: the shape
   * is an untagged union of the same alternatives, which already requires at least one, so this check only adds
   * "not several" (and a value matching none is reported once, by the union).
   */
  | { readonly kind: "oneOf" | "anyOf"; readonly of: readonly TypeExpr[]; readonly atMostOne?: boolean }
  /** `enum`/`const` with array or object values (deep JSON equality), or `enum: []` (no value). */
  | { readonly kind: "equals"; readonly values: readonly JsonData[] }
  /** The `false` schema: no value at all. */
  | { readonly kind: "never" }
  | ObjectCheck
  | ArrayCheck
  | UnevaluatedCheck;

/** Object keywords beyond a record's or map's shape; every other JSON kind passes. */
export interface ObjectCheck {
  readonly kind: "object";
  readonly minProperties?: number;
  readonly maxProperties?: number;
  readonly required?: readonly string[];
  readonly propertyNames?: TypeExpr;
  /** Values of keys matching a pattern (source syntax, unanchored) must match its type. */
  readonly patternProperties?: readonly { readonly pattern: string; readonly type: TypeExpr }[];
  /**
   * `additionalProperties` beside `patternProperties`: values of keys neither in `known` nor matching a pattern must
   * match `type` (the shape then leaves them unchecked).
   */
  readonly additional?: { readonly known: readonly string[]; readonly type: TypeExpr };
  /** `dependentRequired`: when `key` is present, so must each of `required` be. */
  readonly dependentRequired?: readonly { readonly key: string; readonly required: readonly string[] }[];
  /** `dependentSchemas`: when `key` is present, the whole object must match `type`. */
  readonly dependentSchemas?: readonly { readonly key: string; readonly type: TypeExpr }[];
}

/** Array keywords beyond a list's shape; every other JSON kind passes. */
export interface ArrayCheck {
  readonly kind: "array";
  readonly minItems?: number;
  readonly maxItems?: number;
  readonly uniqueItems?: boolean;
  /** `prefixItems` (or a tuple `items: [...]`): item i must match prefix[i]. */
  readonly prefix?: readonly TypeExpr[];
  /** Items after the prefix (`items` beside `prefixItems`, `additionalItems` beside a tuple). */
  readonly rest?: TypeExpr;
  /** `contains`: between `min` (default 1) and `max` items match `type`. */
  readonly contains?: { readonly type: TypeExpr; readonly min: number; readonly max?: number };
}

/**
 * `unevaluatedProperties` / `unevaluatedItems` (JSON Schema 2020-12): every property (item) of an object (array) that
 * no keyword of the schema evaluated, at the value's own location, must match `allowed` (`false`: there must be
 * none). What the schema evaluates depends on the value (an `anyOf` branch counts only when it holds), so it is
 * described by `evaluated`, read from the schema as written (the shape may have merged or reordered its parts).
 * Every other JSON kind passes.
 */
export interface UnevaluatedCheck {
  readonly kind: "unevaluated";
  readonly of: "properties" | "items";
  readonly allowed: TypeExpr | false;
  readonly evaluated: Evaluated;
}

/**
 * What a schema evaluates of an object's properties or an array's items (its annotations, for `unevaluated*`), given
 * that the schema holds for the value: its own keywords, its `allOf` parts and `$ref` targets (which hold whenever
 * it does) merged in, and the subschemas that may or may not hold (`anyOf`/`oneOf` branches, `if`, `dependentSchemas`)
 * under `when`. `not` evaluates nothing.
 */
export interface Evaluated {
  /** Everything is evaluated: `additionalProperties`, `items`, or a nested `unevaluated*`. */
  readonly all?: boolean;
  /** Objects: the names `properties` declares. */
  readonly properties?: readonly string[];
  /** Objects: keys matching one of these `patternProperties` patterns (source syntax, unanchored). */
  readonly patterns?: readonly string[];
  /** Arrays: the first `prefix` items (`prefixItems`). */
  readonly prefix?: number;
  /** Arrays: the items matching one of these (`contains`). */
  readonly contains?: readonly TypeExpr[];
  readonly when?: readonly EvaluatedWhen[];
}

/** Evaluations that count only for some values. */
export type EvaluatedWhen =
  /** `then` when the value matches `type` (an anyOf/oneOf branch, an `if` with its `then`), else `else`. */
  | { readonly kind: "matches"; readonly type: TypeExpr; readonly then: Evaluated; readonly else?: Evaluated }
  /** `dependentSchemas`: `then` when the object has the property `key`. */
  | { readonly kind: "present"; readonly key: string; readonly then: Evaluated };

export interface RecordType extends NamedTypeBase {
  readonly kind: "record";
  readonly members: readonly Member[];
  readonly base?: { readonly id: TypeId; readonly derivation: "extension" | "restriction" };
  readonly abstract?: boolean;
  /** XSD complexType `block` (or blockDefault): its prohibited substitutions, "e" extension, "r" restriction. */
  readonly block?: string;
  /** Attribute wildcard (xsd:anyAttribute). */
  readonly anyAttribute?: { readonly namespace: string; readonly processContents: "strict" | "lax" | "skip" };
  /** JSON additionalProperties: `false` forbids, a type allows them with that value type. Absent = unspecified. */
  readonly additionalProperties?: false | TypeExpr;
  /** xsd:complexType mixed="true". */
  readonly mixed?: boolean;
  /**
   * XSD: the content model is a once-occurring xsd:all, flattened into `members` as a top-level sequence is: its
   * elements may come in any order (the codecs do not check their order).
   */
  readonly allContent?: boolean;
  /**
   * A restriction's use="prohibited" attributes, as `{ns}local`: the base's attributes it does not restate are
   * inherited (XSD 1.0 3.4.2, {attribute uses}), except these.
   */
  readonly prohibitedAttributes?: readonly string[];
  /**
   * A restriction of soapenc:Array whose one member is the repeated item: under use="encoded" it is written as a
   * SOAP-ENC array (soapenc:arrayType) and its items are read whatever their element name.
   */
  readonly soapEncArray?: boolean;
  /** proto: extension ranges declared on the message. */
  readonly extensionRanges?: readonly { readonly from: number; readonly to: number }[];
  /** proto: reserved numbers and names. */
  readonly reserved?: { readonly ranges: readonly { readonly from: number; readonly to: number }[]; readonly names: readonly string[] };
  /** proto: this message is a map entry / group body. */
  readonly protoGroup?: boolean;
  /** proto: `(buf.validate.message)` / `(validate.disabled)` / `(validate.ignored)` options of the message. */
  readonly protoRules?: readonly ProtoRuleOption[];
}

export interface EnumValue {
  /** The name as written (proto enum value name, XSD/JSON value itself). */
  readonly name: string;
  /** The wire value: XML lexical form / JSON value. */
  readonly value: string | number | boolean | null;
  /** proto number. */
  readonly number?: number;
  readonly doc?: string;
  readonly deprecated?: boolean;
  readonly origin: Origin;
}

export interface EnumType extends NamedTypeBase {
  readonly kind: "enum";
  readonly base: ScalarType;
  readonly values: readonly EnumValue[];
  /** proto: `allow_alias`; aliases have the same number as an earlier value. */
  readonly allowAlias?: boolean;
  /** proto2 enums are closed (unknown values are unknown fields), proto3 enums are open. */
  readonly closed?: boolean;
}

export interface UnionVariant {
  readonly name: string;
  readonly type: TypeExpr;
  /** The tag that selects this variant: xsi:type name, discriminator value, oneof case. */
  readonly tag?: string;
}

/** A polymorphic family: XSD extension + xsi:type, OpenAPI oneOf/anyOf (+ discriminator). */
export interface UnionType extends NamedTypeBase {
  readonly kind: "union";
  readonly variants: readonly UnionVariant[];
  readonly discriminator:
    | { readonly kind: "xsi:type" }
    | { readonly kind: "property"; readonly property: string }
    | { readonly kind: "none"; readonly exclusive: boolean };
}

/** A named restriction of another type (e.g. the 18-character ID), or a named list/union of simple types. */
export interface AliasType extends NamedTypeBase {
  readonly kind: "alias";
  readonly target: TypeExpr;
  readonly facets?: Facets;
}

export type NamedType = RecordType | EnumType | UnionType | AliasType;

/** An XSD global element declaration. */
export interface ElementDecl {
  readonly id: ElementId;
  readonly name: QName;
  readonly type: TypeExpr;
  readonly nullable: boolean;
  readonly abstract?: boolean;
  readonly substitutionGroup?: ElementId;
  /** XSD value constraints: the value of the element when it is empty (as written). */
  readonly default?: string;
  readonly fixed?: string;
  /** XSD `block` (or the schema's blockDefault): derivations an xsi:type may not use, "e" extension, "r" restriction. */
  readonly block?: string;
  readonly doc?: string;
  readonly origin: Origin;
}

/**
 * An XSD identity constraint (xs:unique, xs:key, xs:keyref), checked on every instance of the declaring element (by
 * its name). XPaths are compiled from the XSD 1.0 subset, names resolved in the schema: each is a list of
 * alternatives (`a | b`), each alternative a list of steps: "//" first for `.//`, then "." (self), "*", "{ns}*",
 * "{ns}local", and for fields a last step "@" + one of those (an attribute).
 */
export interface IdentityConstraint {
  readonly kind: "unique" | "key" | "keyref";
  readonly name: QName;
  /** keyref: the key or unique it refers to. */
  readonly refer?: QName;
  /** The declaring element's name. */
  readonly element: QName;
  readonly selector: readonly (readonly string[])[];
  readonly fields: readonly (readonly (readonly string[])[])[];
  readonly origin: Origin;
}

/** proto `extend` field: a field added to another message from outside it. */
export interface ExtensionDecl {
  readonly fullName: string;
  readonly extendee: TypeId;
  readonly field: Field;
  readonly origin: Origin;
}

// ---------------------------------------------------------------------------------------------------------------
// Services
// ---------------------------------------------------------------------------------------------------------------

export type Service = SoapService | HttpService | RpcService;

/** A WSDL message part: either an element (document style) or a type (rpc style). */
export interface SoapPart {
  readonly name: string;
  readonly element?: ElementId;
  readonly type?: TypeExpr;
}

export interface SoapMessage {
  readonly name: QName;
  readonly parts: readonly SoapPart[];
}

export interface SoapFaultDecl {
  readonly name: string;
  readonly message: SoapMessage;
}

/** A portType operation (abstract). */
export interface SoapOperation {
  readonly name: string;
  readonly doc?: string;
  readonly origin: Origin;
  readonly input?: SoapMessage;
  readonly output?: SoapMessage;
  readonly faults: readonly SoapFaultDecl[];
}

export interface SoapHeaderBinding {
  readonly message: SoapMessage;
  readonly part: string;
  readonly use: "literal" | "encoded";
}

export interface SoapBodyBinding {
  readonly use: "literal" | "encoded";
  readonly namespace?: string;
  /** soap:body encodingStyle (a list of URIs), as written. */
  readonly encodingStyle?: string;
  /** Parts bound to the body; absent = all parts. */
  readonly parts?: readonly string[];
  readonly headers: readonly SoapHeaderBinding[];
}

export interface SoapOperationBinding {
  readonly name: string;
  readonly action?: string;
  readonly style: "document" | "rpc";
  /** document/literal with one element part named like the operation (the "wrapped" convention). */
  readonly wrapped: boolean;
  readonly input?: SoapBodyBinding;
  readonly output?: SoapBodyBinding;
  readonly faults: readonly { readonly name: string; readonly use: "literal" | "encoded" }[];
  /** The wsdl:operation in the binding. */
  readonly origin?: Origin;
}

export interface SoapBinding {
  readonly name: QName;
  readonly version: "1.1" | "1.2";
  readonly style: "document" | "rpc";
  readonly transport?: string;
  readonly operations: readonly SoapOperationBinding[];
  readonly origin: Origin;
}

export interface SoapPort {
  readonly name: string;
  readonly binding: QName;
  readonly address?: string;
}

/** One WSDL portType with the bindings and ports that implement it. */
export interface SoapService {
  readonly kind: "soap";
  readonly name: string;
  readonly targetNamespace: string;
  readonly doc?: string;
  readonly origin: Origin;
  readonly operations: readonly SoapOperation[];
  readonly bindings: readonly SoapBinding[];
  readonly ports: readonly SoapPort[];
}

export interface HttpParameter {
  readonly name: string;
  readonly in: "path" | "query" | "header" | "cookie";
  readonly required: boolean;
  readonly type: TypeExpr;
  readonly nullable?: boolean;
  readonly facets?: Facets;
  readonly style?: string;
  readonly explode?: boolean;
  /** The media type of a parameter described by `content` instead of `schema` (e.g. JSON text in a query). */
  readonly content?: string;
  readonly deprecated?: boolean;
  readonly doc?: string;
  /** Examples of the parameter (its `example`/`examples`, else its schema's). */
  readonly examples?: readonly Example[];
  readonly origin: Origin;
}

export interface HttpContent {
  readonly mediaType: string;
  readonly type: TypeExpr;
  readonly nullable?: boolean;
  /** Form bodies (urlencoded, multipart): the Encoding Object of each property that has one, in spec order. */
  readonly encoding?: readonly HttpEncoding[];
  /** Examples of the body (the Media Type Object's `example`/`examples`, Swagger 2.0 response `examples`). */
  readonly examples?: readonly Example[];
}

/** How one property of a form body is written (OpenAPI Encoding Object). */
export interface HttpEncoding {
  readonly property: string;
  readonly style?: string;
  readonly explode?: boolean;
  /** The part's media type (multipart), e.g. "image/png": a type other than text or JSON makes the property a file. */
  readonly contentType?: string;
}

export interface HttpResponse {
  /** "200", "4XX" or "default". */
  readonly status: string;
  readonly doc?: string;
  readonly contents: readonly HttpContent[];
  readonly headers: readonly HttpParameter[];
}

export interface HttpOperation {
  /** operationId, or synthesized from method and path. */
  readonly name: string;
  readonly method: "get" | "put" | "post" | "delete" | "options" | "head" | "patch" | "trace";
  /** Path template as written, e.g. "/webhooks/{id}". */
  readonly path: string;
  readonly summary?: string;
  readonly doc?: string;
  readonly deprecated?: boolean;
  readonly tags: readonly string[];
  readonly parameters: readonly HttpParameter[];
  readonly requestBody?: { readonly required: boolean; readonly doc?: string; readonly contents: readonly HttpContent[] };
  readonly responses: readonly HttpResponse[];
  readonly security?: readonly string[];
  readonly origin: Origin;
}

export interface HttpService {
  readonly kind: "http";
  readonly name: string;
  readonly version?: string;
  readonly doc?: string;
  readonly servers: readonly string[];
  readonly operations: readonly HttpOperation[];
  readonly securitySchemes: readonly { readonly name: string; readonly type: string; readonly scheme?: string; readonly in?: string; readonly paramName?: string }[];
  readonly origin: Origin;
}

export interface RpcMethod {
  readonly name: string;
  readonly input: TypeId;
  readonly output: TypeId;
  readonly clientStreaming: boolean;
  readonly serverStreaming: boolean;
  readonly deprecated?: boolean;
  readonly doc?: string;
  readonly options?: Readonly<Record<string, string | number | boolean>>;
  /**
   * proto: the `(google.api.http)` options of the method (HTTP/JSON transcoding, google/api/http.proto), structured
   * and located like validation rules: `option (google.api.http).get = "/v1/x"` has path ["get"], an aggregate
   * `= { get: "/v1/x" body: "*" }` path [] and a message value.
   */
  readonly httpRules?: readonly ProtoRuleOption[];
  readonly origin: Origin;
}

/** A proto `service`. */
export interface RpcService {
  readonly kind: "rpc";
  readonly name: string;
  /** Fully qualified, without the leading dot: "contentApi.Feed". */
  readonly fullName: string;
  readonly doc?: string;
  readonly deprecated?: boolean;
  readonly methods: readonly RpcMethod[];
  readonly origin: Origin;
}

// ---------------------------------------------------------------------------------------------------------------
// The document
// ---------------------------------------------------------------------------------------------------------------

export type SpecFormat = "wsdl" | "xsd" | "proto" | "openapi";

export interface IrDocument {
  readonly format: SpecFormat;
  /** The entry spec file as given (used in headers and doc comments). */
  readonly entry: string;
  /** Every file that was read, entry first (imports/includes after), as paths relative to the entry's folder. */
  readonly files: readonly string[];
  readonly info: {
    readonly title?: string;
    readonly version?: string;
    readonly doc?: string;
    /** XSD: target namespaces; proto: packages. */
    readonly namespaces?: readonly string[];
    /** proto: "proto2" | "proto3" (of the entry file). */
    readonly syntax?: string;
  };
  /** Named types in a deterministic order (declaration order, entry file first). */
  readonly types: readonly NamedType[];
  readonly elements: readonly ElementDecl[];
  /** XSD identity constraints (xs:unique, xs:key, xs:keyref) of every element declaration, global or local. */
  readonly identityConstraints?: readonly IdentityConstraint[];
  readonly extensions: readonly ExtensionDecl[];
  readonly services: readonly Service[];
  /**
   * What the parser could not express exactly and degraded instead of refusing (a keyword the IR has no place for,
   * a contradiction it resolved): located like errors, reported by generate/check, errors under `--strict`.
   * Absent when there are none.
   */
  readonly warnings?: readonly SpecWarning[];
}

/** A located warning: `file` as the user sees it (like SpecError's), 1-based line and column. */
export interface SpecWarning {
  readonly file: string;
  readonly line: number;
  readonly column: number;
  readonly detail: string;
}
