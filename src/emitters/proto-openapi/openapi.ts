/**
 * An OpenAPI 3.1 document out of a proto's transcoded routes (google.api.http): one operation per binding, path and
 * query parameters as the transcoding server reads them, ProtoJSON schemas for the messages (int64 as strings, enums
 * by name, well-known types in their JSON forms), comments as descriptions, protovalidate rules as JSON Schema
 * keywords where one maps, and google.rpc.Status as the error answer.
 *
 * A multi-segment path variable (`{name=shelves/*}`) has no OpenAPI form (a path parameter cannot hold "/"): its
 * wildcards become parameters of their own (`/v1/shelves/{name_1}`), which a client fills segment by segment and the
 * server reads back into the field. `**` is one parameter that may hold "/" (x-specforge-multi-segment); OpenAPI
 * clients percent-encode it, so such routes are best called with the proto client.
 */
import type { Field, IrDocument, RecordType, RpcMethod, RpcService, TypeId } from "../../ir/model.js";
import { fieldRules, scalarOf, type RuleTree, type RuleValue } from "../protobuf/validate/rules.js";
import { kindOf, messageFields, protoFullName, serviceBindings, type CheckedBinding } from "../proto-http/http-rules.js";

type Json = Record<string, unknown>;

const WKT = "proto:.google.protobuf.";
const STATUS_SCHEMA = "google.rpc.Status";
const OPERATION_METHODS = new Set(["GET", "PUT", "POST", "DELETE", "OPTIONS", "HEAD", "PATCH", "TRACE"]);

function isRepeated(f: Field): boolean {
  return f.occurs.max === "unbounded" || f.occurs.max > 1;
}

function ref(id: TypeId): Json {
  return { $ref: `#/components/schemas/${protoFullName(id)}` };
}

/** The ProtoJSON schema of a scalar. */
function scalarSchema(scalar: string): Json {
  switch (scalar) {
    case "string":
      return { type: "string" };
    case "bytes":
      return { type: "string", contentEncoding: "base64" };
    case "boolean":
      return { type: "boolean" };
    case "int32":
    case "sint32":
    case "sfixed32":
      return { type: "integer", format: "int32" };
    case "uint32":
    case "fixed32":
      return { type: "integer", format: "int32", minimum: 0 };
    case "int64":
    case "sint64":
    case "sfixed64":
      return { type: "string", format: "int64", pattern: "^-?[0-9]+$" };
    case "uint64":
    case "fixed64":
      return { type: "string", format: "uint64", pattern: "^[0-9]+$" };
    case "float":
    case "double":
      // ProtoJSON writes non-finite values as strings.
      return { oneOf: [{ type: "number", format: scalar }, { type: "string", enum: ["NaN", "Infinity", "-Infinity"] }] };
    default:
      return { type: "string" };
  }
}

/** Well-known types in their ProtoJSON forms. */
function wellKnownSchema(name: string): Json | undefined {
  switch (name) {
    case "Timestamp":
      return { type: "string", format: "date-time" };
    case "Duration":
      return { type: "string", pattern: "^-?[0-9]+(\\.[0-9]{1,9})?s$" };
    case "FieldMask":
      return { type: "string" };
    case "Struct":
      return { type: "object" };
    case "Value":
      return {};
    case "ListValue":
      return { type: "array" };
    case "Any":
      return { type: "object", properties: { "@type": { type: "string" } }, required: ["@type"] };
    case "Empty":
      return { type: "object" };
    case "DoubleValue":
      return scalarSchema("double");
    case "FloatValue":
      return scalarSchema("float");
    case "Int64Value":
      return scalarSchema("int64");
    case "UInt64Value":
      return scalarSchema("uint64");
    case "Int32Value":
      return scalarSchema("int32");
    case "UInt32Value":
      return scalarSchema("uint32");
    case "BoolValue":
      return scalarSchema("boolean");
    case "StringValue":
      return scalarSchema("string");
    case "BytesValue":
      return scalarSchema("bytes");
    default:
      return undefined;
  }
}

function numberOf(v: RuleValue | undefined): number | undefined {
  const s = scalarOf(v);
  if (s?.kind !== "number") return undefined;
  const n = Number(s.text);
  return Number.isFinite(n) ? n : undefined;
}

/**
 * protovalidate rules that are JSON Schema keywords: string lengths, pattern, const/in, numeric bounds (32-bit and
 * floating kinds, whose JSON is a number), repeated min/max items. Others stay with the generated validators.
 */
