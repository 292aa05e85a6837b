/**
 * Lowers parsed .proto files into the IR, resolving type names and checking the semantic rules protoc checks
 * (field numbers, reserved names/numbers, map keys, packed, proto2/proto3 differences, enum rules).
 *
 * Output order is declaration order: files in import order (entry first); inside a file, each message comes
 * before its nested types, groups and nested extensions.
 */
import { SpecError } from "../../errors.js";
import { Diagnostics } from "../diagnostics.js";
import type {
  ProtoRuleOption,
  EnumType,
  EnumValue,
  ExtensionDecl,
  Field,
  Group,
  Member,
  NamedType,
  Origin,
  ProtoFieldHint,
  RecordType,
  RpcMethod,
  RpcService,
  ScalarKind,
  Service,
  TypeExpr,
} from "../../ir/model.js";
import type { EnumDecl, ExtendDecl, FieldDecl, MessageDecl, OptionDecl, Pos, ProtoFile, Reserved, ServiceDecl } from "./ast.js";
import { fileFeatures, isFeatureOption, resolveFeatures, setsFeature, type Features } from "./features.js";
import type { LoadedFile } from "./load.js";
import { MAX_FIELD_NUMBER } from "./parser.js";
import { HTTP_EXTENSIONS, ruleOptions } from "./rule-options.js";
import { isType, join, SymbolTable, type ProtoSymbol } from "./resolve.js";

const SCALARS: Readonly<Record<string, ScalarKind>> = {
  double: "double",
  float: "float",
  int32: "int32",
  int64: "int64",
  uint32: "uint32",
  uint64: "uint64",
  sint32: "sint32",
  sint64: "sint64",
  fixed32: "fixed32",
  fixed64: "fixed64",
  sfixed32: "sfixed32",
  sfixed64: "sfixed64",
  bool: "boolean",
  string: "string",
  bytes: "bytes",
};

/** The largest extension number of a message-set message (protoc: INT32_MAX, exclusive). */
const MESSAGE_SET_MAX = 2147483646;

/** Map keys: any integral or string type (not floating point, bytes, enums or messages). */
const MAP_KEY_SCALARS = new Set(["int32", "int64", "uint32", "uint64", "sint32", "sint64", "fixed32", "fixed64", "sfixed32", "sfixed64", "bool", "string"]);

type ResolvedType =
  | { readonly kind: "scalar"; readonly scalar: string; readonly expr: TypeExpr }
  | { readonly kind: "message"; readonly sym: ProtoSymbol; readonly expr: TypeExpr }
  | { readonly kind: "enum"; readonly sym: ProtoSymbol; readonly expr: TypeExpr };

export interface LowerResult {
  readonly types: NamedType[];
  readonly extensions: ExtensionDecl[];
  readonly services: Service[];
}

/**
 * `diagnostics` collects errors that do not stop lowering: an erroneous declaration, field, enum value or method is
 * reported and left out, and lowering goes on with the next one (names resolve against the symbol table, not
 * against lowered types, so leaving one out causes no follow-on errors). Without it, the first error is thrown.
 */
export function lowerProtoFiles(files: readonly LoadedFile[], originOf: (absPath: string) => string, diagnostics?: Diagnostics): LowerResult {
  if (diagnostics) return new Lowerer(files, originOf, diagnostics).run();
  const own = new Diagnostics(1);
  return own.run(() => new Lowerer(files, originOf, own).run());
}

class Lowerer {
  private readonly symbols: SymbolTable;
  private readonly types: NamedType[] = [];
  private readonly extensions: ExtensionDecl[] = [];
  private readonly services: Service[] = [];
  /** extendee full name -> number -> extension full name, to catch two extensions taking one number. */
  private readonly extensionNumbers = new Map<string, Map<number, string>>();
  private file!: ProtoFile;
  /** The current file's resolved features (for proto2/proto3, their syntax expressed as features). */
  private features!: Features;

  constructor(
    private readonly files: readonly LoadedFile[],
    private readonly originOf: (absPath: string) => string,
    private readonly diagnostics: Diagnostics,
  ) {
    this.symbols = new SymbolTable(files, diagnostics);
  }

