/**
 * HTTP/JSON transcoding (google.api.http, google/api/http.proto): the parts the server and the client share. A
 * binding maps an rpc to a REST route: a path template whose variables are request fields, a body (`*` or one
 * top-level field), the remaining fields as query parameters, and optionally one response field as the answer body.
 * Bodies are ProtoJSON, through the generated toJson/fromJson: the request is assembled as a ProtoJSON object (body,
 * then query parameters, then path variables) and read by the generated fromJson, so every ProtoJSON rule applies.
 */
import { base64Decode, base64Encode } from "../connect/base64.js";
import { connectCodeToHttpStatus, type ConnectCode } from "../connect/code.js";
import { RpcError, type ConnectErrorDetail } from "../connect/error.js";
import { grpcCodeOf, rpcCodeFromGrpc } from "./code.js";
import { parsePathTemplate, type PathTemplate, type TemplateSegment } from "./http-template.js";

/** How a field's value is written in a URL: its ProtoJSON form, by kind. */
export type TranscodeKind =
  | "string"
  | "bytes"
  | "bool"
  | "int"
  | "float"
  | "enum"
  /** A message written as an object of fields (`?a.b=1`). */
  | "message"
  | "map"
  /** Struct, Value, ListValue, Any: no URL form. */
  | "json";

export interface TranscodeField {
  /** The proto field name (what templates and `body` name). */
  readonly name: string;
  /** The ProtoJSON name. */
  readonly json: string;
  /** Well-known types with a string JSON form (Timestamp, Duration, FieldMask) are "string", wrappers their scalar. */
  readonly kind: TranscodeKind;
  readonly repeated?: boolean;
  /** kind "message": the message's full name, a key of the messages table. */
  readonly message?: string;
}

/** The fields of every message a transcoded route can reach, by full name ("pkg.Msg"). */
export type TranscodeMessages = Readonly<Record<string, readonly TranscodeField[]>>;

/** One `google.api.http` binding as generated: the HTTP method ("GET", a custom kind, or "*"), the template, body. */
export interface HttpBinding {
  readonly method: string;
  readonly path: string;
  /** "*" or a top-level request field name; absent: no request body. */
  readonly body?: string;
  /** A top-level response field name sent as the answer body instead of the whole message. */
  readonly responseBody?: string;
}

/** What a procedure with `google.api.http` bindings carries: the primary binding first, additional ones after. */
export interface HttpTranscoding {
  readonly bindings: readonly HttpBinding[];
  readonly messages: TranscodeMessages;
  /** Full names of the request and response messages. */
  readonly input: string;
  readonly output: string;
}

/** A path variable resolved against the request message. */
export interface BoundVariable {
  readonly fields: readonly TranscodeField[];
  readonly start: number;
  readonly end: number;
  readonly multi: boolean;
}

/** A binding with its template parsed and its field names resolved. */
export interface CompiledBinding {
  readonly binding: HttpBinding;
  readonly method: string;
  readonly template: PathTemplate;
  readonly variables: readonly BoundVariable[];
  /** `body: "*"`, `body: "field"` (that field), or no body. */
  readonly body: "*" | TranscodeField | undefined;
  readonly responseBody: TranscodeField | undefined;
  readonly transcoding: HttpTranscoding;
}

const fieldIndex = /* @__PURE__ */ new WeakMap<TranscodeMessages, Map<string, Map<string, TranscodeField>>>();

/** A message's field by proto name or JSON name. */
export function fieldOf(messages: TranscodeMessages, message: string, name: string): TranscodeField | undefined {
  let byMessage = fieldIndex.get(messages);
  if (byMessage === undefined) fieldIndex.set(messages, (byMessage = new Map()));
  let byName = byMessage.get(message);
  if (byName === undefined) {
    byName = new Map();
    for (const f of messages[message] ?? []) {
      byName.set(f.name, f);
      if (!byName.has(f.json)) byName.set(f.json, f);
    }
    byMessage.set(message, byName);
  }
  return byName.get(name);
}

