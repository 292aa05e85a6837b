import type { ElementDecl, IrDocument, RecordType, ScalarType, TypeExpr } from "../ir/model.js";
import type { Names } from "../naming/assign-names.js";
import { recordLayout, type RecordLayout } from "../emitters/xml/record-layout.js";
import { typesContext, type TypesContext, type TypesOptions } from "../emitters/types/context.js";
import { XSI_TYPE_PROPERTY } from "../emitters/types/declarations.js";
import { jsonBase64Decode, jsonBase64Encode } from "../runtime/json/base64.js";

/**
 * The JSON form of an XSD element's value, for `specforge convert --from xml --to json` and back: exactly the shape
 * of the generated types (property names, `$type` for xsi:type, `$any` open content as `{ ns, name, value }`,
 * `$attributes`, null for xsi:nil), with the values JSON cannot carry written as text:
 *
 * - bigint (xsd:long and xsd:integer families) as a decimal string: `"-9223372036854775808"`;
 * - bytes (base64Binary, hexBinary) as padded base64;
 * - a Date (dateTime with `dates: "Date"`) as its ISO 8601 string; dates held as strings stay as they are;
 * - float/double NaN, ±infinity and -0 as their XSD lexical forms `"NaN"`, `"INF"`, `"-INF"`, `"-0"`.
 *
 * Writing is value-driven (those are the only values JSON.stringify cannot write faithfully). Reading is driven by
 * the schema: it knows which strings are bigints or bytes, and checks the shape as it goes, so a JSON document of the
 * wrong shape fails with the JSON pointer of the first problem instead of reaching the XML encoder.
 */

/** A JSON document that does not have the shape of the element's type. */
export class XmlJsonShapeError extends Error {
  constructor(
    readonly path: string,
    readonly detail: string,
  ) {
    super(`${path || "/"}: ${detail}`);
    this.name = "XmlJsonShapeError";
  }
}

export interface XmlJsonForm {
  /** The element's decoded value (what `decode<E>Element` returns) as a JSON-compatible value. */
  toJson(value: unknown): unknown;
  /** A parsed JSON document as the value `encode<E>Element` takes; XmlJsonShapeError when its shape is wrong. */
  fromJson(json: unknown): unknown;
}

/** A generated value as JSON: only bigint, bytes, Date and non-finite/-0 numbers need rewriting. */
export function valueToJson(value: unknown): unknown {
  switch (typeof value) {
    case "bigint":
      return String(value);
    case "number":
      if (Number.isFinite(value)) return Object.is(value, -0) ? "-0" : value;
      return Number.isNaN(value) ? "NaN" : value > 0 ? "INF" : "-INF";
    case "object": {
      if (value === null) return null;
      if (value instanceof Uint8Array) return jsonBase64Encode(value);
      if (value instanceof Date) return value.toISOString();
      if (Array.isArray(value)) return value.map(valueToJson);
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(value)) if (v !== undefined) out[k] = valueToJson(v);
      return out;
    }
    default:
      return value;
  }
}

const INT64 = new Set(["int64", "uint64", "sint64", "fixed64", "sfixed64"]);
const INT32 = new Set(["int32", "uint32", "sint32", "fixed32", "sfixed32"]);
const INTEGER_TEXT = /^[+-]?[0-9]+$/;

export function xmlJsonForm(doc: IrDocument, names: Names, element: ElementDecl, options: Partial<TypesOptions> = {}): XmlJsonForm {
  const ctx = typesContext(doc, names, options);
  const layouts = new Map<string, RecordLayout>();
  const layoutOf = (r: RecordType): RecordLayout => {
    let l = layouts.get(r.id);
    if (l === undefined) layouts.set(r.id, (l = recordLayout(r, ctx)));
    return l;
  };
  // Open content names its records by local name alone (`$type`), the first declared one winning, as openTypes does.
  const openRecords = new Map<string, RecordType>();
  for (const t of doc.types) if (t.kind === "record" && !t.anonymous && !openRecords.has(t.name)) openRecords.set(t.name, t);

  const read = new JsonReader(ctx, layoutOf, openRecords);
  return {
    toJson: valueToJson,
    fromJson(json) {
      if (json === null && element.nullable) return null;
      return read.value(json, element.type, "");
    },
  };
}

class JsonReader {
  constructor(
    private readonly ctx: TypesContext,
    private readonly layoutOf: (r: RecordType) => RecordLayout,
    private readonly openRecords: ReadonlyMap<string, RecordType>,
  ) {}

