/**
 * Lowers FileDescriptorProtos (what protoc and buf hand a plugin) into the IR: the second .proto front end, beside
 * the text parser in src/parsers/proto. It produces the same IR facts the text parser does, in the same order
 * (files: entry, then a depth-first walk of its imports; inside a file, declaration order recovered from the
 * SourceCodeInfo spans, each message before its nested types), so both front ends generate the same files.
 *
 * The compiler has already checked the semantic rules, so little is checked here. Editions files have their
 * features resolved (./features.ts) and lowered into the facts proto2 and proto3 produce, as the text parser does;
 * an edition this front end does not know is refused with a SpecError at the declaration.
 */
import path from "node:path";
import { isFieldSet } from "@bufbuild/protobuf";
import {
  Edition,
  FieldDescriptorProto_Label as Label,
  FieldDescriptorProto_Type as FieldType,
  FieldOptions_JSType,
  FieldOptionsSchema,
  FieldDescriptorProtoSchema,
  type DescriptorProto,
  type EnumDescriptorProto,
  type FieldDescriptorProto,
  type FeatureSet,
  type FileDescriptorProto,
  type ServiceDescriptorProto,
} from "@bufbuild/protobuf/wkt";
import { SpecError } from "../../errors.js";
import type { EnumType, ExtensionDecl, Field, Group, IrDocument, Member, NamedType, Origin, ProtoFieldHint, RecordType, RpcService, ScalarKind, Service, TypeExpr } from "../../ir/model.js";
import { toJsonName } from "../proto/lower.js";
import type { Features } from "../proto/features.js";
import { unescapeBytesDefault } from "./defaults.js";
import { baseFeatures, mergeFeatures, SUPPORTED_DESCRIPTOR_EDITIONS } from "./features.js";
import { RuleOptionReader } from "./rule-options.js";
import { PATH, sourceInfo, type SourceInfo } from "./source-info.js";

const SCALARS: Readonly<Partial<Record<FieldType, ScalarKind>>> = {
  [FieldType.DOUBLE]: "double",
  [FieldType.FLOAT]: "float",
  [FieldType.INT32]: "int32",
  [FieldType.INT64]: "int64",
  [FieldType.UINT32]: "uint32",
  [FieldType.UINT64]: "uint64",
  [FieldType.SINT32]: "sint32",
  [FieldType.SINT64]: "sint64",
  [FieldType.FIXED32]: "fixed32",
  [FieldType.FIXED64]: "fixed64",
  [FieldType.SFIXED32]: "sfixed32",
  [FieldType.SFIXED64]: "sfixed64",
  [FieldType.BOOL]: "boolean",
  [FieldType.STRING]: "string",
  [FieldType.BYTES]: "bytes",
};

const JSTYPES: Readonly<Record<FieldOptions_JSType, NonNullable<ProtoFieldHint["jstype"]>>> = {
  [FieldOptions_JSType.JS_NORMAL]: "JS_NORMAL",
  [FieldOptions_JSType.JS_STRING]: "JS_STRING",
  [FieldOptions_JSType.JS_NUMBER]: "JS_NUMBER",
};

/**
 * The IR of `entry` (a file name as the compiler knows it, e.g. "google/protobuf/unittest.proto") and everything
 * it imports. `files` must hold the entry and all its transitive imports (a CodeGeneratorRequest's proto_file does).
 */
export function lowerDescriptors(files: readonly FileDescriptorProto[], entry: string): IrDocument {
  const byName = new Map(files.map((f) => [f.name, f]));
  const order: FileDescriptorProto[] = [];
  const visit = (name: string, from: string): void => {
    const f = byName.get(name);
    if (!f) throw new SpecError(from, 1, 1, `import "${name}" is not among the request's files`);
    if (order.includes(f)) return;
    order.push(f);
    for (const dep of f.dependency) visit(dep, f.name);
  };
  visit(entry, entry);
  const lowered = new DescriptorLowerer(order, entry).run();
  const namespaces: string[] = [];
  for (const f of order) if (f.package !== "" && !namespaces.includes(f.package)) namespaces.push(f.package);
  return {
    format: "proto",
    entry: originOf(entry, entry),
    files: order.map((f) => originOf(entry, f.name)),
    info: { namespaces, syntax: syntaxOf(order[0]!) },
    ...lowered,
    elements: [],
  };
}

