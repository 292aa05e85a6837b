/**
 * Facts (see facts.ts) of one file as a compiler described it: a DescFile of @bufbuild/protobuf's registry built
 * from the compiler's FileDescriptorSet. Presence, packed-ness, closedness and UTF-8 validation are taken from the
 * registry's resolved view (protobuf-es applies the syntax defaults and features), everything else from the
 * descriptor protos as the compiler wrote them.
 */
import { isFieldSet, ScalarType, type DescEnum, type DescExtension, type DescField, type DescFile, type DescMessage } from "@bufbuild/protobuf";
import { FeatureSet_FieldPresence, FieldDescriptorProto_Label, FieldDescriptorProtoSchema } from "@bufbuild/protobuf/wkt";
import { canonicalDefault, put, ranges, type Facts } from "./facts.js";

export function descriptorFacts(file: DescFile): Facts {
  const facts: Facts = new Map();
  const message = (m: DescMessage): void => {
    const el = `message .${m.typeName}`;
    put(facts, el, "deprecated", m.deprecated);
    const ext = m.proto.extensionRange.map((r) => ({ from: r.start, to: r.end - 1 }));
    if (ext.length) put(facts, el, "extension-ranges", ranges(ext));
    const reserved = m.proto.reservedRange.map((r) => ({ from: r.start, to: r.end - 1 }));
    if (reserved.length) put(facts, el, "reserved-ranges", ranges(reserved));
    if (m.proto.reservedName.length) put(facts, el, "reserved-names", [...m.proto.reservedName].sort().join(","));
    for (const f of m.fields) field(facts, `field .${m.typeName}.${f.name}`, f);
    m.nestedMessages.forEach(message);
    m.nestedEnums.forEach((e) => enumType(facts, e));
    for (const x of m.nestedExtensions) field(facts, `extension .${x.typeName}`, x);
  };
  file.messages.forEach(message);
  file.enums.forEach((e) => enumType(facts, e));
  for (const x of file.extensions) field(facts, `extension .${x.typeName}`, x);
  for (const s of file.services) {
    put(facts, `service .${s.typeName}`, "deprecated", s.deprecated);
    for (const m of s.methods) {
      const el = `method .${s.typeName}.${m.name}`;
      put(facts, el, "input", `.${m.input.typeName}`);
      put(facts, el, "output", `.${m.output.typeName}`);
      put(facts, el, "kind", m.methodKind);
      put(facts, el, "deprecated", m.deprecated);
    }
  }
  return facts;
}

function enumType(facts: Facts, e: DescEnum): void {
  const el = `enum .${e.typeName}`;
  put(facts, el, "closed", !e.open);
  put(facts, el, "allow-alias", e.proto.options?.allowAlias === true);
  put(facts, el, "deprecated", e.deprecated);
  for (const v of e.values) {
    put(facts, `enum-value .${e.typeName}.${v.name}`, "number", v.number);
    put(facts, `enum-value .${e.typeName}.${v.name}`, "deprecated", v.deprecated);
  }
}

const scalarName = (s: ScalarType): string => ScalarType[s].toLowerCase();