  /** Lower one independent piece; its error is recorded and the piece left out. */
  private recover<T>(work: () => T): T | undefined {
    return this.diagnostics.recover(work);
  }

  run(): LowerResult {
    for (const f of this.files) {
      this.file = f.ast;
      this.features = fileFeatures(f.ast);
      const pkg = f.ast.package;
      for (const d of f.ast.decls) {
        if (d.kind === "message") this.recover(() => this.message(d, pkg));
        else if (d.kind === "enum") this.recover(() => this.enumType(d, pkg));
        else if (d.kind === "extend") this.recover(() => this.extend(d, pkg, this.features));
        else this.recover(() => this.service(d, pkg));
      }
    }
    return { types: this.types, extensions: this.extensions, services: this.services };
  }

  // ---- helpers ----------------------------------------------------------------------------------------------

  private ruleOptions(options: readonly OptionDecl[]): ProtoRuleOption[] {
    return ruleOptions(options, this.file.display, this.originOf(this.file.path));
  }

  private fail(p: Pos, message: string): never {
    throw new SpecError(this.file.display, p.line, p.column, message);
  }

  private origin(p: Pos, fullName: string, construct: string): Origin {
    return { file: this.originOf(this.file.path), line: p.line, column: p.column, pointer: "." + fullName, construct: `proto ${construct} .${fullName}` };
  }

  private resolveType(name: string, scope: string, p: Pos): ResolvedType {
    // Own properties only: a message named `constructor` or `toString` is not a scalar.
    const scalar = Object.hasOwn(SCALARS, name) ? SCALARS[name] : undefined;
    if (scalar) return { kind: "scalar", scalar: name, expr: { kind: "scalar", scalar } };
    const found = this.symbols.lookup(name, scope, this.file, true);
    if ("error" in found) this.fail(p, found.error);
    if (!isType(found.kind)) this.fail(p, `"${name}" is not a type (it is a ${found.kind})`);
    const expr: TypeExpr = { kind: "ref", id: "proto:." + found.fullName };
    return found.kind === "message" ? { kind: "message", sym: found, expr } : { kind: "enum", sym: found, expr };
  }

  private resolveMessage(name: string, scope: string, p: Pos): ProtoSymbol {
    const t = this.resolveType(name, scope, p);
    if (t.kind !== "message") this.fail(p, `"${name}" is not a message type`);
    return t.sym;
  }

  private checkFieldNumber(n: number, p: Pos): void {
    if (n < 1 || n > MAX_FIELD_NUMBER) this.fail(p, `field number ${n} is out of range (1 to ${MAX_FIELD_NUMBER})`);
    if (n >= 19000 && n <= 19999) {
      this.fail(p, `field numbers 19000 through 19999 are reserved for the protocol buffer library implementation`);
    }
  }

  // ---- messages ---------------------------------------------------------------------------------------------