function ruleKeywords(tree: RuleTree, field: Field): { item: Json; list: Json } {
  const item: Json = {};
  const list: Json = {};
  const sub = (name: string): RuleTree | undefined => {
    const v = tree[name];
    return v !== undefined && typeof v === "object" && !Array.isArray(v) && typeof (v as { kind?: unknown }).kind !== "string" ? (v as RuleTree) : undefined;
  };
  const str = sub("string");
  if (str) {
    const min = numberOf(str["min_len"]);
    const max = numberOf(str["max_len"]);
    const len = numberOf(str["len"]);
    if (min !== undefined) item.minLength = min;
    if (max !== undefined) item.maxLength = max;
    if (len !== undefined) item.minLength = item.maxLength = len;
    const pattern = scalarOf(str["pattern"]);
    if (pattern?.kind === "string") item.pattern = pattern.value;
    const constant = scalarOf(str["const"]);
    if (constant?.kind === "string") item.const = constant.value;
    if (str["email"] !== undefined && scalarOf(str["email"])?.kind === "ident") item.format = "email";
    if (str["uuid"] !== undefined && scalarOf(str["uuid"])?.kind === "ident") item.format = "uuid";
    if (str["uri"] !== undefined && scalarOf(str["uri"])?.kind === "ident") item.format = "uri";
  }
  for (const kind of ["int32", "sint32", "sfixed32", "uint32", "fixed32", "float", "double"]) {
    const num = sub(kind);
    if (!num) continue;
    const gte = numberOf(num["gte"]);
    const lte = numberOf(num["lte"]);
    const gt = numberOf(num["gt"]);
    const lt = numberOf(num["lt"]);
    // Only the plain range (gte/gt below lte/lt); an exclusive range (lt < gt) is not one JSON Schema keyword set.
    const low = gte ?? gt;
    const high = lte ?? lt;
    if (low !== undefined && high !== undefined && high < low) continue;
    if (gte !== undefined) item.minimum = gte;
    if (gt !== undefined) item.exclusiveMinimum = gt;
    if (lte !== undefined) item.maximum = lte;
    if (lt !== undefined) item.exclusiveMaximum = lt;
  }
  const repeated = sub("repeated");
  if (repeated && isRepeated(field)) {
    const min = numberOf(repeated["min_items"]);
    const max = numberOf(repeated["max_items"]);
    if (min !== undefined) list.minItems = min;
    if (max !== undefined) list.maxItems = max;
  }
  return { item, list };
}

function withDoc(schema: Json, doc: string | undefined): Json {
  return doc === undefined || doc.trim() === "" ? schema : { ...schema, description: doc.trim() };
}

class SchemaBuilder {
  readonly schemas: Record<string, Json> = {};
  constructor(private readonly doc: IrDocument) {}

  /** The schema of a value of a field (one item for repeated fields), registering messages on the way. */
  value(field: Field): Json {
    const t = field.type;
    if (t.kind === "scalar") return scalarSchema(t.scalar);
    if (t.kind === "map") {
      const inner = { ...field, type: t.value, occurs: { min: 0, max: 1 } } as Field;
      return { type: "object", additionalProperties: this.value(inner) };
    }
    if (t.kind === "ref") return this.type(t.id);
    return {};
  }

  type(id: TypeId): Json {
    if (id.startsWith(WKT)) {
      const wkt = wellKnownSchema(id.slice(WKT.length));
      if (wkt !== undefined) return wkt;
    }
    const named = this.doc.types.find((t) => t.id === id);
    if (named?.kind === "enum") {
      const name = protoFullName(id);
      if (!(name in this.schemas)) {
        this.schemas[name] = withDoc({ type: "string", enum: named.values.map((v) => v.name) }, named.doc);
      }
      return ref(id);
    }
    if (named?.kind === "record") this.message(named);
    return ref(id);
  }

  message(record: RecordType): void {
    const name = protoFullName(record.id);
    if (name in this.schemas) return;
    const properties: Record<string, Json> = {};
    const schema: Json = { type: "object", properties };
    // Registered before the fields (a field may refer back to this message); completed below, in place.
    this.schemas[name] = schema;
    const required: string[] = [];
    for (const f of messageFields(record)) {
      const json = f.wire.proto?.jsonName ?? f.name;
      const rules = fieldRules(f.wire.proto?.rules);
      const keywords = rules ? ruleKeywords(rules.tree, f) : { item: {}, list: {} };
      let value = this.value(f);
      if (Object.keys(keywords.item).length > 0) value = "$ref" in value ? { allOf: [value], ...keywords.item } : { ...value, ...keywords.item };
      const isMap = f.type.kind === "map";
      const property = isRepeated(f) && !isMap ? { type: "array", items: value, ...keywords.list } : value;
      properties[json] = withDoc(property, f.doc);
      if (rules && scalarOf(rules.tree["required"])?.kind === "ident" && (scalarOf(rules.tree["required"]) as { text: string }).text === "true") required.push(json);
    }
    if (required.length > 0) schema.required = required;
    if (record.doc !== undefined && record.doc.trim() !== "") schema.description = record.doc.trim();
  }
}

