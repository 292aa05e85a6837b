/**
 * Recursive-descent parser for proto2/proto3 files, producing the AST in ast.ts.
 *
 * It follows protoc's grammar (keywords are recognised by position, not reserved) and reports the first problem as
 * "file:line:col: expected X, found Y". Syntax-dependent rules that are visible without name resolution (labels in
 * proto2, `required`/groups in proto3, labels in oneofs and on maps) are checked here, where the token is at hand.
 */
import { SpecError } from "../../errors.js";
import type {
  EnumDecl,
  EnumValueDecl,
  ExtendDecl,
  FieldDecl,
  ImportDecl,
  MessageDecl,
  OneofDecl,
  OptionDecl,
  OptionValue,
  Pos,
  ProtoFile,
  Range,
  RpcDecl,
  ServiceDecl,
} from "./ast.js";
import { tokenize, type Token } from "./tokenizer.js";

/** Largest field / extension number (2^29 - 1). */
export const MAX_FIELD_NUMBER = 536870911;

/** Editions whose features this front end resolves (2024 changes no feature this generator acts on). */
export const SUPPORTED_EDITIONS: readonly string[] = ["2023", "2024"];
const MAX_ENUM_NUMBER = 2147483647;

export function parseProtoFile(source: string, path: string, display: string): ProtoFile {
  return new Parser(source, path, display).parseFile();
}

type FieldContext = "message" | "oneof" | "extend";

/**
 * Deepest nesting of messages (groups count as messages) a .proto file may have. Real files stay far below it; beyond
 * it the file is refused at the first message too deep: `file:line:col: nesting deeper than 100`.
 */
export const MAX_PROTO_DEPTH = 100;

class Parser {
  private readonly tokens: Token[];
  private idx = 0;
  /** Messages (and groups) open around the current token. */
  private depth = 0;
  private syntax: "proto2" | "proto3" | "editions" = "proto2";
  private edition: string | undefined;

  constructor(
    private readonly source: string,
    private readonly path: string,
    private readonly display: string,
  ) {
    this.tokens = tokenize(source, display);
  }

  // ---- token helpers --------------------------------------------------------------------------------------

  private peek(n = 0): Token {
    return this.tokens[Math.min(this.idx + n, this.tokens.length - 1)]!;
  }

  private next(): Token {
    const t = this.peek();
    if (this.idx < this.tokens.length - 1) this.idx++;
    return t;
  }

  private is(text: string, n = 0): boolean {
    const t = this.peek(n);
    return (t.kind === "symbol" || t.kind === "ident") && t.text === text;
  }

  private tryConsume(text: string): boolean {
    if (!this.is(text)) return false;
    this.next();
    return true;
  }

  private fail(tok: Token, expected: string): never {
    throw new SpecError(this.display, tok.line, tok.column, `expected ${expected}, found ${describe(tok)}`);
  }

  private error(pos: Pos, message: string): never {
    throw new SpecError(this.display, pos.line, pos.column, message);
  }

  private expect(text: string): Token {
    if (!this.is(text)) this.fail(this.peek(), `"${text}"`);
    return this.next();
  }

  private ident(what = "identifier"): Token {
    const t = this.peek();
    if (t.kind !== "ident") this.fail(t, what);
    return this.next();
  }

  /** `a.b.c`, optionally with a leading dot (type references). */
  private typeName(what: string): { name: string; pos: Pos } {
    const first = this.peek();
    let name = "";
    if (this.tryConsume(".")) name = ".";
    name += this.ident(what).text;
    while (this.is(".")) {
      this.next();
      name += "." + this.ident("identifier").text;
    }
    return { name, pos: pos(first) };
  }

  private int(what: string): { value: bigint; pos: Pos } {
    const t = this.peek();
    if (t.kind !== "int") this.fail(t, what);
    this.next();
    return { value: parseIntText(t.text), pos: pos(t) };
  }

  private signedInt(what: string): { value: bigint; pos: Pos } {
    const start = this.peek();
    const negative = this.tryConsume("-");
    const n = this.int(what);
    return { value: negative ? -n.value : n.value, pos: pos(start) };
  }