  value(json: unknown, t: TypeExpr, path: string): unknown {
    switch (t.kind) {
      case "scalar":
        return this.scalar(json, t, path);
      case "ref": {
        const n = this.ctx.types.get(t.id);
        if (n === undefined) throw new Error(`internal: unresolved type ${t.id}`);
        if (n.kind === "enum") {
          const s = expectString(json, path);
          if (!n.values.some((v) => v.value === s)) throw new XmlJsonShapeError(path, `${JSON.stringify(s)} is not a value of ${n.name}`);
          return s;
        }
        if (n.kind === "alias") return this.value(json, n.target, path);
        if (n.kind === "record") return this.record(json, n, path, false);
        throw new XmlJsonShapeError(path, `${n.name} has no XML value`);
      }
      case "list": {
        if (!Array.isArray(json)) throw shape(path, "an array", json);
        return json.map((item, i) => this.value(item, t.of, `${path}/${i}`));
      }
      case "union": {
        // A simple-type union: the first member that accepts the JSON value, as the generated writer tries them.
        for (const m of t.of) {
          try {
            return this.value(json, m, path);
          } catch (e) {
            if (!(e instanceof XmlJsonShapeError)) throw e;
          }
        }
        throw new XmlJsonShapeError(path, `${describe(json)} fits none of the union's member types`);
      }
      case "literal":
        if (json !== t.value) throw shape(path, JSON.stringify(t.value), json);
        return json;
      case "map":
        throw new XmlJsonShapeError(path, "maps have no XML form");
    }
  }

  private scalar(json: unknown, t: ScalarType, path: string): unknown {
    const s = t.scalar;
    if (s === "any") return this.anyValue(json, path);
    if (s === "boolean") {
      if (typeof json !== "boolean") throw shape(path, "true or false", json);
      return json;
    }
    if (s === "bytes") {
      const bytes = jsonBase64Decode(expectString(json, path));
      if (bytes === undefined) throw new XmlJsonShapeError(path, `expected base64 (padded, standard alphabet), got ${describe(json)}`);
      return bytes;
    }
    if (INT32.has(s)) {
      if (typeof json !== "number" || !Number.isInteger(json)) throw shape(path, "an integer", json);
      return json;
    }
    if (s === "float" || s === "double") {
      if (typeof json === "number") return json;
      const special = { NaN: NaN, INF: Infinity, "-INF": -Infinity, "-0": -0 }[json as string];
      if (typeof json === "string" && special !== undefined) return special;
      throw shape(path, 'a number (or "NaN", "INF", "-INF", "-0")', json);
    }
    if (s === "integer" || INT64.has(s)) return this.int64(json, s === "integer" ? "bigint" : this.ctx.options.int64, path);
    if (s === "dateTime" && this.ctx.options.dates === "Date") {
      const d = new Date(expectString(json, path));
      if (Number.isNaN(d.getTime())) throw new XmlJsonShapeError(path, `${JSON.stringify(json)} is not a date-time`);
      return d;
    }
    // string, decimal, date, time, duration, anyURI, QName, and dateTime held as a string: their lexical form.
    return expectString(json, path);
  }

  private int64(json: unknown, mode: "bigint" | "string" | "number", path: string): unknown {
    if (mode === "number") {
      if (typeof json !== "number" || !Number.isInteger(json)) throw shape(path, "an integer", json);
      return json;
    }
    // A decimal string is the documented form; an integer JSON number small enough to be exact is accepted too.
    let text: string;
    if (typeof json === "number" && Number.isSafeInteger(json)) text = String(json);
    else if (typeof json === "string" && INTEGER_TEXT.test(json)) text = json;
    else throw shape(path, "an integer as a decimal string", json);
    return mode === "bigint" ? BigInt(text) : text;
  }

  private record(json: unknown, declared: RecordType, path: string, inOpenContent: boolean): Record<string, unknown> {
    if (typeof json !== "object" || json === null || Array.isArray(json)) throw shape(path, "an object", json);
    const obj = json as Record<string, unknown>;
    const r = inOpenContent ? declared : this.member(declared, obj[XSI_TYPE_PROPERTY], path);
    const layout = this.layoutOf(r);
    const out: Record<string, unknown> = {};
    const known = new Set<string>();
    if (layout.familyRoot !== undefined || inOpenContent) known.add(XSI_TYPE_PROPERTY);
    for (const slot of layout.slots) {
      known.add(slot.key);
      const v = obj[slot.key];
      const at = `${path}/${jsonPointerToken(slot.key)}`;
      if (v === undefined) {
        if (slot.kind === "element" && slot.occurs.min >= 1 && !slot.inChoice) throw new XmlJsonShapeError(at, "required property is missing");
        continue;
      }
      if (slot.kind === "any") {
        if (!Array.isArray(v)) throw shape(at, "an array of { ns, name, value }", v);
        out[slot.key] = v.map((item, i) => this.openItem(item, `${at}/${i}`));
        continue;
      }
      if (slot.kind === "ordered") {
        // A repeating choice in document order: `{ kind, value }` items, each value of its item's type.
        if (!Array.isArray(v)) throw shape(at, "an array of { kind, value }", v);
        const kinds = slot.items.map((i) => i.kind).join(", ");
        out[slot.key] = v.map((item: unknown, i) => {
          const p = `${at}/${i}`;
          if (typeof item !== "object" || item === null || Array.isArray(item)) throw shape(p, `{ kind, value } (kind: ${kinds})`, item);
          const { kind, value } = item as { kind?: unknown; value?: unknown };
          const found = slot.items.find((x) => x.kind === kind);
          if (found === undefined) throw new XmlJsonShapeError(`${p}/kind`, `must be one of ${kinds}`);
          const e = found.slot;
          if (e.kind === "any") return { kind, value: this.openItem(value, `${p}/value`) };
          return { kind, value: value === null && e.field.nullable ? null : this.value(value, e.field.type, `${p}/value`) };
        });
        continue;
      }
      const nullable = slot.kind === "element" && slot.field.nullable === true;
      const one = (item: unknown, p: string): unknown => (item === null && nullable ? null : this.value(item, slot.field.type, p));
      if (slot.list) {
        if (!Array.isArray(v)) throw shape(at, "an array", v);
        out[slot.key] = v.map((item, i) => one(item, `${at}/${i}`));
      } else out[slot.key] = one(v, at);
    }
    if (layout.attributesKey !== undefined) {
      known.add(layout.attributesKey);
      const attrs = obj[layout.attributesKey];
      if (attrs !== undefined) out[layout.attributesKey] = stringMap(attrs, `${path}/${jsonPointerToken(layout.attributesKey)}`);
    }
    for (const key of Object.keys(obj)) {
      if (!known.has(key)) throw new XmlJsonShapeError(`${path}/${jsonPointerToken(key)}`, `${r.name} has no property ${JSON.stringify(key)}`);
    }
    if (typeof obj[XSI_TYPE_PROPERTY] === "string") out[XSI_TYPE_PROPERTY] = obj[XSI_TYPE_PROPERTY];
    return out;
  }