/** Resolve a binding (the generator checked it; a hand-written one that does not resolve is a TypeError). */
export function compileBinding(transcoding: HttpTranscoding, binding: HttpBinding): CompiledBinding {
  const template = parsePathTemplate(binding.path);
  const { messages } = transcoding;
  const variables = template.variables.map((v) => {
    const fields: TranscodeField[] = [];
    let message: string | undefined = transcoding.input;
    for (const name of v.fieldPath) {
      const field: TranscodeField | undefined = message === undefined ? undefined : fieldOf(messages, message, name);
      if (field === undefined) throw new TypeError(`${binding.path}: no field ${v.fieldPath.join(".")} in ${transcoding.input}`);
      fields.push(field);
      message = field.message;
    }
    return { fields, start: v.start, end: v.end, multi: v.multi };
  });
  const top = (message: string, name: string | undefined) => {
    if (name === undefined) return undefined;
    const field = fieldOf(messages, message, name);
    if (field === undefined) throw new TypeError(`${binding.path}: no field ${name} in ${message}`);
    return field;
  };
  return {
    binding,
    method: binding.method.toUpperCase(),
    template,
    variables,
    body: binding.body === "*" ? "*" : top(transcoding.input, binding.body),
    responseBody: top(transcoding.output, binding.responseBody),
    transcoding,
  };
}

// ---- values between URLs and ProtoJSON ----

/** A URL text (path variable or query value) as the ProtoJSON value of a field of that kind. */
export function urlValueToJson(field: TranscodeField, text: string): unknown {
  switch (field.kind) {
    case "bool":
      if (text === "true") return true;
      if (text === "false") return false;
      throw new RpcError("invalid_argument", `${field.name}: expected true or false, got ${JSON.stringify(text.slice(0, 100))}`);
    case "enum":
      return /^-?[0-9]+$/.test(text) ? Number(text) : text;
    case "message":
    case "map":
    case "json":
      throw new RpcError("invalid_argument", `${field.name} cannot be set from the URL (http.proto: URL fields must have a primitive type or a repeated primitive type)`);
    default:
      // string, bytes (base64), int and float (ProtoJSON reads numbers written as strings, "NaN" and "Infinity" too)
      return text;
  }
}

/** Set a ProtoJSON value at a path of fields, creating the objects on the way. */
export function setJsonPath(target: Record<string, unknown>, fields: readonly TranscodeField[], value: unknown): void {
  let object = target;
  for (let i = 0; i < fields.length - 1; i++) {
    const key = fields[i]!.json;
    const next = object[key];
    if (next === null || typeof next !== "object" || Array.isArray(next)) {
      const created: Record<string, unknown> = {};
      Object.defineProperty(object, key, { value: created, enumerable: true, writable: true, configurable: true });
      object = created;
    } else object = next as Record<string, unknown>;
  }
  Object.defineProperty(object, fields[fields.length - 1]!.json, { value, enumerable: true, writable: true, configurable: true });
}

/** The ProtoJSON value at a path of fields, if set. */
export function getJsonPath(source: unknown, fields: readonly TranscodeField[]): unknown {
  let value = source;
  for (const f of fields) {
    if (value === null || typeof value !== "object" || Array.isArray(value)) return undefined;
    value = Object.hasOwn(value, f.json) ? (value as Record<string, unknown>)[f.json] : undefined;
  }
  return value;
}

/** The JSON a field has when a message leaves it unset (what `response_body` answers for an absent field). */
export function defaultJsonOf(field: TranscodeField): unknown {
  if (field.repeated) return [];
  switch (field.kind) {
    case "message":
    case "map":
      return {};
    case "bool":
      return false;
    case "int":
    case "float":
      return 0;
    case "json":
      return null;
    default:
      return "";
  }
}

// ---- path expansion (client) ----