/** The schema of a whole field (an array for repeated fields). */
function fieldSchema(builder: SchemaBuilder, field: Field): Json {
  const value = builder.value(field);
  return isRepeated(field) && field.type.kind !== "map" ? { type: "array", items: value } : value;
}

function statusSchema(): Json {
  return {
    type: "object",
    description: "google.rpc.Status: the error of a call (code: the gRPC status number; details: Any messages).",
    properties: {
      code: { type: "integer", format: "int32" },
      message: { type: "string" },
      details: { type: "array", items: { type: "object", properties: { "@type": { type: "string" } }, required: ["@type"] } },
    },
  };
}

interface PathParameter {
  readonly name: string;
  readonly field: string;
  readonly schema: Json;
  readonly description: string;
  readonly multiSegment?: true;
}

/** The OpenAPI path of a template and its parameters (multi-segment variables split at their wildcards). */
function openApiPath(b: CheckedBinding, input: RecordType, doc: IrDocument): { path: string; parameters: PathParameter[] } {
  const t = b.template;
  const parts: string[] = [];
  const parameters: PathParameter[] = [];
  const leafSchema = (fieldPath: readonly string[]): Json => {
    let record: RecordType | undefined = input;
    let field: Field | undefined;
    for (const name of fieldPath) {
      field = record === undefined ? undefined : messageFields(record).find((f) => f.name === name);
      const next: TypeId | undefined = field === undefined ? undefined : kindOf(doc, field).message;
      record = next === undefined ? undefined : (doc.types.find((x) => x.id === next) as RecordType | undefined);
    }
    return field !== undefined && field.type.kind === "scalar" ? scalarSchema(field.type.scalar) : { type: "string" };
  };
  const jsonPath = (fieldPath: readonly string[]) => fieldPath.join(".");
  let i = 0;
  for (const v of [...t.variables].sort((a, c) => a.start - c.start)) {
    for (; i < v.start; i++) parts.push(segmentText(t.segments[i]!));
    const field = jsonPath(v.fieldPath);
    if (!v.multi) {
      parts.push(`{${field}}`);
      parameters.push({ name: field, field, schema: leafSchema(v.fieldPath), description: `The request field ${field}.` });
    } else {
      const pattern = t.segments.slice(v.start, v.end).map(segmentText).join("/");
      let n = 0;
      for (let k = v.start; k < v.end; k++) {
        const s = t.segments[k]!;
        if (s.kind === "literal") parts.push(s.value);
        else {
          const name = `${field.replace(/\./g, "_")}_${++n}`;
          parts.push(`{${name}}`);
          parameters.push({
            name,
            field,
            schema: { type: "string" },
            description: `Segment ${n} of the request field ${field} (${pattern})${s.kind === "rest" ? "; zero or more segments" : ""}.`,
            ...(s.kind === "rest" ? { multiSegment: true as const } : {}),
          });
        }
      }
    }
    i = v.end;
  }
  for (; i < t.segments.length; i++) {
    const s = t.segments[i]!;
    if (s.kind === "literal") parts.push(s.value);
    else {
      const name = `segment_${i}`;
      parts.push(`{${name}}`);
      parameters.push({ name, field: "", schema: { type: "string" }, description: "A path segment the template matches but binds to no field.", ...(s.kind === "rest" ? { multiSegment: true as const } : {}) });
    }
  }
  return { path: `/${parts.join("/")}${t.verb === undefined ? "" : `:${t.verb}`}`, parameters };
}

function segmentText(s: CheckedBinding["template"]["segments"][number]): string {
  return s.kind === "literal" ? s.value : s.kind === "one" ? "*" : "**";
}