  private message(m: MessageDecl, scope: string, parent: Features = this.features): void {
    const full = join(scope, m.name);
    const features = resolveFeatures(this.file, parent, m.options, "message");
    const editions = this.file.syntax === "editions";
    const numbers = new Map<number, string>();
    const members: Member[] = [];
    const deferred: (() => void)[] = [];
    const jsonNames = new Map<string, { name: string; json: string }>();

    const checkMessageField = (f: FieldDecl): void => {
      // protoc 3.21 (the reference; see docs/protobuf.md) checks only proto3 files, only the default JSON names
      // (a custom json_name may equal any other name), and compares them ignoring case.
      if (this.file.syntax === "proto3") {
        const json = toJsonName(f.name);
        const clash = jsonNames.get(json.toLowerCase());
        if (clash) {
          const how = clash.json === json ? "" : ` ("${clash.json}"; proto3 compares them ignoring case, as protoc does)`;
          this.fail(f.pos, `the default JSON name of field "${f.name}" ("${json}") conflicts with the default JSON name of field "${clash.name}"${how} in "${full}"`);
        }
        jsonNames.set(json.toLowerCase(), { name: f.name, json });
      } else if (editions && features.json_format === "ALLOW") this.checkEditionsJsonName(f, full, jsonNames);
      this.checkFieldNumber(f.number, f.numberPos);
      const prior = numbers.get(f.number);
      if (prior !== undefined) this.fail(f.numberPos, `field number ${f.number} has already been used in "${full}" by field "${prior}"`);
      numbers.set(f.number, f.name);
      this.checkReserved(m.reserved, f, full);
      const range = m.extensionRanges.find((r) => f.number >= r.from && f.number <= r.to);
      if (range) this.fail(f.numberPos, `field "${f.name}" uses number ${f.number}, which is inside the extension range ${range.from} to ${range.to}`);
    };

    for (const d of m.body) {
      switch (d.kind) {
        case "field": {
          const field = this.recover(() => {
            checkMessageField(d);
            return this.field(d, full, full, false, false, features);
          });
          if (field) members.push(field);
          if (d.group) {
            const g = d.group;
            deferred.push(() => this.message(g, full, features));
          }
          break;
        }
        case "oneof": {
          const oneofFull = join(full, d.name);
          const fields: Field[] = [];
          const oneofFeatures = resolveFeatures(this.file, features, d.options, "oneof");
          for (const f of d.fields) {
            const field = this.recover(() => {
              checkMessageField(f);
              return this.field(f, full, full, true, false, oneofFeatures);
            });
            if (field) fields.push(field);
            if (f.group) {
              const g = f.group;
              deferred.push(() => this.message(g, full, oneofFeatures));
            }
          }
          const group: Group = {
            kind: "group",
            compositor: "choice",
            name: d.name,
            oneofName: d.name,
            occurs: { min: 0, max: 1 },
            members: fields,
            ...(d.doc !== undefined ? { doc: d.doc } : {}),
            origin: this.origin(d.pos, oneofFull, "oneof"),
          };
          const oneofRules = this.ruleOptions(d.options);
          members.push(oneofRules.length ? { ...group, protoRules: oneofRules } : group);
          break;
        }
        case "message":
          deferred.push(() => this.message(d, full, features));
          break;
        case "enum":
          deferred.push(() => this.enumType(d, full, features));
          break;
        case "extend":
          deferred.push(() => this.extend(d, full, features));
          break;
      }
    }

    // protoc reads `extensions N to max` of a message_set_wire_format message as reaching 2^31 - 2.
    const messageSet = optionBool(m.options, "message_set_wire_format");
    const messageRules = this.ruleOptions(m.options);
    const record: RecordType = {
      kind: "record",
      id: "proto:." + full,
      name: m.name,
      scope: this.file.package,
      ...(m.doc !== undefined ? { doc: m.doc } : {}),
      ...(optionBool(m.options, "deprecated") ? { deprecated: true } : {}),
      ...(m.isGroup ? { anonymous: true, protoGroup: true } : {}),
      origin: this.origin(m.pos, full, m.isGroup ? "group" : "message"),
      members,
      ...(m.extensionRanges.length ? { extensionRanges: m.extensionRanges.map((r) => ({ from: r.from, to: r.toMax && messageSet ? MESSAGE_SET_MAX : r.to })) } : {}),
      ...(m.reserved.ranges.length || m.reserved.names.length
        ? {
            reserved: {
              ranges: m.reserved.ranges.map((r) => ({ from: r.from, to: r.to })),
              names: m.reserved.names.map((n) => n.name),
            },
          }
        : {}),
      ...(messageRules.length ? { protoRules: messageRules } : {}),
    };
    this.types.push(record);
    for (const run of deferred) this.recover(run);
  }

  private checkReserved(reserved: Reserved, f: { name: string; number: number; numberPos: Pos; pos: Pos }, owner: string): void {
    const r = reserved.ranges.find((x) => f.number >= x.from && f.number <= x.to);
    if (r) this.fail(f.numberPos, `field "${f.name}" uses reserved number ${f.number} in "${owner}"`);
    if (reserved.names.some((n) => n.name === f.name)) this.fail(f.pos, `field name "${f.name}" is reserved in "${owner}"`);
  }

