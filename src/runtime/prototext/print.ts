/**
 * The protobuf text format printer (what `protoc --decode` prints): one `name: value` line per value, nested
 * messages as `name {` ... `}` indented by two spaces, fields in number order, then unknown fields by number.
 * Driven by the field tables of generated `prototext.ts` files.
 */
import { textDouble, textFloat, textQuoteBytes, textQuoteString } from "./escape.js";
import type { TextField, TextMessage, TextScalar, TextTypes, TextValue } from "./table.js";
import { printUnknownFields } from "./unknown.js";
import { pbDateParts } from "../protobuf/dates.js";

type Obj = Record<string, unknown>;

interface PrintContext {
  readonly unknown: boolean;
  readonly types: TextTypes | undefined;
  readonly expandAny: boolean;
}

export interface TextPrintOptions {
  /** Print the unknown fields kept in `$unknown` (by number). Default true, as protoc does. */
  readonly printUnknownFields?: boolean;
  /**
   * Print an Any whose type the file knows as `[type.googleapis.com/pkg.Type] { ... }`. Default false: protoc
   * --decode prints type_url and value (both forms read back the same).
   */
  readonly expandAny?: boolean;
}

function scalarText(scalar: TextScalar, v: unknown): string {
  switch (scalar) {
    case "double":
      return textDouble(v as number);
    case "float":
      return textFloat(v as number);
    case "bool":
      return v === true ? "true" : "false";
    case "string":
      return textQuoteString(v as string);
    case "bytes":
      return textQuoteBytes(v as Uint8Array);
    default:
      // Integers: numbers, bigints or decimal strings (the int64 option), all printed in decimal.
      return String(v);
  }
}

function isZero(value: TextValue, v: unknown): boolean {
  if (value.kind === "enum") return v === 0 || v === value.zero;
  if (value.kind !== "scalar") return false;
  switch (value.scalar) {
    case "string":
      return v === "";
    case "bytes":
      return (v as Uint8Array).length === 0;
    case "bool":
      return v === false;
    case "double":
    case "float":
      // protoc 3.21 prints -0.0 of an implicit field (its bits are not zero).
      return v === 0 && !Object.is(v, -0);
    default:
      return v === 0 || v === 0n || v === "0";
  }
}

function printValue(name: string, value: TextValue, v: unknown, indent: string, out: string[], depth: number, ctx: PrintContext): void {
  if (value.kind === "message") {
    out.push(`${indent}${name} {\n`);
    const m = value.date === true && v instanceof Date ? (pbDateParts(v) as Obj) : (v as Obj);
    printMessage(m, value.message(), `${indent}  `, out, depth + 1, ctx);
    out.push(`${indent}}\n`);
  } else if (value.kind === "enum") out.push(`${indent}${name}: ${String(v)}\n`);
  else out.push(`${indent}${name}: ${scalarText(value.scalar, v)}\n`);
}

/** Map keys in protoc's order: numerically, strings by code unit, false before true. */
function sortedKeys(keys: string[], scalar: TextScalar): string[] {
  if (scalar === "string") return keys.sort();
  if (scalar === "bool") return keys.sort((a, b) => (a === b ? 0 : a === "false" ? -1 : 1));
  return keys.sort((a, b) => {
    const x = BigInt(a);
    const y = BigInt(b);
    return x < y ? -1 : x > y ? 1 : 0;
  });
}

function mapKeyValue(scalar: TextScalar, key: string): unknown {
  return scalar === "bool" ? key === "true" : key;
}

function printField(message: Obj, f: TextField, indent: string, out: string[], depth: number, ctx: PrintContext): void {
  let v: unknown;
  if (f.oneof !== undefined) {
    const o = message[f.oneof] as { case?: string; value?: unknown } | undefined;
    if (o === undefined || o.case !== f.prop) return;
    v = o.value;
  } else v = message[f.prop];
  if (v === undefined || v === null) return;
  if (f.mapKey !== undefined) {
    const map = v as Obj;
    for (const key of sortedKeys(Object.keys(map), f.mapKey)) {
      out.push(`${indent}${f.name} {\n`);
      const inner = `${indent}  `;
      out.push(`${inner}key: ${scalarText(f.mapKey, mapKeyValue(f.mapKey, key))}\n`);
      printValue("value", f.value, map[key], inner, out, depth + 1, ctx);
      out.push(`${indent}}\n`);
    }
    return;
  }
  if (f.repeated === true) {
    for (const item of v as unknown[]) printValue(f.name, f.value, item, indent, out, depth, ctx);
    return;
  }
  if (f.implicit === true && f.oneof === undefined && isZero(f.value, v)) return;
  printValue(f.name, f.value, v, indent, out, depth, ctx);
}

function printMessage(message: Obj, table: TextMessage, indent: string, out: string[], depth: number, ctx: PrintContext): void {
  // Generated types cannot be cyclic values, but a hand-built object can: refuse rather than overflow the stack.
  if (depth > 100) throw new RangeError("text format: message nesting deeper than 100");
  if (table.any === true && ctx.expandAny && printAny(message, table, indent, out, depth, ctx)) return;
  const extensions = table.extensionsProp !== undefined ? (message[table.extensionsProp] as Obj | undefined) : undefined;
  for (const f of table.fields) {
    if (f.extension === true) {
      if (extensions !== undefined) printField(extensions, f, indent, out, depth, ctx);
    } else printField(message, f, indent, out, depth, ctx);
  }
  const bytes = ctx.unknown ? (message[table.unknownProp] as Uint8Array | undefined) : undefined;
  if (bytes !== undefined && bytes.length > 0) printUnknownFields(bytes, indent, out);
}

/**
 * An Any whose type this file knows, expanded as protoc prints it: `[type.googleapis.com/pkg.Type] { ... }`.
 * False (print the plain fields instead) when the type is unknown or the value does not decode.
 */
function printAny(message: Obj, table: TextMessage, indent: string, out: string[], depth: number, ctx: PrintContext): boolean {
  const urlField = table.fields.find((f) => f.name === "type_url");
  const valueField = table.fields.find((f) => f.name === "value");
  if (!urlField || !valueField) return false;
  const url = message[urlField.prop];
  const value = message[valueField.prop];
  if (typeof url !== "string" || !(value instanceof Uint8Array)) return false;
  const type = ctx.types?.get(url.slice(url.lastIndexOf("/") + 1));
  if (!type) return false;
  let inner: object;
  try {
    inner = type.decode(value);
  } catch {
    return false;
  }
  out.push(`${indent}[${url}] {\n`);
  printMessage(inner as Obj, type.table, `${indent}  `, out, depth + 1, ctx);
  out.push(`${indent}}\n`);
  return true;
}

/** A message in the protobuf text format, as `protoc --decode` prints it. */
export function printText(message: object, table: TextMessage, options: TextPrintOptions = {}, types?: TextTypes): string {
  const out: string[] = [];
  printMessage(message as Obj, table, "", out, 0, { unknown: options.printUnknownFields !== false, types, expandAny: options.expandAny === true });
  return out.join("");
}