/** As src/parsers/host.ts originPath: relative to the entry's folder, forward slashes. */
function originOf(entry: string, file: string): string {
  const rel = path.posix.relative(path.posix.dirname(entry), file);
  return rel === "" ? path.posix.basename(file) : rel;
}

function syntaxOf(f: FileDescriptorProto): "proto2" | "proto3" | "editions" {
  if (f.syntax === "" || f.syntax === "proto2") return "proto2";
  if (f.syntax === "proto3") return "proto3";
  if (f.syntax === "editions" && SUPPORTED_DESCRIPTOR_EDITIONS.includes(f.edition)) return "editions";
  const supported = `proto2, proto3 and editions ${SUPPORTED_DESCRIPTOR_EDITIONS.map(editionName).join(", ")}`;
  const where = sourceInfo(f).pos([f.syntax === "editions" ? PATH.file.edition : PATH.file.syntax]);
  throw new SpecError(f.name, where.line, where.column, `${f.syntax === "editions" ? `edition ${editionName(f.edition)}` : `syntax "${f.syntax}"`} is not supported by specforge (${supported} are)`);
}

/** "2023" for EDITION_2023; the enum's name, or the number, for the others. */
function editionName(e: Edition): string {
  const name = Edition[e] as string | undefined;
  return name === undefined ? String(e) : name.replace(/^EDITION_/, "");
}

const isString = (t: TypeExpr): boolean => t.kind === "scalar" && t.scalar === "string";

const join = (scope: string, name: string): string => (scope === "" ? name : `${scope}.${name}`);

/** One thing declared in a file or message, placed in declaration order by its span. */
interface Decl {
  readonly order: number | undefined;
  readonly index: number;
  readonly run: () => void;
}

function inDeclarationOrder(decls: Decl[]): void {
  // Declarations the SourceCodeInfo does not place keep the descriptor's order, after the placed ones.
  decls.sort((a, b) => (a.order ?? Infinity) - (b.order ?? Infinity) || a.index - b.index);
  for (const d of decls) d.run();
}

class DescriptorLowerer {
  private readonly types: NamedType[] = [];
  private readonly extensions: ExtensionDecl[] = [];
  private readonly services: Service[] = [];
  /** Every message of every file by full name (no leading dot), to recognise map entries. */
  private readonly messages = new Map<string, DescriptorProto>();
  /** Validation options (extensions in the options messages), read with the request's validate.proto. */
  private readonly rules: RuleOptionReader;
  private file!: FileDescriptorProto;
  private info!: SourceInfo;
  private proto3 = false;
  private editions = false;

  constructor(
    private readonly files: readonly FileDescriptorProto[],
    private readonly entry: string,
  ) {
    const index = (m: DescriptorProto, scope: string): void => {
      const full = join(scope, m.name);
      this.messages.set(full, m);
      for (const n of m.nestedType) index(n, full);
    };
    for (const f of files) for (const m of f.messageType) index(m, f.package);
    this.rules = new RuleOptionReader(files);
  }

  run(): { types: NamedType[]; extensions: ExtensionDecl[]; services: Service[] } {
    this.lowerFiles();
    this.checkReferences();
    return { types: this.types, extensions: this.extensions, services: this.services };
  }

  /**
   * Every type a field, extension or method names must be among the request's files. protoc and buf guarantee it;
   * a hand-made request may not, and the emitters must never meet a dangling reference.
   */
  private checkReferences(): void {
    const ids = new Map(this.types.map((t) => [t.id, t.kind]));
    const check = (id: string, want: "record" | "enum" | undefined, origin: Origin, what: string): void => {
      const kind = ids.get(id);
      if (kind === undefined || (want !== undefined && kind !== want)) {
        throw new SpecError(origin.file, origin.line, origin.column, `${what} names ${want === "record" ? "message" : "type"} "${id.slice("proto:".length)}", which the request does not define`);
      }
    };
    const expr = (t: TypeExpr, origin: Origin, what: string): void => {
      if (t.kind === "ref") check(t.id, undefined, origin, what);
      else if (t.kind === "map") {
        expr(t.key, origin, what);
        expr(t.value, origin, what);
      }
    };
    const fields = (members: readonly Member[]): Field[] => members.flatMap((m) => (m.kind === "field" ? [m] : m.kind === "group" ? fields(m.members) : []));
    for (const t of this.types) if (t.kind === "record") for (const f of fields(t.members)) expr(f.type, f.origin, `field ${f.origin.pointer}`);
    for (const x of this.extensions) {
      check(x.extendee, "record", x.origin, `extension .${x.fullName} extends`);
      expr(x.field.type, x.origin, `extension .${x.fullName}`);
    }
    for (const s of this.services) {
      if (s.kind !== "rpc") continue;
      for (const m of s.methods) {
        check(m.input, "record", m.origin, `method ${m.origin.pointer} input`);
        check(m.output, "record", m.origin, `method ${m.origin.pointer} output`);
      }
    }
  }