  /**
   * One field (message field, oneof member or extension). `scope` is where names are resolved from and the
   * field's parent name; `inOneof`/extension change presence.
   */
  private field(f: FieldDecl, scope: string, fullScope: string, inOneof: boolean, isExtension: boolean, parent: Features): Field {
    const full = join(fullScope, f.name);
    const proto3 = this.file.syntax === "proto3";
    const editions = this.file.syntax === "editions";
    const features = resolveFeatures(this.file, parent, f.options, "field");
    let type: TypeExpr;
    let resolved: ResolvedType | undefined;
    if (f.map) {
      const key = this.resolveType(f.map.key, scope, f.map.keyPos);
      if (key.kind !== "scalar" || !MAP_KEY_SCALARS.has(key.scalar)) {
        this.fail(f.map.keyPos, `invalid map key type "${f.map.key}" (must be an integral or string type)`);
      }
      const value = this.resolveType(f.map.value, scope, f.map.valuePos);
      this.checkOpenEnum(value, f.map.valuePos);
      type = { kind: "map", key: key.expr, value: value.expr };
    } else {
      resolved = f.group
        ? this.resolveType("." + join(scope, f.group.name), scope, f.typePos)
        : this.resolveType(f.type, scope, f.typePos);
      this.checkOpenEnum(resolved, f.typePos);
      type = resolved.expr;
    }

    // Presence: proto3 fields without a label are "implicit" (always present after decoding, zero default) except
    // message fields, which always track presence; oneof members and extensions always track presence too.
    let label: ProtoFieldHint["label"];
    let occurs: Field["occurs"];
    if (editions) ({ label, occurs } = this.editionsPresence(f, resolved, features, inOneof, isExtension));
    else if (f.map || f.label === "repeated") {
      label = "repeated";
      occurs = f.map ? { min: 0, max: 1 } : { min: 0, max: "unbounded" };
    } else if (f.label === "required") {
      if (isExtension) this.fail(f.pos, `extension "${f.name}" cannot be required`);
      label = "required";
      occurs = { min: 1, max: 1 };
    } else if (f.label === "optional" || inOneof || isExtension) {
      label = "optional";
      occurs = { min: 0, max: 1 };
    } else {
      label = "implicit";
      occurs = resolved?.kind === "message" ? { min: 0, max: 1 } : { min: 1, max: 1 };
    }

    let packed: boolean | undefined;
    let defaultValue: string | undefined;
    let jsonName: string | undefined;
    let jstype: ProtoFieldHint["jstype"];
    let deprecated = false;
    const options: Record<string, string | number | boolean> = {};
    const packable = label === "repeated" && !f.map && resolved !== undefined &&
      (resolved.kind === "enum" || (resolved.kind === "scalar" && resolved.scalar !== "string" && resolved.scalar !== "bytes"));
    for (const o of f.options) {
      // Features are consumed by resolution above; they are not options of the generated code.
      if (isFeatureOption(o)) continue;
      switch (o.name) {
        case "packed": {
          if (editions) this.fail(o.pos, "the packed option is not allowed in editions; use [features.repeated_field_encoding = PACKED] or EXPANDED");
          packed = this.boolOption(o);
          if (packed && !packable) this.fail(o.pos, `[packed = true] can only be specified for repeated primitive fields`);
          break;
        }
        case "default":
          defaultValue = this.defaultOption(o, f, resolved, label);
          break;
        case "json_name":
          if (isExtension) this.fail(o.pos, `option json_name is not allowed on extension fields`);
          if (o.value.kind !== "string") this.fail(o.valuePos, `expected a string for option json_name, found ${o.value.text}`);
          jsonName = o.value.value;
          break;
        case "jstype":
          if (o.value.kind !== "ident" || !["JS_NORMAL", "JS_STRING", "JS_NUMBER"].includes(o.value.value)) {
            this.fail(o.valuePos, `expected JS_NORMAL, JS_STRING or JS_NUMBER for option jstype, found ${o.value.text}`);
          }
          jstype = o.value.value as ProtoFieldHint["jstype"];
          break;
        case "deprecated":
          deprecated = this.boolOption(o);
          break;
        default:
          options[o.name] = optionScalar(o);
      }
    }
    if (packed === undefined && proto3 && packable) packed = true;
    jsonName ??= toJsonName(f.name);
    const strings = f.map ? [f.map.key, f.map.value] : [f.type];
    const usesStrings = strings.includes("string") && (f.map !== undefined || resolved?.kind === "scalar");
    let delimited = false;
    let validateUtf8: boolean | undefined;
    if (editions) {
      const encoding = setsFeature(f.options, "repeated_field_encoding");
      if (encoding && label !== "repeated") this.fail(encoding.pos, `only repeated fields can specify features.repeated_field_encoding`);
      if (encoding && f.map) this.fail(encoding.pos, `map fields cannot specify features.repeated_field_encoding`);
      if (encoding?.value.value === "PACKED" && !packable) this.fail(encoding.pos, `only repeated primitive fields (numbers, bools, enums) can be PACKED`);
      if (packable) packed = features.repeated_field_encoding === "PACKED";
      const messageEncoding = setsFeature(f.options, "message_encoding");
      if (messageEncoding && resolved?.kind !== "message") this.fail(messageEncoding.pos, `only message fields can specify features.message_encoding`);
      // DELIMITED is proto2's group encoding: start/end-group tags around the message instead of a length.
      delimited = resolved?.kind === "message" && !f.map && features.message_encoding === "DELIMITED";
      const utf8 = setsFeature(f.options, "utf8_validation");
      if (utf8 && !usesStrings) this.fail(utf8.pos, `only string fields can specify features.utf8_validation`);
      if (usesStrings) validateUtf8 = features.utf8_validation === "VERIFY";
    }

    const fieldRules = this.ruleOptions(f.options);
    const proto: ProtoFieldHint = {
      number: f.number,
      label,
      ...(packed !== undefined ? { packed } : {}),
      ...(f.group || delimited ? { group: true } : {}),
      ...(defaultValue !== undefined ? { default: defaultValue } : {}),
      jsonName,
      ...(jstype ? { jstype } : {}),
      ...(validateUtf8 !== undefined ? { validateUtf8 } : {}),
      ...(Object.keys(options).length ? { options } : {}),
      ...(fieldRules.length ? { rules: fieldRules } : {}),
    };
    return {
      kind: "field",
      name: f.name,
      type,
      occurs,
      nullable: false,
      ...(deprecated ? { deprecated: true } : {}),
      ...(f.doc !== undefined ? { doc: f.doc } : {}),
      origin: this.origin(f.pos, full, isExtension ? "extension" : "field"),
      wire: { proto, json: { key: jsonName } },
    };
  }