  /** The record a `$type` names within the declared type's family (absent: the declared type itself). */
  private member(declared: RecordType, name: unknown, path: string): RecordType {
    const family = [declared.id, ...(this.ctx.subtypes.get(declared.id) ?? [])].map((id) => this.ctx.types.get(id) as RecordType);
    if (name === undefined) return declared;
    const at = `${path}/${XSI_TYPE_PROPERTY}`;
    if (typeof name !== "string") throw shape(at, "a type name", name);
    const found = family.find((r) => r.name === name);
    if (found === undefined) {
      throw new XmlJsonShapeError(at, `${JSON.stringify(name)} is not ${declared.name} or a type derived from it (${family.map((r) => r.name).join(", ")})`);
    }
    return found;
  }

  private openItem(json: unknown, path: string): unknown {
    if (typeof json !== "object" || json === null || Array.isArray(json)) throw shape(path, "{ ns, name, value }", json);
    const { ns, name, value, attributes, ...rest } = json as Record<string, unknown>;
    const extra = Object.keys(rest)[0];
    if (extra !== undefined) throw new XmlJsonShapeError(`${path}/${jsonPointerToken(extra)}`, "open content items have only ns, name, value and attributes");
    if (typeof ns !== "string") throw shape(`${path}/ns`, "a namespace string", ns);
    if (typeof name !== "string") throw shape(`${path}/name`, "an element name", name);
    if (attributes === undefined) return { ns, name, value: this.anyValue(value, `${path}/value`) };
    if (typeof attributes !== "object" || attributes === null || Array.isArray(attributes)) throw shape(`${path}/attributes`, "an object of attribute values", attributes);
    const attrs = Object.create(null) as Record<string, string>;
    for (const [k, v] of Object.entries(attributes)) {
      if (typeof v !== "string") throw shape(`${path}/attributes/${jsonPointerToken(k)}`, "an attribute value string", v);
      attrs[k] = v;
    }
    return { ns, name, value: this.anyValue(value, `${path}/value`), attributes: attrs };
  }

  /** xsd:anyType and open content values: null, text, a record named by `$type`, or a list of child elements. */
  private anyValue(json: unknown, path: string): unknown {
    if (json === null || typeof json === "string" || typeof json === "boolean") return json;
    if (typeof json === "number") return json;
    if (Array.isArray(json)) return json.map((item, i) => this.openItem(item, `${path}/${i}`));
    if (typeof json === "object") {
      const name = (json as Record<string, unknown>)[XSI_TYPE_PROPERTY];
      const r = typeof name === "string" ? this.openRecords.get(name) : undefined;
      if (r === undefined) throw new XmlJsonShapeError(path, "an object in open content needs a $type naming a record type of the schema");
      return this.record(json, r, path, true);
    }
    throw shape(path, "null, a string, an array of { ns, name, value } or a record with $type", json);
  }
}

function expectString(json: unknown, path: string): string {
  if (typeof json !== "string") throw shape(path, "a string", json);
  return json;
}

function stringMap(json: unknown, path: string): Record<string, string> {
  if (typeof json !== "object" || json === null || Array.isArray(json)) throw shape(path, "an object of attribute values", json);
  const out = Object.create(null) as Record<string, string>;
  for (const [k, v] of Object.entries(json)) out[k] = expectString(v, `${path}/${jsonPointerToken(k)}`);
  return out;
}

function shape(path: string, expected: string, got: unknown): XmlJsonShapeError {
  return new XmlJsonShapeError(path, `expected ${expected}, got ${describe(got)}`);
}

function describe(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "an array";
  if (typeof v === "object") return "an object";
  const text = JSON.stringify(v);
  return text.length > 40 ? `${text.slice(0, 37)}...` : text;
}

function jsonPointerToken(key: string): string {
  return key.replace(/~/g, "~0").replace(/\//g, "~1");
}