  private lowerFiles(): void {
    for (const f of this.files) {
      this.file = f;
      this.info = sourceInfo(f);
      const syntax = syntaxOf(f);
      this.proto3 = syntax === "proto3";
      this.editions = syntax === "editions";
      const features = this.features(baseFeatures(syntax), f.options?.features, [PATH.file.options]);
      const pkg = f.package;
      const decls: Decl[] = [];
      const add = (p: number[], run: () => void): void => void decls.push({ order: this.info.order(p), index: decls.length, run });
      const groups = this.groupDocs(f.extension, [PATH.file.extension], f.messageType, [PATH.file.message]);
      f.messageType.forEach((m, i) => add([PATH.file.message, i], () => this.message(m, pkg, [PATH.file.message, i], features, groups.get(i))));
      f.enumType.forEach((e, i) => add([PATH.file.enum, i], () => this.enumType(e, pkg, [PATH.file.enum, i], features)));
      f.extension.forEach((x, i) => add([PATH.file.extension, i], () => this.extension(x, pkg, [PATH.file.extension, i], features)));
      f.service.forEach((s, i) => add([PATH.file.service, i], () => this.service(s, pkg, [PATH.file.service, i])));
      inDeclarationOrder(decls);
    }
  }

  private origin(p: readonly number[], fullName: string, construct: string): Origin {
    const pos = this.info.pos(p);
    return { file: originOf(this.entry, this.file.name), line: pos.line, column: pos.column, pointer: "." + fullName, construct: `proto ${construct} .${fullName}` };
  }

  private doc(p: readonly number[]): { doc?: string } {
    const doc = this.info.doc(p);
    return doc === undefined ? {} : { doc };
  }

  private fail(p: readonly number[], message: string): never {
    const pos = this.info.pos(p);
    throw new SpecError(this.file.name, pos.line, pos.column, message);
  }

  /** `parent` overridden by a declaration's own `options.features` (only editions files set any). */
  private features(parent: Features, set: FeatureSet | undefined, p: readonly number[]): Features {
    return mergeFeatures(parent, set, (message) => this.fail(p, message));
  }

  /** The nested message a group field declares: the message of its type, and its path. */
  private groupOf(f: FieldDescriptorProto, siblings: readonly DescriptorProto[], siblingsPath: readonly number[]): { index: number; path: number[] } | undefined {
    // Editions have no group declarations: a DELIMITED field's message is an ordinary message.
    if (f.type !== FieldType.GROUP || this.editions) return undefined;
    const name = f.typeName.slice(f.typeName.lastIndexOf(".") + 1);
    const index = siblings.findIndex((m) => m.name === name);
    return index < 0 ? undefined : { index, path: [...siblingsPath, index] };
  }

  // ---- messages ---------------------------------------------------------------------------------------------

  /**
   * The messages among `siblings` that are groups declared by one of `fields`, by index, with the doc the text
   * parser gives both a group's field and its message: the comment at the group line.
   */
  private groupDocs(fields: readonly FieldDescriptorProto[], fieldsPath: readonly number[], siblings: readonly DescriptorProto[], siblingsPath: readonly number[]): Map<number, { doc?: string }> {
    const docs = new Map<number, { doc?: string }>();
    fields.forEach((f, i) => {
      const group = this.groupOf(f, siblings, siblingsPath);
      if (group) docs.set(group.index, this.groupDoc([...fieldsPath, i], group.path));
    });
    return docs;
  }