function hex(c: string): string {
  return `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, "0")}`;
}

/**
 * A path variable's value in a URL (http.proto): a single-segment variable percent-encodes everything but
 * `[-_.~0-9a-zA-Z]`, a multi-segment one keeps "/" too.
 */
export function encodePathValue(value: string, multi: boolean): string {
  const encoded = encodeURIComponent(value).replace(/[!'()*]/g, hex);
  return multi ? encoded.replace(/%2F/g, "/") : encoded;
}

/** Whether a value (split at "/") matches the template segments [start, end). */
function valueMatches(parts: readonly string[], segments: readonly TemplateSegment[]): boolean {
  for (let i = 0; i < segments.length; i++) {
    const s = segments[i]!;
    if (s.kind === "rest") return true;
    const part = parts[i];
    if (part === undefined || part === "") return false;
    if (s.kind === "literal" && decodeLiteral(s.value) !== part) return false;
  }
  return parts.length === segments.length;
}

function decodeLiteral(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** The URL path of a request (ProtoJSON object) under a binding; path-bound values are checked against it. */
export function expandPath(compiled: CompiledBinding, json: unknown): string {
  const { template } = compiled;
  const parts: string[] = [];
  let i = 0;
  const literalOf = (s: TemplateSegment) => (s.kind === "literal" ? s.value : s.kind === "one" ? "*" : "**");
  for (const v of [...compiled.variables].sort((a, b) => a.start - b.start)) {
    for (; i < v.start; i++) {
      const s = template.segments[i]!;
      if (s.kind !== "literal") throw new RpcError("internal", `${compiled.binding.path}: a wildcard outside a variable cannot be expanded`);
      parts.push(s.value);
    }
    const raw = getJsonPath(json, v.fields);
    const name = v.fields.map((f) => f.name).join(".");
    const text = raw === undefined || raw === null ? "" : String(raw);
    const segments = template.segments.slice(v.start, v.end);
    // A single-segment variable takes any value ("/" is percent-encoded); a multi-segment one must fit its template.
    if (text === "" || (v.multi && !valueMatches(text.split("/"), segments))) {
      throw new RpcError(
        "invalid_argument",
        `${name} = ${JSON.stringify(text.slice(0, 200))} does not match ${segments.map(literalOf).join("/")} of ${compiled.method} ${compiled.binding.path}`,
      );
    }
    parts.push(encodePathValue(text, v.multi));
    i = v.end;
  }
  for (; i < template.segments.length; i++) {
    const s = template.segments[i]!;
    if (s.kind !== "literal") throw new RpcError("internal", `${compiled.binding.path}: a wildcard outside a variable cannot be expanded`);
    parts.push(s.value);
  }
  return `/${parts.join("/")}${template.verb === undefined ? "" : `:${template.verb}`}`;
}

/** A copy of a ProtoJSON object without the value at `fields` (copying only the objects on the way). */
export function withoutJsonPath(source: Record<string, unknown>, fields: readonly TranscodeField[]): Record<string, unknown> {
  const [first, ...rest] = fields;
  if (first === undefined || !Object.hasOwn(source, first.json)) return source;
  const copy = { ...source };
  if (rest.length === 0) delete copy[first.json];
  else {
    const inner = copy[first.json];
    if (inner !== null && typeof inner === "object" && !Array.isArray(inner)) copy[first.json] = withoutJsonPath(inner as Record<string, unknown>, rest);
  }
  return copy;
}

/**
 * Query parameters of the (c) fields (http.proto: neither in the path nor the body): nested messages as dotted
 * names (`sub.subfield=foo`), repeated fields as repeated parameters (`r=1&r=2`), by JSON name.
 */
export function queryOf(messages: TranscodeMessages, message: string, json: Record<string, unknown>, out: URLSearchParams, prefix = ""): void {
  for (const [key, value] of Object.entries(json)) {
    if (value === undefined || value === null) continue;
    const field = fieldOf(messages, message, key);
    const name = prefix + key;
    if (field === undefined) throw new RpcError("internal", `${name} is not a field of ${message}`);
    if (field.kind === "message" && !field.repeated && field.message !== undefined && typeof value === "object" && !Array.isArray(value)) {
      queryOf(messages, field.message, value as Record<string, unknown>, out, `${name}.`);
    } else if (field.kind === "message" || field.kind === "map" || field.kind === "json") {
      throw new RpcError("invalid_argument", `${name} cannot be sent as a query parameter (http.proto: query parameters map to primitive, repeated primitive or non-repeated message fields)`);
    } else if (Array.isArray(value)) {
      for (const item of value) out.append(name, String(item));
    } else out.append(name, String(value));
  }
}

// ---- errors: google.rpc.Status as JSON ----

/** The HTTP status of a code (google/rpc/code.proto's mapping, the one Connect uses too). */
export function httpStatusOfCode(code: ConnectCode): number {
  return connectCodeToHttpStatus(code);
}

const TYPE_URL_PREFIX = "type.googleapis.com/";

/**
 * An error as a google.rpc.Status in JSON: `{"code": 5, "message": "...", "details": [...]}`. Details are Any
 * messages; the runtime has no codec for arbitrary detail types, so each is written `{"@type", "value"}` with the
 * base64 of its binary form (the shape ProtoJSON gives an Any of a well-known type).
 */
export function rpcStatusJson(error: RpcError): Record<string, unknown> {
  const json: Record<string, unknown> = { code: grpcCodeOf(error.code), message: error.rawMessage };
  if (error.details.length > 0) {
    json.details = error.details.map((d) => ({ "@type": TYPE_URL_PREFIX + d.type, value: base64Encode(d.value) }));
  }
  return json;
}

/** The code of a google.rpc.Code name (`NOT_FOUND`, `CANCELLED`). */
function codeOfName(name: string): ConnectCode | undefined {
  const lower = name === "CANCELLED" ? "canceled" : name.toLowerCase();
  for (let n = 1; n <= 16; n++) if (rpcCodeFromGrpc(n) === lower) return lower as ConnectCode;
  return undefined;
}

/**
 * An error body read back: a google.rpc.Status (`{"code": 5, ...}`) or Google's REST form
 * (`{"error": {"code": 404, "status": "NOT_FOUND", ...}}`); undefined when the text is neither.
 */
export function rpcStatusFromJson(text: string, metadata?: HeadersInit): RpcError | undefined {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (json === null || typeof json !== "object" || Array.isArray(json)) return undefined;
  let status = json as Record<string, unknown>;
  let code: ConnectCode | undefined;
  const wrapped = status.error;
  if (wrapped !== null && typeof wrapped === "object" && !Array.isArray(wrapped)) {
    status = wrapped as Record<string, unknown>;
    code = typeof status.status === "string" ? codeOfName(status.status) : undefined;
  } else if (typeof status.code === "number" && Number.isInteger(status.code) && status.code >= 1 && status.code <= 16) {
    code = rpcCodeFromGrpc(status.code);
  }
  if (code === undefined) return undefined;
  const details: ConnectErrorDetail[] = [];
  if (Array.isArray(status.details)) {
    for (const d of status.details as unknown[]) {
      if (d === null || typeof d !== "object") continue;
      const { "@type": type, value } = d as Record<string, unknown>;
      const bytes = typeof value === "string" ? base64Decode(value) : undefined;
      if (typeof type !== "string" || bytes === undefined) continue;
      details.push({ type: type.startsWith(TYPE_URL_PREFIX) ? type.slice(TYPE_URL_PREFIX.length) : type.slice(type.lastIndexOf("/") + 1), value: bytes });
    }
  }
  return new RpcError(code, typeof status.message === "string" ? status.message : "", { details, ...(metadata === undefined ? {} : { metadata }) });
}