  /** proto3 messages can only use open (proto3) enums. */
  private checkOpenEnum(t: ResolvedType, p: Pos): void {
    if (this.file.syntax === "proto3" && t.kind === "enum" && this.enumClosed(t.sym)) {
      const kind = t.sym.file.syntax === "proto2" ? "closed (proto2)" : "closed (features.enum_type = CLOSED)";
      this.fail(p, `enum "${t.sym.fullName}" is a ${kind} enum and cannot be used in a proto3 file`);
    }
  }

  /**
   * Whether an enum (of any file) is closed. Only files and enums can set enum_type (descriptor.proto's targets),
   * so the enclosing messages need not be walked.
   */
  private enumClosed(sym: ProtoSymbol): boolean {
    return resolveFeatures(sym.file, fileFeatures(sym.file), sym.enumDecl!.options, "enum").enum_type === "CLOSED";
  }

  /**
   * Presence and label of a field of an editions file. Oneof members and extensions always track presence,
   * message fields too (unless LEGACY_REQUIRED); scalars and enums follow features.field_presence.
   */
  private editionsPresence(
    f: FieldDecl,
    resolved: ResolvedType | undefined,
    features: Features,
    inOneof: boolean,
    isExtension: boolean,
  ): { label: ProtoFieldHint["label"]; occurs: Field["occurs"] } {
    const repeated = f.map !== undefined || f.label === "repeated";
    const set = setsFeature(f.options, "field_presence");
    if (set) {
      if (repeated) this.fail(set.pos, "repeated fields cannot specify features.field_presence");
      if (inOneof) this.fail(set.pos, "oneof fields cannot specify features.field_presence");
      if (isExtension) this.fail(set.pos, "extensions cannot specify features.field_presence");
      if (resolved?.kind === "message" && set.value.value === "IMPLICIT") this.fail(set.pos, "message fields cannot specify implicit presence");
    }
    if (repeated) return { label: "repeated", occurs: f.map ? { min: 0, max: 1 } : { min: 0, max: "unbounded" } };
    const optional = { label: "optional" as const, occurs: { min: 0, max: 1 } };
    if (inOneof || isExtension) return optional;
    if (features.field_presence === "LEGACY_REQUIRED") return { label: "required", occurs: { min: 1, max: 1 } };
    if (features.field_presence === "EXPLICIT" || resolved?.kind === "message") return optional;
    if (resolved?.kind === "enum" && this.enumClosed(resolved.sym)) {
      this.fail(f.typePos, `enum "${resolved.sym.fullName}" is closed and cannot be used by field "${f.name}", which has implicit presence`);
    }
    return { label: "implicit", occurs: { min: 1, max: 1 } };
  }