  /** `groupDoc` is set for the message of a group (then its doc). */
  private message(m: DescriptorProto, scope: string, p: number[], parent: Features, groupDoc?: { doc?: string }): void {
    const isGroup = groupDoc !== undefined;
    const full = join(scope, m.name);
    const features = this.features(parent, m.options?.features, p);
    const members: Member[] = [];
    const oneofs = new Map<number, Field[]>();
    const groupFieldDocs = this.groupDocs(m.field, [...p, PATH.message.field], m.nestedType, [...p, PATH.message.nested]);
    const groupExtensionDocs = this.groupDocs(m.extension, [...p, PATH.message.extension], m.nestedType, [...p, PATH.message.nested]);
    m.field.forEach((f, i) => {
      const fp = [...p, PATH.message.field, i];
      const group = this.groupOf(f, m.nestedType, [...p, PATH.message.nested]);
      const doc = group ? groupFieldDocs.get(group.index)! : this.doc(fp);
      const synthetic = f.proto3Optional === true;
      const inOneof = isFieldSet(f, FieldDescriptorProtoSchema.field.oneofIndex) && !synthetic;
      const oneofFeatures = inOneof ? this.features(features, m.oneofDecl[f.oneofIndex!]?.options?.features, [...p, PATH.message.oneof, f.oneofIndex!]) : features;
      const field = this.field(f, full, fp, doc, inOneof, false, oneofFeatures);
      if (!inOneof) {
        members.push(field);
        return;
      }
      let fields = oneofs.get(f.oneofIndex!);
      if (!fields) {
        oneofs.set(f.oneofIndex!, (fields = []));
        const o = m.oneofDecl[f.oneofIndex!]!;
        const op = [...p, PATH.message.oneof, f.oneofIndex!];
        const origin = this.origin(op, join(full, o.name), "oneof");
        const oneofRules = this.rules.read(o.options, "oneof", origin);
        const group: Group = {
          kind: "group",
          compositor: "choice",
          name: o.name,
          oneofName: o.name,
          occurs: { min: 0, max: 1 },
          members: fields,
          ...this.doc(op),
          origin,
          ...(oneofRules.length ? { protoRules: oneofRules } : {}),
        };
        members.push(group);
      }
      fields.push(field);
    });

    const messageRules = this.rules.read(m.options, "message", this.origin(p, full, "message"));
    const record: RecordType = {
      kind: "record",
      id: "proto:." + full,
      name: m.name,
      scope: this.file.package,
      ...(groupDoc ?? this.doc(p)),
      ...(m.options?.deprecated ? { deprecated: true } : {}),
      ...(isGroup ? { anonymous: true, protoGroup: true } : {}),
      origin: this.origin(p, full, isGroup ? "group" : "message"),
      members,
      ...(m.extensionRange.length ? { extensionRanges: m.extensionRange.map((r) => ({ from: r.start, to: r.end - 1 })) } : {}),
      ...(m.reservedRange.length || m.reservedName.length
        ? { reserved: { ranges: m.reservedRange.map((r) => ({ from: r.start, to: r.end - 1 })), names: [...m.reservedName] } }
        : {}),
      ...(messageRules.length ? { protoRules: messageRules } : {}),
    };
    this.types.push(record);

    const decls: Decl[] = [];
    const add = (dp: number[], run: () => void): void => void decls.push({ order: this.info.order(dp), index: decls.length, run });
    m.nestedType.forEach((n, i) => {
      // Map entries are the map field's type in the IR, not messages of their own.
      if (n.options?.mapEntry) return;
      const np = [...p, PATH.message.nested, i];
      add(np, () => this.message(n, full, np, features, groupFieldDocs.get(i) ?? groupExtensionDocs.get(i)));
    });
    m.enumType.forEach((e, i) => add([...p, PATH.message.enum, i], () => this.enumType(e, full, [...p, PATH.message.enum, i], features)));
    m.extension.forEach((x, i) => add([...p, PATH.message.extension, i], () => this.extension(x, full, [...p, PATH.message.extension, i], features)));
    inDeclarationOrder(decls);
  }

  private groupDoc(fieldPath: readonly number[], messagePath: readonly number[]): { doc?: string } {
    const own = this.doc(fieldPath);
    return own.doc !== undefined ? own : this.doc(messagePath);
  }