  // ---- comments ---------------------------------------------------------------------------------------------

  /** The comment block directly above `tok` (no blank line between), not a trailing comment of the previous line. */
  private leading(tok: Token): string | undefined {
    const last = tok.comments[tok.comments.length - 1];
    if (!last || last.line <= tok.prevEndLine) return undefined;
    if (last.endLine < tok.line - 1) return undefined;
    return last.text;
  }

  /** A comment starting on the line where the token just consumed ended. */
  private trailing(): string | undefined {
    const prev = this.tokens[this.idx - 1];
    const nextTok = this.peek();
    if (!prev) return undefined;
    const c = nextTok.comments[0];
    return c && c.line === prev.line ? c.text : undefined;
  }

  private doc(first: Token, trailing: string | undefined): string | undefined {
    const parts = [this.leading(first), trailing].filter((s): s is string => s !== undefined && s !== "");
    return parts.length ? parts.join("\n") : undefined;
  }

  // ---- file ---------------------------------------------------------------------------------------------------

  parseFile(): ProtoFile {
    if (this.is("syntax")) {
      this.next();
      this.expect("=");
      const t = this.peek();
      if (t.kind !== "string") this.fail(t, "syntax string");
      const s = this.stringValue();
      if (s !== "proto2" && s !== "proto3") this.error(pos(t), `unrecognized syntax "${s}" (expected "proto2" or "proto3")`);
      this.syntax = s;
      this.expect(";");
    } else if (this.is("edition")) {
      this.next();
      this.expect("=");
      const t = this.peek();
      if (t.kind !== "string") this.fail(t, "edition string");
      const e = this.stringValue();
      if (!SUPPORTED_EDITIONS.includes(e)) {
        this.error(pos(t), `edition "${e}" is not supported (supported: ${SUPPORTED_EDITIONS.map((x) => `"${x}"`).join(", ")})`);
      }
      this.syntax = "editions";
      this.edition = e;
      this.expect(";");
    }
    let pkg: string | undefined;
    const imports: ImportDecl[] = [];
    const options: OptionDecl[] = [];
    const decls: ProtoFile["decls"][number][] = [];
    while (this.peek().kind !== "eof") {
      const t = this.peek();
      if (this.tryConsume(";")) continue;
      if (t.kind !== "ident") this.fail(t, "top-level statement");
      switch (t.text) {
        case "import": {
          this.next();
          let modifier: ImportDecl["modifier"];
          if (this.is("weak") || this.is("public")) modifier = this.next().text as "weak" | "public";
          if (this.peek().kind !== "string") this.fail(this.peek(), "import file name");
          const p = this.stringValue();
          this.expect(";");
          imports.push({ path: p, ...(modifier ? { modifier } : {}), pos: pos(t) });
          break;
        }
        case "package": {
          this.next();
          if (pkg !== undefined) this.error(pos(t), "multiple package definitions");
          pkg = this.typeName("package name").name;
          if (pkg.startsWith(".")) this.error(pos(t), "package name must not start with \".\"");
          this.expect(";");
          break;
        }
        case "option":
          options.push(this.optionStatement());
          break;
        case "message":
          decls.push(this.message());
          break;
        case "enum":
          decls.push(this.enumDecl());
          break;
        case "service":
          decls.push(this.service());
          break;
        case "extend":
          decls.push(this.extend());
          break;
        case "edition":
          this.error(pos(t), "the edition statement must be the first statement of the file");
          break;
        default:
          this.fail(t, "top-level statement (message, enum, service, extend, import, package or option)");
      }
    }
    return { path: this.path, display: this.display, syntax: this.syntax, ...(this.edition !== undefined ? { edition: this.edition } : {}), package: pkg ?? "", imports, options, decls };
  }

  // ---- options ------------------------------------------------------------------------------------------------

  private optionStatement(): OptionDecl {
    this.expect("option");
    const opt = this.option();
    this.expect(";");
    return opt;
  }