  /**
   * Editions with json_format ALLOW (protoc 22 and later): the default JSON names must differ, and so must the JSON
   * names the fields actually use (json_name included); both compared exactly. `seen` holds both kinds by prefix.
   */
  private checkEditionsJsonName(f: FieldDecl, owner: string, seen: Map<string, { name: string; json: string }>): void {
    const json = toJsonName(f.name);
    let effective = json;
    for (const o of f.options) if (o.name === "json_name" && o.value.kind === "string") effective = o.value.value;
    const defaultClash = seen.get("default:" + json);
    if (defaultClash) {
      this.fail(f.pos, `the default JSON name of field "${f.name}" ("${json}") conflicts with the default JSON name of field "${defaultClash.name}" in "${owner}"`);
    }
    const clash = seen.get("json:" + effective);
    if (clash) this.fail(f.pos, `the JSON name of field "${f.name}" ("${effective}") conflicts with the JSON name of field "${clash.name}" in "${owner}"`);
    seen.set("default:" + json, { name: f.name, json });
    seen.set("json:" + effective, { name: f.name, json: effective });
  }

  private boolOption(o: OptionDecl): boolean {
    if (o.value.kind !== "ident" || (o.value.value !== "true" && o.value.value !== "false")) {
      this.fail(o.valuePos, `expected true or false for option ${o.name}, found ${o.value.text}`);
    }
    return o.value.value === "true";
  }

  /** proto2 `[default = ...]`: checked against the field type; returned as written except that strings are
   * unescaped and integers are written in decimal. */
  private defaultOption(o: OptionDecl, f: FieldDecl, t: ResolvedType | undefined, label: string): string {
    if (this.file.syntax === "proto3") this.fail(o.pos, "explicit default values are not allowed in proto3");
    if (label === "implicit") this.fail(o.pos, "fields with implicit presence cannot have default values");
    if (label === "repeated") this.fail(o.pos, "repeated fields can't have default values");
    if (!t || t.kind === "message") return this.fail(o.pos, "messages can't have default values");
    const v = o.value;
    const bad: (what: string) => never = (what) =>
      this.fail(o.valuePos, `expected ${what} default value for field "${f.name}", found ${v.text}`);
    if (t.kind === "enum") {
      if (v.kind !== "ident") return bad("an enum value name as");
      if (!t.sym.enumDecl!.values.some((x) => x.name === v.value)) {
        this.fail(o.valuePos, `enum "${t.sym.fullName}" has no value named "${v.value}" (default of field "${f.name}")`);
      }
      return v.value;
    }
    const scalar = t.scalar;
    switch (scalar) {
      case "string":
        return v.kind === "string" ? v.value : bad("a string");
      case "bytes":
        // One char per byte, so "\\377" stays the single byte 0xFF rather than becoming UTF-8 text.
        return v.kind === "string" ? v.bytes : bad("a string");
      case "bool":
        return v.kind === "ident" && (v.value === "true" || v.value === "false") ? v.text : bad("true or false as");
      case "float":
      case "double":
        if (v.kind === "int" || v.kind === "float" || (v.kind === "ident" && (v.value === "inf" || v.value === "nan"))) return v.text;
        return bad("a number as");
      default:
        if (v.kind !== "int") return bad("an integer as");
        if (!fitsInteger(scalar, v.value)) this.fail(o.valuePos, `default value ${v.text} is out of range for ${scalar}`);
        // Integers are normalised to decimal (hex/octal is lexical detail, and BigInt() cannot read "-0x80").
        return v.value.toString();
    }
  }