  /** One field (message field, oneof member or extension), as src/parsers/proto/lower.ts lowers it. */
  private field(f: FieldDescriptorProto, fullScope: string, p: readonly number[], doc: { doc?: string }, inOneof: boolean, isExtension: boolean, parent: Features): Field {
    const full = join(fullScope, f.name);
    const features = this.features(parent, f.options?.features, p);
    const mapEntry = f.label === Label.REPEATED && f.type === FieldType.MESSAGE ? this.messages.get(f.typeName.slice(1)) : undefined;
    let type: TypeExpr;
    let messageTyped = false;
    if (mapEntry?.options?.mapEntry) {
      const key = mapEntry.field.find((x) => x.number === 1);
      const value = mapEntry.field.find((x) => x.number === 2);
      if (!key || !value) this.fail(p, `map entry "${f.typeName}" lacks its key or value field`);
      type = { kind: "map", key: this.typeOf(key, p), value: this.typeOf(value, p) };
    } else {
      type = this.typeOf(f, p);
      messageTyped = f.type === FieldType.MESSAGE || f.type === FieldType.GROUP;
    }
    const isMap = type.kind === "map";

    let label: ProtoFieldHint["label"];
    let occurs: Field["occurs"];
    if (f.label === Label.REPEATED) {
      label = "repeated";
      occurs = isMap ? { min: 0, max: 1 } : { min: 0, max: "unbounded" };
    } else if (f.label === Label.REQUIRED || (this.editions && !inOneof && !isExtension && features.field_presence === "LEGACY_REQUIRED")) {
      label = "required";
      occurs = { min: 1, max: 1 };
    } else if (this.editions) {
      // Oneof members, extensions and message fields always track presence; the rest follow field_presence.
      const explicit = inOneof || isExtension || messageTyped || features.field_presence === "EXPLICIT";
      label = explicit ? "optional" : "implicit";
      occurs = explicit ? { min: 0, max: 1 } : { min: 1, max: 1 };
    } else if (!this.proto3 || f.proto3Optional || inOneof || isExtension) {
      label = "optional";
      occurs = { min: 0, max: 1 };
    } else {
      label = "implicit";
      occurs = messageTyped ? { min: 0, max: 1 } : { min: 1, max: 1 };
    }

    const o = f.options;
    const packable = label === "repeated" && !isMap && f.type !== FieldType.STRING && f.type !== FieldType.BYTES && f.type !== FieldType.MESSAGE && f.type !== FieldType.GROUP;
    let packed = o && isFieldSet(o, FieldOptionsSchema.field.packed) ? o.packed : undefined;
    if (packed === undefined && this.proto3 && packable) packed = true;
    if (this.editions && packable) packed = features.repeated_field_encoding === "PACKED";
    // DELIMITED is proto2's group encoding; a compiler may spell it TYPE_GROUP or TYPE_MESSAGE plus the feature.
    const delimited = this.editions && messageTyped && (f.type === FieldType.GROUP || features.message_encoding === "DELIMITED");
    const usesStrings = type.kind === "map" ? isString(type.key) || isString(type.value) : isString(type);
    const validateUtf8 = this.editions && usesStrings ? features.utf8_validation === "VERIFY" : undefined;
    const jstype = o && isFieldSet(o, FieldOptionsSchema.field.jstype) ? JSTYPES[o.jstype] : undefined;
    const defaultValue = isFieldSet(f, FieldDescriptorProtoSchema.field.defaultValue) ? this.defaultOf(f, p) : undefined;
    // Extensions have no json_name of their own (protoc refuses the option); some compilers still fill it in.
    const jsonName = !isExtension && isFieldSet(f, FieldDescriptorProtoSchema.field.jsonName) ? f.jsonName : toJsonName(f.name);

    const fieldRules = this.rules.read(o, "field", this.origin(p, full, isExtension ? "extension" : "field"));
    const proto: ProtoFieldHint = {
      number: f.number,
      label,
      ...(packed !== undefined ? { packed } : {}),
      ...(f.type === FieldType.GROUP || delimited ? { group: true } : {}),
      ...(defaultValue !== undefined ? { default: defaultValue } : {}),
      jsonName,
      ...(jstype ? { jstype } : {}),
      ...(validateUtf8 !== undefined ? { validateUtf8 } : {}),
      ...(fieldRules.length ? { rules: fieldRules } : {}),
    };
    return {
      kind: "field",
      name: f.name,
      type,
      occurs,
      nullable: false,
      ...(o?.deprecated ? { deprecated: true } : {}),
      ...doc,
      origin: this.origin(p, full, isExtension ? "extension" : "field"),
      wire: { proto, json: { key: jsonName } },
    };
  }