  /** name = value (used by `option` statements and inside `[...]`). */
  private option(): OptionDecl {
    const start = this.peek();
    const parts: string[] = [];
    do {
      if (this.tryConsume("(")) {
        parts.push("(" + this.typeName("option extension name").name + ")");
        this.expect(")");
      } else {
        parts.push(this.ident("option name").text);
      }
    } while (this.tryConsume("."));
    this.expect("=");
    const valueTok = this.peek();
    return { name: parts.join("."), value: this.optionValue(), pos: pos(start), valuePos: pos(valueTok) };
  }

  private optionValue(): OptionValue {
    const t = this.peek();
    if (t.kind === "string") {
      let latin1 = "";
      for (let k = this.idx; this.tokens[k]!.kind === "string"; k++) latin1 += this.tokens[k]!.latin1 ?? "";
      const value = this.stringValue();
      return { kind: "string", text: this.source.slice(t.start, this.tokens[this.idx - 1]!.end), value, bytes: latin1 };
    }
    if (this.is("{")) return this.aggregate();
    let sign = "";
    if (this.is("-") || this.is("+")) sign = this.next().text;
    const v = this.peek();
    if (v.kind === "int") {
      this.next();
      const n = parseIntText(v.text);
      return { kind: "int", text: sign + v.text, value: sign === "-" ? -n : n };
    }
    if (v.kind === "float") {
      this.next();
      const n = Number(v.text);
      return { kind: "float", text: sign + v.text, value: sign === "-" ? -n : n };
    }
    if (v.kind === "ident") {
      if (sign !== "") {
        if (v.text !== "inf" && v.text !== "nan") this.fail(v, "number");
        this.next();
        return { kind: "float", text: sign + v.text, value: v.text === "inf" ? (sign === "-" ? -Infinity : Infinity) : NaN };
      }
      this.next();
      return { kind: "ident", text: v.text, value: v.text };
    }
    return this.fail(v, "option value");
  }

  /** A text-format message literal; only brace balance matters here, the text is kept as written. */
  private aggregate(): OptionValue {
    const open = this.expect("{");
    let depth = 1;
    let last = open;
    while (depth > 0) {
      const t = this.peek();
      if (t.kind === "eof") this.fail(t, "\"}\"");
      this.next();
      if (t.kind === "symbol" && t.text === "{") depth++;
      if (t.kind === "symbol" && t.text === "}") depth--;
      last = t;
    }
    const text = this.source.slice(open.start, last.end);
    return { kind: "aggregate", text, value: text };
  }

  /** Adjacent string literals concatenate, as in C. */
  private stringValue(): string {
    let s = "";
    while (this.peek().kind === "string") s += this.next().value;
    return s;
  }

  private fieldOptions(): OptionDecl[] {
    const opts: OptionDecl[] = [];
    if (!this.tryConsume("[")) return opts;
    do opts.push(this.option());
    while (this.tryConsume(","));
    this.expect("]");
    return opts;
  }

  // ---- messages -----------------------------------------------------------------------------------------------

  private message(): MessageDecl {
    const start = this.expect("message");
    const name = this.ident("message name").text;
    this.expect("{");
    const trailing = this.trailing();
    return this.messageBody(name, start, trailing, false);
  }

  /** Everything after the opening brace up to and including the closing brace. */
  private messageBody(name: string, start: Token, trailing: string | undefined, isGroup: boolean): MessageDecl {
    // Nesting is bounded before anything recursive (here, lowering, naming, emitting) meets it.
    if (++this.depth > MAX_PROTO_DEPTH) this.error(pos(start), `nesting deeper than ${MAX_PROTO_DEPTH}`);
    const body: MessageDecl["body"][number][] = [];
    const options: OptionDecl[] = [];
    const extensionRanges: Range[] = [];
    const reserved = { ranges: [] as Range[], names: [] as { name: string; pos: Pos }[] };
    this.blockMembers((t) => {
      if (t.kind !== "ident" && !this.is(".")) this.fail(t, "message member");
      switch (t.text) {
        case "option":
          options.push(this.optionStatement());
          break;
        case "message":
          body.push(this.message());
          break;
        case "enum":
          body.push(this.enumDecl());
          break;
        case "extend":
          body.push(this.extend());
          break;
        case "oneof":
          body.push(this.oneof());
          break;
        case "extensions": {
          this.next();
          if (this.syntax === "proto3") this.error(pos(t), "extension ranges are not allowed in proto3");
          extensionRanges.push(...this.ranges(MAX_FIELD_NUMBER));
          this.fieldOptions();
          this.expect(";");
          break;
        }
        case "reserved":
          this.reserved(reserved, MAX_FIELD_NUMBER);
          break;
        default:
          body.push(this.field("message"));
      }
    });
    this.depth--;
    return {
      kind: "message",
      name,
      body,
      options,
      extensionRanges,
      reserved,
      pos: pos(start),
      ...withDoc(this.doc(start, trailing)),
      ...(isGroup ? { isGroup: true } : {}),
    };
  }

