/**
 * Validation options from descriptors (protoc-gen-specforge): a compiler hands the options of a field, message or
 * oneof as FieldOptions / MessageOptions / OneofOptions whose extensions (buf.validate.field, validate.rules, ...)
 * are unknown fields there. They are read with the request's own buf/validate/validate.proto (or validate/validate.proto)
 * descriptors and turned into the same structured IR (ProtoRuleOption) the .proto text front end produces.
 */
import { create, createFileRegistry, getExtension, hasExtension, isFieldSet, type DescExtension, type DescField, type DescMessage, type Message, type Registry } from "@bufbuild/protobuf";
import { FileDescriptorSetSchema, type FileDescriptorProto } from "@bufbuild/protobuf/wkt";
import type { ProtoOptionEntry, ProtoOptionValue, ProtoRuleOption } from "../../ir/model.js";
import { HTTP_EXTENSIONS, RULE_EXTENSIONS } from "../proto/rule-options.js";

const KINDS = {
  field: ["buf.validate.field", "validate.rules", "buf.validate.predefined"],
  message: ["buf.validate.message", "validate.disabled", "validate.ignored"],
  oneof: ["buf.validate.oneof", "validate.required"],
  method: ["google.api.http"],
} as const;

export class RuleOptionReader {
  private readonly registry: Registry | undefined;
  private readonly extensions = new Map<string, DescExtension>();
  private readonly byExtendee = new Map<string, DescExtension[]>();

  constructor(files: readonly FileDescriptorProto[]) {
    // Only when the request carries one of the validation files (or google.api.http's): otherwise no option is one.
    const wanted = ["buf/validate/validate.proto", "validate/validate.proto", "google/api/annotations.proto"];
    if (!files.some((f) => wanted.includes(f.name))) return;
    try {
      // The registry wants every file after its imports.
      const byName = new Map(files.map((f) => [f.name, f]));
      const sorted: FileDescriptorProto[] = [];
      const seen = new Set<FileDescriptorProto>();
      const visit = (f: FileDescriptorProto | undefined): void => {
        if (!f || seen.has(f)) return;
        seen.add(f);
        for (const dep of f.dependency) visit(byName.get(dep));
        sorted.push(f);
      };
      for (const f of files) visit(f);
      this.registry = createFileRegistry(create(FileDescriptorSetSchema, { file: sorted }));
    } catch {
      return;
    }
    for (const d of this.registry) {
      if (d.kind !== "extension") continue;
      if (RULE_EXTENSIONS.has(d.typeName) || HTTP_EXTENSIONS.has(d.typeName)) this.extensions.set(d.typeName, d);
      const list = this.byExtendee.get(d.extendee.typeName) ?? [];
      list.push(d);
      this.byExtendee.set(d.extendee.typeName, list);
    }
  }

  /** The validation options set on `options` (a FieldOptions, MessageOptions or OneofOptions message), or google.api.http (MethodOptions). */
  read(options: Message | undefined, kind: keyof typeof KINDS, at: { file: string; line: number; column: number }): ProtoRuleOption[] {
    if (!options || this.extensions.size === 0) return [];
    const out: ProtoRuleOption[] = [];
    for (const name of KINDS[kind]) {
      const ext = this.extensions.get(name);
      if (!ext || !hasExtension(options, ext)) continue;
      const value = getExtension(options, ext) as unknown;
      const converted = ext.fieldKind === "message" ? this.message(value as Message, ext.message) : ext.fieldKind === "scalar" ? scalar(value) : undefined;
      if (converted) out.push({ extension: name, path: [], value: converted, file: at.file, line: at.line, column: at.column });
    }
    return out;
  }

  private message(msg: Message, desc: DescMessage): ProtoOptionValue {
    const fields: ProtoOptionEntry[] = [];
    const m = msg as unknown as Record<string, unknown>;
    for (const f of desc.fields) {
      if (!isFieldSet(msg, f)) continue;
      const raw = f.oneof ? (m[f.oneof.localName] as { value: unknown }).value : m[f.localName];
      const value = this.value(f, raw);
      if (value) fields.push({ name: f.name, value, line: 0, column: 0 });
    }
    // Predefined rules: extensions of this rule message set on it.
    for (const ext of this.byExtendee.get(desc.typeName) ?? []) {
      if (!hasExtension(msg, ext)) continue;
      const value = this.value(ext, getExtension(msg, ext));
      if (value) fields.push({ name: `(${ext.typeName})`, value, line: 0, column: 0 });
    }
    return { kind: "message", fields };
  }

  private value(f: DescField | DescExtension, raw: unknown): ProtoOptionValue | undefined {
    switch (f.fieldKind) {
      case "list":
        return {
          kind: "list",
          items: (raw as unknown[]).map((item) =>
            f.listKind === "message" ? this.message(item as Message, f.message) : f.listKind === "enum" ? enumValue(f.enum.values, item as number) : scalar(item)!,
          ),
        };
      case "message":
        return this.message(raw as Message, f.message);
      case "enum":
        return enumValue(f.enum.values, raw as number);
      case "scalar":
        return scalar(raw);
      default:
        return undefined;
    }
  }
}

function enumValue(values: readonly { name: string; number: number }[], n: number): ProtoOptionValue {
  return { kind: "ident", text: values.find((v) => v.number === n)?.name ?? String(n) };
}

function scalar(v: unknown): ProtoOptionValue | undefined {
  if (typeof v === "boolean") return { kind: "ident", text: String(v) };
  if (typeof v === "number") return { kind: "number", text: Number.isNaN(v) ? "nan" : v === Infinity ? "inf" : v === -Infinity ? "-inf" : String(v) };
  if (typeof v === "bigint") return { kind: "number", text: v.toString() };
  if (typeof v === "string") return { kind: "string", value: v, bytes: Array.from(new TextEncoder().encode(v), (b) => String.fromCharCode(b)).join("") };
  if (v instanceof Uint8Array) {
    const bytes = Array.from(v, (b) => String.fromCharCode(b)).join("");
    return { kind: "string", value: bytes, bytes };
  }
  return undefined;
}