/** The query parameters of the (c) fields: leaves of the request outside the path and the body, by JSON name. */
function queryParameters(doc: IrDocument, builder: SchemaBuilder, input: RecordType, b: CheckedBinding): Json[] {
  if (b.body === "*") return [];
  const bound = new Set(b.template.variables.map((v) => v.fieldPath.join(".")));
  const out: Json[] = [];
  const visit = (record: RecordType, protoPrefix: string, jsonPrefix: string, seen: ReadonlySet<TypeId>) => {
    for (const f of messageFields(record)) {
      const protoName = protoPrefix + f.name;
      if (protoPrefix === "" && f.name === b.body) continue;
      if (bound.has(protoName)) continue;
      const name = jsonPrefix + (f.wire.proto?.jsonName ?? f.name);
      const { kind, message } = kindOf(doc, f);
      if (kind === "map" || kind === "json") continue;
      if (kind === "message") {
        if (isRepeated(f) || message === undefined || seen.has(message)) continue;
        const nested = doc.types.find((t) => t.id === message);
        if (nested?.kind === "record") visit(nested, `${protoName}.`, `${name}.`, new Set([...seen, message]));
        continue;
      }
      const value = builder.value(f);
      const schema = isRepeated(f) ? { type: "array", items: value } : value;
      out.push({
        name,
        in: "query",
        required: false,
        ...(f.doc ? { description: f.doc.trim() } : {}),
        schema,
        ...(isRepeated(f) ? { style: "form", explode: true } : {}),
      });
    }
  };
  visit(input, "", "", new Set([input.id]));
  return out;
}

function operationId(service: RpcService, method: RpcMethod, index: number): string {
  return `${service.name}_${method.name}${index === 0 ? "" : `_${index + 1}`}`;
}

/** The OpenAPI 3.1 document of a proto's transcoded routes; undefined when it has none. */
export function protoOpenApiDocument(doc: IrDocument, warn?: (method: RpcMethod, detail: string) => void): Json | undefined {
  const builder = new SchemaBuilder(doc);
  const paths: Record<string, Record<string, Json>> = {};
  let any = false;
  for (const service of doc.services) {
    if (service.kind !== "rpc") continue;
    for (const { method, bindings } of serviceBindings(doc, service, warn)) {
      const input = doc.types.find((t) => t.id === method.input);
      const output = doc.types.find((t) => t.id === method.output);
      if (input?.kind !== "record" || output?.kind !== "record") continue;
      bindings.forEach((b, index) => {
        if (!OPERATION_METHODS.has(b.method)) {
          // "*" (any method) or a custom one (PURGE): OpenAPI has no operation for it.
          warn?.(method, `${b.method} ${b.path} has no OpenAPI operation (OpenAPI names get, put, post, delete, options, head, patch, trace)`);
          return;
        }
        any = true;
        const { path, parameters } = openApiPath(b, input, doc);
        const operation: Json = {
          operationId: operationId(service, method, index),
          tags: [service.name],
          ...(method.doc ? { description: method.doc.trim() } : {}),
          summary: `${service.fullName}.${method.name}${index === 0 ? "" : ` (additional binding ${index})`}`,
          ...(method.deprecated ? { deprecated: true } : {}),
          parameters: [
            ...parameters.map((p) => ({
              name: p.name,
              in: "path",
              required: true,
              description: p.description,
              schema: p.schema,
              ...(p.multiSegment ? { "x-specforge-multi-segment": true } : {}),
            })),
            ...queryParameters(doc, builder, input, b),
          ],
          responses: {
            "200": {
              description: "OK",
              content: { "application/json": { schema: b.responseBody === undefined ? builder.type(output.id) : fieldSchema(builder, messageFields(output).find((f) => f.name === b.responseBody)!) } },
            },
            default: { description: "An error (google.rpc.Status)", content: { "application/json": { schema: { $ref: `#/components/schemas/${STATUS_SCHEMA}` } } } },
          },
        };
        if (b.body !== undefined) {
          let schema: Json;
          if (b.body === "*") schema = builder.type(input.id);
          else schema = fieldSchema(builder, messageFields(input).find((f) => f.name === b.body)!);
          operation.requestBody = { required: true, content: { "application/json": { schema } } };
        }
        (paths[path] ??= {})[b.method.toLowerCase()] = operation;
      });
    }
  }
  if (!any) return undefined;
  builder.schemas[STATUS_SCHEMA] = statusSchema();
  const sorted = Object.fromEntries(Object.keys(builder.schemas).sort().map((k) => [k, builder.schemas[k]]));
  return {
    openapi: "3.1.0",
    info: {
      title: doc.info.title ?? doc.entry,
      version: doc.info.version ?? "0.0.0",
      description: `The REST routes (google.api.http) of ${doc.entry}, with ProtoJSON bodies.`,
    },
    paths,
    components: { schemas: sorted },
  };
}