  // ---- extensions -------------------------------------------------------------------------------------------

  private extend(e: ExtendDecl, scope: string, features: Features): void {
    const extendee = this.resolveMessage(e.extendee, scope, e.extendeePos);
    if (this.file.syntax === "proto3" && !/^google\.protobuf\.\w+Options$/.test(extendee.fullName)) {
      this.fail(e.pos, "extensions in proto3 are only allowed for defining custom options (extending google.protobuf.*Options)");
    }
    let used = this.extensionNumbers.get(extendee.fullName);
    if (!used) this.extensionNumbers.set(extendee.fullName, (used = new Map()));
    for (const f of e.fields) this.recover(() => this.extensionField(f, scope, extendee, used, features));
  }

  private extensionField(f: FieldDecl, scope: string, extendee: ProtoSymbol, used: Map<number, string>, features: Features): void {
    const ranges = extendee.message!.extensionRanges;
    const full = join(scope, f.name);
    this.checkFieldNumber(f.number, f.numberPos);
    if (!ranges.some((r) => f.number >= r.from && f.number <= r.to)) {
      this.fail(f.numberPos, `"${extendee.fullName}" does not declare ${f.number} as an extension number`);
    }
    const prior = used.get(f.number);
    if (prior !== undefined) {
      this.fail(f.numberPos, `extension number ${f.number} has already been used in "${extendee.fullName}" by extension "${prior}"`);
    }
    used.set(f.number, full);
    const field = this.field(f, scope, scope, false, true, features);
    this.extensions.push({ fullName: full, extendee: "proto:." + extendee.fullName, field, origin: field.origin });
    // A group declared in an extend block is a message in the scope around the block.
    if (f.group) this.message(f.group, scope, features);
  }

  // ---- enums ------------------------------------------------------------------------------------------------

  private enumType(e: EnumDecl, scope: string, parent: Features = this.features): void {
    const full = join(scope, e.name);
    const features = resolveFeatures(this.file, parent, e.options, "enum");
    const allowAlias = optionBool(e.options, "allow_alias");
    const first = e.values[0]!;
    if (this.file.syntax === "proto3" && first.number !== 0) {
      this.fail(first.numberPos, `the first enum value must be zero in proto3 (enum "${full}")`);
    }
    if (this.file.syntax === "editions" && features.enum_type === "OPEN" && first.number !== 0) {
      this.fail(first.numberPos, `the first enum value must be zero for open enums (enum "${full}")`);
    }
    // Checked only: no feature of an enum value changes what is generated.
    for (const v of e.values) resolveFeatures(this.file, features, v.options, "enum value");
    const seen = new Map<number, string>();
    const values: EnumValue[] = [];
    for (const v of e.values) this.recover(() => {
      const prior = seen.get(v.number);
      if (prior !== undefined && !allowAlias) {
        this.fail(v.numberPos, `"${v.name}" uses the same enum value ${v.number} as "${prior}"; set option allow_alias = true to allow this`);
      }
      if (prior === undefined) seen.set(v.number, v.name);
      if (e.reserved.ranges.some((r) => v.number >= r.from && v.number <= r.to)) {
        this.fail(v.numberPos, `enum value "${v.name}" uses reserved number ${v.number} in "${full}"`);
      }
      if (e.reserved.names.some((n) => n.name === v.name)) this.fail(v.pos, `enum value name "${v.name}" is reserved in "${full}"`);
      values.push({
        name: v.name,
        value: v.name,
        number: v.number,
        ...(v.doc !== undefined ? { doc: v.doc } : {}),
        ...(optionBool(v.options, "deprecated") ? { deprecated: true } : {}),
        origin: this.origin(v.pos, join(full, v.name), "enum value"),
      });
    });
    const type: EnumType = {
      kind: "enum",
      id: "proto:." + full,
      name: e.name,
      scope: this.file.package,
      ...(e.doc !== undefined ? { doc: e.doc } : {}),
      ...(optionBool(e.options, "deprecated") ? { deprecated: true } : {}),
      origin: this.origin(e.pos, full, "enum"),
      base: { kind: "scalar", scalar: "int32" },
      values,
      ...(allowAlias ? { allowAlias: true } : {}),
      closed: features.enum_type === "CLOSED",
    };
    this.types.push(type);
  }