  private typeOf(f: FieldDescriptorProto, p: readonly number[]): TypeExpr {
    const scalar = SCALARS[f.type];
    if (scalar) return { kind: "scalar", scalar };
    if (f.type === FieldType.MESSAGE || f.type === FieldType.GROUP || f.type === FieldType.ENUM) {
      if (!f.typeName.startsWith(".")) this.fail(p, `field "${f.name}" has the unresolved type name "${f.typeName}"`);
      return { kind: "ref", id: "proto:" + f.typeName };
    }
    return this.fail(p, `field "${f.name}" has an unknown type (${f.type})`);
  }

  /** The default as the text parser records it: bytes one char per byte, the rest as the compiler wrote them. */
  private defaultOf(f: FieldDescriptorProto, p: readonly number[]): string {
    if (f.type !== FieldType.BYTES) return f.defaultValue!;
    const bytes = unescapeBytesDefault(f.defaultValue!);
    if (bytes === undefined) this.fail(p, `field "${f.name}" has a malformed bytes default: ${JSON.stringify(f.defaultValue)}`);
    return bytes;
  }

  // ---- extensions -------------------------------------------------------------------------------------------

  private extension(x: FieldDescriptorProto, scope: string, p: number[], features: Features): void {
    const field = this.field(x, scope, p, this.extensionDoc(x, scope, p), false, true, features);
    this.extensions.push({ fullName: join(scope, x.name), extendee: "proto:" + x.extendee, field, origin: field.origin });
  }

  /** A group extension takes the doc of its group message, as a group field does. */
  private extensionDoc(x: FieldDescriptorProto, scope: string, p: readonly number[]): { doc?: string } {
    if (x.type !== FieldType.GROUP) return this.doc(p);
    const siblingsPath = p.length === 2 ? [PATH.file.message] : [...p.slice(0, -2), PATH.message.nested];
    const siblings = p.length === 2 ? this.file.messageType : this.messages.get(scope)?.nestedType ?? [];
    const group = this.groupOf(x, siblings, siblingsPath);
    return group ? this.groupDoc(p, group.path) : this.doc(p);
  }

  // ---- enums ------------------------------------------------------------------------------------------------

  private enumType(e: EnumDescriptorProto, scope: string, p: number[], parent: Features): void {
    const full = join(scope, e.name);
    const features = this.features(parent, e.options?.features, p);
    const type: EnumType = {
      kind: "enum",
      id: "proto:." + full,
      name: e.name,
      scope: this.file.package,
      ...this.doc(p),
      ...(e.options?.deprecated ? { deprecated: true } : {}),
      origin: this.origin(p, full, "enum"),
      base: { kind: "scalar", scalar: "int32" },
      values: e.value.map((v, i) => {
        const vp = [...p, PATH.enum.value, i];
        return {
          name: v.name,
          value: v.name,
          number: v.number,
          ...this.doc(vp),
          ...(v.options?.deprecated ? { deprecated: true } : {}),
          origin: this.origin(vp, join(full, v.name), "enum value"),
        };
      }),
      ...(e.options?.allowAlias ? { allowAlias: true } : {}),
      closed: this.editions ? features.enum_type === "CLOSED" : !this.proto3,
    };
    this.types.push(type);
  }

  // ---- services ---------------------------------------------------------------------------------------------

  private service(s: ServiceDescriptorProto, scope: string, p: number[]): void {
    const full = join(scope, s.name);
    const service: RpcService = {
      kind: "rpc",
      name: s.name,
      fullName: full,
      ...this.doc(p),
      ...(s.options?.deprecated ? { deprecated: true } : {}),
      methods: s.method.map((m, i) => {
        const mp = [...p, PATH.service.method, i];
        const httpRules = this.rules.read(m.options, "method", this.origin(mp, join(full, m.name), "rpc"));
        return {
          name: m.name,
          input: "proto:" + m.inputType,
          output: "proto:" + m.outputType,
          clientStreaming: m.clientStreaming === true,
          serverStreaming: m.serverStreaming === true,
          ...(m.options?.deprecated ? { deprecated: true } : {}),
          ...this.doc(mp),
          ...(httpRules.length ? { httpRules } : {}),
          origin: this.origin(mp, join(full, m.name), "rpc"),
        };
      }),
      origin: this.origin(p, full, "service"),
    };
    this.services.push(service);
  }
}