  private ranges(max: number): Range[] {
    const out: Range[] = [];
    do {
      const from = this.signedInt("number");
      let to = from.value;
      let toMax = false;
      if (this.tryConsume("to")) {
        toMax = this.tryConsume("max");
        to = toMax ? BigInt(max) : this.signedInt("number or \"max\"").value;
      }
      if (to < from.value) this.error(from.pos, "range end must not be less than range start");
      out.push({ from: Number(from.value), to: Number(to), ...(toMax ? { toMax: true as const } : {}), pos: from.pos });
    } while (this.tryConsume(","));
    return out;
  }

  private reserved(into: { ranges: Range[]; names: { name: string; pos: Pos }[] }, max: number): void {
    this.expect("reserved");
    // Editions write reserved names as identifiers (`reserved foo, bar;`); proto2/proto3 as strings.
    if (this.syntax === "editions" && this.peek().kind === "string") this.error(pos(this.peek()), "reserved names must be identifiers in editions, not string literals");
    if (this.syntax === "editions" && this.peek().kind === "ident") {
      do {
        const t = this.ident("reserved field name");
        into.names.push({ name: t.text, pos: pos(t) });
      } while (this.tryConsume(","));
    } else if (this.peek().kind === "string") {
      do {
        const t = this.peek();
        if (t.kind !== "string") this.fail(t, "field name string");
        into.names.push({ name: this.stringValue(), pos: pos(t) });
      } while (this.tryConsume(","));
    } else {
      into.ranges.push(...this.ranges(max));
    }
    this.expect(";");
  }

  /**
   * The members of a `{ ... }` block whose opening brace has been read: `member` is called on the first token of each
   * (stray `;` are skipped) until the closing brace, which it consumes; end of input before it is an error.
   */
  private blockMembers(member: (first: Token) => void): void {
    for (;;) {
      const t = this.peek();
      if (this.tryConsume("}")) return;
      if (t.kind === "eof") this.fail(t, "\"}\"");
      if (this.tryConsume(";")) continue;
      member(t);
    }
  }

  private oneof(): OneofDecl {
    const start = this.expect("oneof");
    const name = this.ident("oneof name").text;
    this.expect("{");
    const trailing = this.trailing();
    const fields: FieldDecl[] = [];
    const options: OptionDecl[] = [];
    this.blockMembers((t) => {
      if (this.is("option")) options.push(this.optionStatement());
      else fields.push(this.field("oneof"));
    });
    if (fields.length === 0) this.error(pos(start), `oneof "${name}" must have at least one field`);
    return { kind: "oneof", name, fields, options, pos: pos(start), ...withDoc(this.doc(start, trailing)) };
  }

  private extend(): ExtendDecl {
    const start = this.expect("extend");
    const extendee = this.typeName("extendee type name");
    this.expect("{");
    const trailing = this.trailing();
    const fields: FieldDecl[] = [];
    this.blockMembers((t) => {
      fields.push(this.field("extend"));
    });
    return {
      kind: "extend",
      extendee: extendee.name,
      extendeePos: extendee.pos,
      fields,
      pos: pos(start),
      ...withDoc(this.doc(start, trailing)),
    };
  }