function field(facts: Facts, el: string, f: DescField | DescExtension): void {
  put(facts, el, "number", f.number);
  put(facts, el, "type", typeOf(f));
  // Editions write LABEL_OPTIONAL for a required field and say LEGACY_REQUIRED in its features; the resolved
  // presence is what the IR's label follows.
  const required = f.proto.label === FieldDescriptorProto_Label.REQUIRED || (f.fieldKind !== "list" && f.fieldKind !== "map" && f.presence === FeatureSet_FieldPresence.LEGACY_REQUIRED);
  const label = f.proto.label === FieldDescriptorProto_Label.REPEATED ? "repeated" : required ? "required" : "optional";
  put(facts, el, "label", label);
  put(facts, el, "deprecated", f.deprecated);
  if (f.fieldKind === "list") put(facts, el, "packed", f.packed);
  if (f.fieldKind !== "list" && f.fieldKind !== "map") {
    const presence = f.presence === FeatureSet_FieldPresence.IMPLICIT ? "implicit" : f.presence === FeatureSet_FieldPresence.LEGACY_REQUIRED ? "required" : "explicit";
    put(facts, el, "presence", presence);
  }
  if (f.kind === "field") {
    put(facts, el, "json", f.jsonName);
    if (f.oneof) put(facts, el, "oneof", f.oneof.name);
  } else {
    put(facts, el, "extendee", `.${f.extendee.typeName}`);
  }
  if (usesString(f)) put(facts, el, "utf8-verified", f.utf8Validation);
  const hasDefault = isFieldSet(f.proto, FieldDescriptorProtoSchema.field.defaultValue);
  if (f.fieldKind === "enum" && hasDefault) {
    put(facts, el, "default", f.proto.defaultValue);
  } else if (f.fieldKind === "scalar" && f.scalar === ScalarType.BYTES) {
    // The compiler C-escapes bytes defaults; @bufbuild/protobuf 2.17's getDefaultValue() drops \' and \" from them,
    // so they are unescaped here.
    if (hasDefault) put(facts, el, "default", canonicalDefault("bytes", cUnescape(f.proto.defaultValue)));
  } else if (f.fieldKind === "scalar") {
    const d = f.getDefaultValue();
    if (d !== undefined) put(facts, el, "default", canonicalDefault(scalarName(f.scalar), d));
  }
}

function typeOf(f: DescField | DescExtension): string {
  switch (f.fieldKind) {
    case "scalar":
      return scalarName(f.scalar);
    case "enum":
      return `.${f.enum.typeName}`;
    case "message":
      return f.delimitedEncoding ? `group .${f.message.typeName}` : `.${f.message.typeName}`;
    case "list":
      if (f.listKind === "scalar") return scalarName(f.scalar);
      if (f.listKind === "enum") return `.${f.enum.typeName}`;
      return f.delimitedEncoding ? `group .${f.message.typeName}` : `.${f.message.typeName}`;
    case "map": {
      const value = f.mapKind === "scalar" ? scalarName(f.scalar) : f.mapKind === "enum" ? `.${f.enum.typeName}` : `.${f.message.typeName}`;
      return `map<${scalarName(f.mapKey)}, ${value}>`;
    }
  }
}

function usesString(f: DescField | DescExtension): boolean {
  if (f.fieldKind === "map") return f.mapKey === ScalarType.STRING || (f.mapKind === "scalar" && f.scalar === ScalarType.STRING);
  return (f.fieldKind === "scalar" || (f.fieldKind === "list" && f.listKind === "scalar")) && f.scalar === ScalarType.STRING;
}

const SIMPLE_ESCAPES: Readonly<Record<string, number>> = { n: 10, r: 13, t: 9, a: 7, b: 8, f: 12, v: 11, "\\": 92, "'": 39, '"': 34, "?": 63 };

/** protoc's CEscape undone: simple escapes, \NNN octal and \xHH hex, every other char one byte. */
function cUnescape(text: string): Uint8Array {
  const out: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c !== "\\") {
      out.push(c.charCodeAt(0));
      continue;
    }
    const e = text[++i]!;
    const octal = /^[0-7]{1,3}/.exec(text.slice(i, i + 3));
    const hex = /^x([0-9a-fA-F]{1,2})/.exec(text.slice(i, i + 3));
    if (octal) {
      out.push(parseInt(octal[0], 8) & 0xff);
      i += octal[0].length - 1;
    } else if (hex) {
      out.push(parseInt(hex[1]!, 16));
      i += hex[0].length - 1;
    } else if (Object.hasOwn(SIMPLE_ESCAPES, e)) out.push(SIMPLE_ESCAPES[e]!);
    else throw new Error(`unknown escape \\${e} in a bytes default: ${text}`);
  }
  return new Uint8Array(out);
}
