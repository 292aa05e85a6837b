/**
 * The proto AST: what a .proto file says, before names are resolved. Produced by parser.ts, consumed by lower.ts.
 * Positions are 1-based line/column of the token that starts the construct (or of the part an error points at).
 */

export interface Pos {
  readonly line: number;
  readonly column: number;
}

/** An option value as written. `text` is the source form; `value` the decoded scalar. */
export type OptionValue =
  | { readonly kind: "ident"; readonly text: string; readonly value: string }
  | { readonly kind: "int"; readonly text: string; readonly value: bigint }
  | { readonly kind: "float"; readonly text: string; readonly value: number }
  /** `bytes`: the literal's bytes, one char per byte (what a `bytes` field holds). */
  | { readonly kind: "string"; readonly text: string; readonly value: string; readonly bytes: string }
  /** Text-format message literal `{ ... }`; kept as written. */
  | { readonly kind: "aggregate"; readonly text: string; readonly value: string };

export interface OptionDecl {
  /** Name as written without spaces, e.g. "deprecated", "(my.opt)", "(complex_opt2).bar.(mooo)". */
  readonly name: string;
  readonly value: OptionValue;
  readonly pos: Pos;
  readonly valuePos: Pos;
}

export interface Documented {
  /** Leading comment (plus trailing comment, if any), protoc-style. */
  readonly doc?: string;
}

export interface FieldDecl extends Documented {
  readonly kind: "field";
  readonly label?: "optional" | "required" | "repeated";
  /** Type name as written ("int32", ".pkg.Msg", "Nested.Inner"); for groups the group name. */
  readonly type: string;
  readonly typePos: Pos;
  readonly map?: { readonly key: string; readonly keyPos: Pos; readonly value: string; readonly valuePos: Pos };
  readonly name: string;
  readonly number: number;
  readonly numberPos: Pos;
  readonly options: readonly OptionDecl[];
  /** proto2 group: the body declared inline. The field's `type` then names this message. */
  readonly group?: MessageDecl;
  readonly pos: Pos;
}

export interface OneofDecl extends Documented {
  readonly kind: "oneof";
  readonly name: string;
  readonly fields: readonly FieldDecl[];
  readonly options: readonly OptionDecl[];
  readonly pos: Pos;
}

export interface Range {
  readonly from: number;
  readonly to: number;
  /** Written as `to max`: for an extension range of a message-set message, protoc takes max as 2^31 - 2. */
  readonly toMax?: true;
  readonly pos: Pos;
}

export interface Reserved {
  readonly ranges: readonly Range[];
  readonly names: readonly { readonly name: string; readonly pos: Pos }[];
}

export interface ExtendDecl extends Documented {
  readonly kind: "extend";
  readonly extendee: string;
  readonly extendeePos: Pos;
  readonly fields: readonly FieldDecl[];
  readonly pos: Pos;
}

export interface MessageDecl extends Documented {
  readonly kind: "message";
  readonly name: string;
  /** Fields, oneofs, nested messages/enums and extend blocks, in declaration order. */
  readonly body: readonly (FieldDecl | OneofDecl | MessageDecl | EnumDecl | ExtendDecl)[];
  readonly options: readonly OptionDecl[];
  readonly extensionRanges: readonly Range[];
  readonly reserved: Reserved;
  readonly pos: Pos;
  /** True when this message is the body of a proto2 group. */
  readonly isGroup?: boolean;
}

export interface EnumValueDecl extends Documented {
  readonly name: string;
  readonly number: number;
  readonly numberPos: Pos;
  readonly options: readonly OptionDecl[];
  readonly pos: Pos;
}

export interface EnumDecl extends Documented {
  readonly kind: "enum";
  readonly name: string;
  readonly values: readonly EnumValueDecl[];
  readonly options: readonly OptionDecl[];
  readonly reserved: Reserved;
  readonly pos: Pos;
}

export interface RpcDecl extends Documented {
  readonly name: string;
  readonly input: string;
  readonly inputPos: Pos;
  readonly output: string;
  readonly outputPos: Pos;
  readonly clientStreaming: boolean;
  readonly serverStreaming: boolean;
  readonly options: readonly OptionDecl[];
  readonly pos: Pos;
}

export interface ServiceDecl extends Documented {
  readonly kind: "service";
  readonly name: string;
  readonly methods: readonly RpcDecl[];
  readonly options: readonly OptionDecl[];
  readonly pos: Pos;
}

export interface ImportDecl {
  readonly path: string;
  readonly modifier?: "weak" | "public";
  readonly pos: Pos;
}

export interface ProtoFile {
  /** Absolute path. */
  readonly path: string;
  /** Path used in error messages. */
  readonly display: string;
  /** "editions" for `edition = "..."` files; their behaviour then comes from resolved features (features.ts). */
  readonly syntax: "proto2" | "proto3" | "editions";
  /** The edition of an editions file, e.g. "2023". */
  readonly edition?: string;
  readonly package: string;
  readonly imports: readonly ImportDecl[];
  readonly options: readonly OptionDecl[];
  readonly decls: readonly (MessageDecl | EnumDecl | ExtendDecl | ServiceDecl)[];
}