  private field(ctx: FieldContext): FieldDecl {
    const start = this.peek();
    let label: FieldDecl["label"];
    if (this.is("optional") || this.is("required") || this.is("repeated")) {
      // `optional.Foo x = 1;` would be a type name; protoc treats the keyword as a label all the same.
      label = this.next().text as FieldDecl["label"];
      if (ctx === "oneof") this.error(pos(start), "fields in oneofs must not have labels (required / optional / repeated)");
      if (label === "required" && this.syntax === "proto3") this.error(pos(start), "required fields are not allowed in proto3");
      // Editions express presence through features, as protoc says.
      if (label === "optional" && this.syntax === "editions") {
        this.error(pos(start), `the "optional" label is not allowed in editions; use [features.field_presence = EXPLICIT] (the default)`);
      }
      if (label === "required" && this.syntax === "editions") {
        this.error(pos(start), `the "required" label is not allowed in editions; use [features.field_presence = LEGACY_REQUIRED]`);
      }
    }
    const isMap = this.is("map") && this.is("<", 1);
    if (!label && !isMap && this.syntax === "proto2" && ctx !== "oneof") {
      this.fail(start, "\"required\", \"optional\", or \"repeated\"");
    }
    if (isMap) {
      if (label) this.error(pos(start), "field labels (required/optional/repeated) are not allowed on map fields");
      if (ctx === "extend") this.error(pos(start), "map fields are not allowed in extensions");
      if (ctx === "oneof") this.error(pos(start), "map fields are not allowed in oneofs");
      const mapTok = this.next();
      this.expect("<");
      const key = this.typeName("map key type");
      this.expect(",");
      const value = this.typeName("map value type");
      this.expect(">");
      const name = this.ident("field name").text;
      this.expect("=");
      const number = this.fieldNumber();
      const options = this.fieldOptions();
      this.expect(";");
      return {
        kind: "field",
        type: "map",
        typePos: pos(mapTok),
        map: { key: key.name, keyPos: key.pos, value: value.name, valuePos: value.pos },
        name,
        number: number.value,
        numberPos: number.pos,
        options,
        pos: pos(start),
        ...withDoc(this.doc(start, this.trailing())),
      };
    }
    if (this.is("group") && this.peek(1).kind === "ident" && this.is("=", 2)) {
      const groupTok = this.next();
      if (this.syntax === "proto3") this.error(pos(groupTok), "groups are not supported in proto3");
      if (this.syntax === "editions") {
        this.error(pos(groupTok), "groups are not supported in editions; declare a message and use [features.message_encoding = DELIMITED] on the field");
      }
      const nameTok = this.ident("group name");
      const name = nameTok.text;
      if (!/^[A-Z]/.test(name)) this.error(pos(nameTok), "group names must start with a capital letter");
      this.expect("=");
      const number = this.fieldNumber();
      const options = this.fieldOptions();
      this.expect("{");
      const trailing = this.trailing();
      const body = this.messageBody(name, start, trailing, true);
      return {
        kind: "field",
        ...(label ? { label } : {}),
        type: name,
        typePos: pos(nameTok),
        name: name.toLowerCase(),
        number: number.value,
        numberPos: number.pos,
        options,
        group: body,
        pos: pos(start),
        ...withDoc(body.doc),
      };
    }
    const type = this.typeName("field type");
    const name = this.ident("field name").text;
    this.expect("=");
    const number = this.fieldNumber();
    const options = this.fieldOptions();
    this.expect(";");
    return {
      kind: "field",
      ...(label ? { label } : {}),
      type: type.name,
      typePos: type.pos,
      name,
      number: number.value,
      numberPos: number.pos,
      options,
      pos: pos(start),
      ...withDoc(this.doc(start, this.trailing())),
    };
  }

  private fieldNumber(): { value: number; pos: Pos } {
    const t = this.peek();
    if (this.is("-")) this.error(pos(t), "field numbers must be positive integers");
    const n = this.int("field number");
    // Clamp absurdly large literals so range checks report them instead of losing precision.
    return { value: n.value > BigInt(Number.MAX_SAFE_INTEGER) ? Number.MAX_SAFE_INTEGER : Number(n.value), pos: n.pos };
  }

  // ---- enums --------------------------------------------------------------------------------------------------

