/**
 * The field tables generated `prototext.ts` files hand to the text-format printer: per message, each field's
 * text name, number, where its value sits in the TypeScript object and what kind of value it is.
 */
export type TextScalar =
  | "double" | "float" | "int32" | "int64" | "uint32" | "uint64" | "sint32" | "sint64"
  | "fixed32" | "fixed64" | "sfixed32" | "sfixed64" | "bool" | "string" | "bytes";

export type TextValue =
  | { readonly kind: "scalar"; readonly scalar: TextScalar }
  /**
   * Values are names; an open enum's unlisted number is a number. `zero` is the name of value 0 (implicit presence);
   * `values` every name with its number (for parsing); `closed`: numbers not listed are refused.
   */
  | { readonly kind: "enum"; readonly zero?: string; readonly values: readonly (readonly [string, number])[]; readonly closed?: true }
  /** Lazy because messages refer to each other. `group`: delimited on the wire, named by its type name in text. */
  /** `date`: a google.protobuf.Timestamp held as a Date (the `dates: "Date"` option). */
  | { readonly kind: "message"; readonly message: () => TextMessage; readonly group?: true; readonly date?: true };

export interface TextField {
  /** The name printed: the field name, a group's type name, or `[full.extension.name]`. */
  readonly name: string;
  readonly number: number;
  /** Property of the message; for a oneof member its case name; for an extension its key in `$extensions`. */
  readonly prop: string;
  /** Set for oneof members: the property holding `{ case, value }`. */
  readonly oneof?: string;
  readonly extension?: true;
  readonly value: TextValue;
  /** Set for map fields (then `value` is the map's value): printed as repeated `{ key: .. value: .. }` entries. */
  readonly mapKey?: TextScalar;
  readonly repeated?: true;
  /** proto3 singular field without `optional`: its zero value is not printed. */
  readonly implicit?: true;
}

/** A message type an Any can hold, by full name: its table and its binary decoder. */
export interface TextType {
  readonly table: TextMessage;
  readonly decode: (bytes: Uint8Array) => object;
}

/** The message types a generated file knows, by full name (`pkg.Message`), for Any in text. */
export type TextTypes = ReadonlyMap<string, TextType>;

export interface TextMessage {
  /** google.protobuf.Any: printed and read as `[type.googleapis.com/pkg.Type] { ... }` when the type is known. */
  readonly any?: true;
  /** Sorted by number, extensions included (the order protoc prints them in). */
  readonly fields: readonly TextField[];
  readonly unknownProp: string;
  readonly extensionsProp?: string;
}