  // ---- services ---------------------------------------------------------------------------------------------

  private service(s: ServiceDecl, scope: string): void {
    const full = join(scope, s.name);
    const methods: RpcMethod[] = s.methods.flatMap((m) => this.recover((): RpcMethod => {
      const input = this.resolveMessage(m.input, scope, m.inputPos);
      const output = this.resolveMessage(m.output, scope, m.outputPos);
      const options = optionRecord(m.options, new Set(["deprecated"]));
      const httpRules = ruleOptions(m.options, this.file.display, this.originOf(this.file.path), HTTP_EXTENSIONS);
      return {
        name: m.name,
        input: "proto:." + input.fullName,
        output: "proto:." + output.fullName,
        clientStreaming: m.clientStreaming,
        serverStreaming: m.serverStreaming,
        ...(optionBool(m.options, "deprecated") ? { deprecated: true } : {}),
        ...(m.doc !== undefined ? { doc: m.doc } : {}),
        ...(options ? { options } : {}),
        ...(httpRules.length ? { httpRules } : {}),
        origin: this.origin(m.pos, join(full, m.name), "rpc"),
      };
    }) ?? []);
    const service: RpcService = {
      kind: "rpc",
      name: s.name,
      fullName: full,
      ...(s.doc !== undefined ? { doc: s.doc } : {}),
      ...(optionBool(s.options, "deprecated") ? { deprecated: true } : {}),
      methods,
      origin: this.origin(s.pos, full, "service"),
    };
    this.services.push(service);
  }
}

function optionBool(options: readonly OptionDecl[], name: string): boolean {
  // Last one wins, as in protoc's option interpretation of repeated settings.
  let result = false;
  for (const o of options) if (o.name === name) result = o.value.kind === "ident" && o.value.value === "true";
  return result;
}

/** An option value as an IR scalar: 64-bit integers beyond 2^53, inf/nan and aggregates stay as written. */
function optionScalar(o: OptionDecl): string | number | boolean {
  const v = o.value;
  switch (v.kind) {
    case "ident":
      return v.value === "true" ? true : v.value === "false" ? false : v.value;
    case "int":
      return v.value >= BigInt(Number.MIN_SAFE_INTEGER) && v.value <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(v.value) : v.text;
    case "float":
      return Number.isFinite(v.value) ? v.value : v.text;
    default:
      return v.value;
  }
}

function optionRecord(options: readonly OptionDecl[], skip: ReadonlySet<string>): Record<string, string | number | boolean> | undefined {
  const out: Record<string, string | number | boolean> = {};
  for (const o of options) if (!skip.has(o.name)) out[o.name] = optionScalar(o);
  return Object.keys(out).length ? out : undefined;
}

/** protoc's default JSON name: drop underscores and upper-case the letter after each one. */
export function toJsonName(name: string): string {
  let out = "";
  let upper = false;
  for (const c of name) {
    if (c === "_") upper = true;
    else {
      out += upper ? c.toUpperCase() : c;
      upper = false;
    }
  }
  return out;
}

function fitsInteger(scalar: string, v: bigint): boolean {
  const signed = !scalar.startsWith("u") && scalar !== "fixed32" && scalar !== "fixed64";
  const bits = scalar.endsWith("64") ? 64n : 32n;
  return signed ? v >= -(1n << (bits - 1n)) && v < 1n << (bits - 1n) : v >= 0n && v < 1n << bits;
}