  private enumDecl(): EnumDecl {
    const start = this.expect("enum");
    const name = this.ident("enum name").text;
    this.expect("{");
    const trailing = this.trailing();
    const values: EnumValueDecl[] = [];
    const options: OptionDecl[] = [];
    const reserved = { ranges: [] as Range[], names: [] as { name: string; pos: Pos }[] };
    this.blockMembers((t) => {
      if (t.kind !== "ident") this.fail(t, "enum value");
      if (t.text === "option" && !this.is("=", 1)) {
        options.push(this.optionStatement());
      } else if (t.text === "reserved" && !this.is("=", 1)) {
        this.reserved(reserved, MAX_ENUM_NUMBER);
      } else {
        const vname = this.next().text;
        this.expect("=");
        const n = this.signedInt("enum value number");
        if (n.value > BigInt(MAX_ENUM_NUMBER) || n.value < -BigInt(MAX_ENUM_NUMBER) - 1n) {
          this.error(n.pos, `enum value ${n.value} is out of range for int32`);
        }
        const opts = this.fieldOptions();
        this.expect(";");
        values.push({
          name: vname,
          number: Number(n.value),
          numberPos: n.pos,
          options: opts,
          pos: pos(t),
          ...withDoc(this.doc(t, this.trailing())),
        });
      }
    });
    if (values.length === 0) this.error(pos(start), `enum "${name}" must contain at least one value`);
    return { kind: "enum", name, values, options, reserved, pos: pos(start), ...withDoc(this.doc(start, trailing)) };
  }

  // ---- services -----------------------------------------------------------------------------------------------

  private service(): ServiceDecl {
    const start = this.expect("service");
    const name = this.ident("service name").text;
    this.expect("{");
    const trailing = this.trailing();
    const methods: RpcDecl[] = [];
    const options: OptionDecl[] = [];
    this.blockMembers((t) => {
      if (this.is("option")) options.push(this.optionStatement());
      else if (this.is("rpc")) methods.push(this.rpc());
      else this.fail(t, "\"rpc\" or \"option\"");
    });
    return { kind: "service", name, methods, options, pos: pos(start), ...withDoc(this.doc(start, trailing)) };
  }

  private rpc(): RpcDecl {
    const start = this.expect("rpc");
    const name = this.ident("method name").text;
    const arg = (): { stream: boolean; name: string; pos: Pos } => {
      this.expect("(");
      // `stream` is a flag only when a type name follows it.
      // (`stream .pkg.Msg` is a flag; `stream.Msg` is a type in package "stream".)
      const stream =
        this.is("stream") &&
        (this.peek(1).kind === "ident" || (this.is(".", 1) && this.peek(1).start > this.peek().end));
      if (stream) this.next();
      const t = this.typeName("message type");
      this.expect(")");
      return { stream, name: t.name, pos: t.pos };
    };
    const input = arg();
    this.expect("returns");
    const output = arg();
    const options: OptionDecl[] = [];
    let trailing: string | undefined;
    if (this.tryConsume("{")) {
      trailing = this.trailing();
      this.blockMembers((t) => {
        if (this.is("option")) options.push(this.optionStatement());
        else this.fail(t, "\"option\" or \"}\"");
      });
      trailing ??= this.trailing();
    } else {
      this.expect(";");
      trailing = this.trailing();
    }
    return {
      name,
      input: input.name,
      inputPos: input.pos,
      output: output.name,
      outputPos: output.pos,
      clientStreaming: input.stream,
      serverStreaming: output.stream,
      options,
      pos: pos(start),
      ...withDoc(this.doc(start, trailing)),
    };
  }
}

function pos(t: Token): Pos {
  return { line: t.line, column: t.column };
}

function withDoc(doc: string | undefined): { doc?: string } {
  return doc === undefined ? {} : { doc };
}

function describe(t: Token): string {
  if (t.kind === "eof") return "end of file";
  if (t.kind === "string") return t.text;
  return `"${t.text}"`;
}

/** Decimal, hex (0x) or octal (leading 0) integer literal. */
export function parseIntText(text: string): bigint {
  if (/^0[xX]/.test(text)) return BigInt(text);
  if (text.length > 1 && text.startsWith("0")) return BigInt("0o" + text.slice(1));
  return BigInt(text);
}
