import type { Field, Group } from "../ir/model.js";

/**
 * protoc's lowerCamelCase rule for field names (what protobuf-es, ts-proto and protobufjs expose): underscores are
 * dropped and the letter after one is upper-cased ("mime_type" -> "mimeType", "field_name_2" -> "fieldName2").
 */
export function protoCamelCase(name: string): string {
  let out = "";
  let upper = false;
  for (const c of name) {
    if (c === "_") upper = true;
    else if (upper) {
      out += c.toUpperCase();
      upper = false;
    } else out += c;
  }
  return out;
}

/**
 * The TypeScript property name of a field: proto fields are camel-cased like every proto library for JavaScript
 * does; XML and JSON fields keep their wire names (quoted when they are not identifiers).
 */
export function fieldPropertyName(field: Field): string {
  return field.wire.proto ? protoCamelCase(field.name) : field.name;
}

export function oneofPropertyName(group: Group): string {
  return protoCamelCase(group.oneofName ?? group.name ?? "choice");
}
