/**
 * `google.api.http` options (IR: RpcMethod.httpRules) checked and resolved at generation time, by the rules of
 * google/api/http.proto: one pattern per HttpRule, templates by its grammar, path variables naming non-repeated
 * primitive fields (through singular message fields), `body` "*" or a top-level request field, `response_body` a
 * top-level response field, additional_bindings one level deep, and no two bindings of a service able to match the
 * same request. Every failure is a SpecError at the option, naming the rule.
 */
import { SpecError } from "../../errors.js";
import type { Field, IrDocument, Member, ProtoOptionEntry, ProtoOptionValue, ProtoRuleOption, RecordType, RpcMethod, RpcService, TypeId } from "../../ir/model.js";
import { formatPathTemplate, HttpTemplateError, parsePathTemplate, templatesOverlap, type PathTemplate } from "../../runtime/rpc/http-template.js";
import type { HttpBinding, TranscodeField, TranscodeKind } from "../../runtime/rpc/transcode.js";

/** A checked binding, with where it was written. */
export interface CheckedBinding extends HttpBinding {
  readonly template: PathTemplate;
  readonly at: { readonly file: string; readonly line: number; readonly column: number };
}

export interface MethodHttp {
  readonly method: RpcMethod;
  readonly bindings: readonly CheckedBinding[];
}

const PATTERNS = ["get", "put", "post", "delete", "patch", "custom"] as const;
const WRAPPERS: Readonly<Record<string, TranscodeKind>> = {
  DoubleValue: "float", FloatValue: "float", Int64Value: "int", UInt64Value: "int", Int32Value: "int", UInt32Value: "int",
  BoolValue: "bool", StringValue: "string", BytesValue: "bytes",
};
const STRING_WKT = new Set(["Timestamp", "Duration", "FieldMask"]);
const JSON_WKT = new Set(["Struct", "Value", "ListValue", "Any"]);
const WKT_PREFIX = "proto:.google.protobuf.";

interface Located {
  readonly file: string;
  readonly line: number;
  readonly column: number;
}

function fail(at: Located, detail: string): never {
  throw new SpecError(at.file, at.line, at.column, `google.api.http: ${detail}`);
}

/** Every field of a message, oneof members included. */
export function messageFields(record: RecordType): Field[] {
  const out: Field[] = [];
  const visit = (members: readonly Member[]) => {
    for (const m of members) {
      if (m.kind === "field") out.push(m);
      else if (m.kind === "group") visit(m.members);
    }
  };
  visit(record.members);
  return out;
}

function recordOf(doc: IrDocument, id: TypeId): RecordType | undefined {
  const t = doc.types.find((x) => x.id === id);
  return t?.kind === "record" ? t : undefined;
}

function isRepeated(f: Field): boolean {
  return f.occurs.max === "unbounded" || f.occurs.max > 1;
}

/** A field's URL kind (see TranscodeKind) and, for plain messages, the message's id. */
export function kindOf(doc: IrDocument, f: Field): { kind: TranscodeKind; message?: TypeId } {
  const t = f.type;
  if (t.kind === "map") return { kind: "map" };
  if (t.kind === "scalar") {
    switch (t.scalar) {
      case "string":
        return { kind: "string" };
      case "bytes":
        return { kind: "bytes" };
      case "boolean":
        return { kind: "bool" };
      case "float":
      case "double":
        return { kind: "float" };
      default:
        return { kind: "int" };
    }
  }
  if (t.kind === "ref") {
    const named = doc.types.find((x) => x.id === t.id);
    if (named?.kind === "enum") return { kind: "enum" };
    if (t.id.startsWith(WKT_PREFIX)) {
      const name = t.id.slice(WKT_PREFIX.length);
      if (STRING_WKT.has(name)) return { kind: "string" };
      if (JSON_WKT.has(name)) return { kind: "json" };
      const wrapped = WRAPPERS[name];
      if (wrapped !== undefined) return { kind: wrapped };
    }
    return { kind: "message", message: t.id };
  }
  return { kind: "json" };
}

/** The full proto name of a message id ("proto:.pkg.Msg" -> "pkg.Msg"). */
export function protoFullName(id: TypeId): string {
  return id.replace(/^proto:\./, "");
}

/** The TranscodeField of an IR field. */
export function transcodeField(doc: IrDocument, f: Field): TranscodeField {
  const { kind, message } = kindOf(doc, f);
  return {
    name: f.name,
    json: f.wire.proto?.jsonName ?? f.name,
    kind,
    ...(isRepeated(f) && kind !== "map" ? { repeated: true } : {}),
    ...(message !== undefined ? { message: protoFullName(message) } : {}),
  };
}

// ---- the option's text format into HttpRule entries ----

function entriesOf(rules: readonly ProtoRuleOption[]): ProtoOptionEntry[] {
  const out: ProtoOptionEntry[] = [];
  for (const r of rules) {
    if (r.path.length === 0) {
      if (r.value.kind !== "message") fail(r, "the option is an HttpRule message, e.g. { get: \"/v1/{name=things/*}\" }");
      out.push(...r.value.fields.map((e) => ({ ...e })));
      continue;
    }
    // `(google.api.http).custom.kind = "HEAD"`: the path as nested messages.
    let value: ProtoOptionValue = r.value;
    for (let i = r.path.length - 1; i >= 1; i--) value = { kind: "message", fields: [{ name: r.path[i]!, value, line: r.line, column: r.column }] };
    out.push({ name: r.path[0]!, value, line: r.line, column: r.column });
  }
  return out;
}

function stringValue(e: ProtoOptionEntry, at: Located): string {
  if (e.value.kind !== "string") fail(at, `${e.name} is a string`);
  return e.value.value;
}

interface RawRule {
  readonly method: string;
  readonly path: string;
  readonly body?: string;
  readonly responseBody?: string;
  readonly at: Located;
  readonly pathAt: Located;
  readonly bodyAt: Located;
  readonly responseBodyAt: Located;
}

/** One HttpRule (and, at the top, its additional_bindings) as raw bindings. */
function readRule(entries: readonly ProtoOptionEntry[], file: string, at: Located, nested: boolean, out: RawRule[]): void {
  let pattern: { method: string; path: string; at: Located } | undefined;
  let body: string | undefined;
  let responseBody: string | undefined;
  let bodyAt = at;
  let responseBodyAt = at;
  const additional: { entries: readonly ProtoOptionEntry[]; at: Located }[] = [];
  const custom = new Map<string, { value: string; at: Located }>();
  for (const e of entries) {
    // Entries read from descriptors have no position of their own (line 0): the option's.
    const here: Located = e.line > 0 ? { file, line: e.line, column: e.column } : at;
    const name = e.name;
    if ((PATTERNS as readonly string[]).includes(name)) {
      if (pattern !== undefined && !(name === "custom" && pattern.method === "custom")) {
        fail(here, `an HttpRule has one pattern (oneof pattern: get, put, post, delete, patch, custom); ${name} comes after ${pattern.method}`);
      }
      if (name === "custom") {
        if (e.value.kind !== "message") fail(here, "custom is a CustomHttpPattern { kind: \"HEAD\" path: \"/v1/...\" }");
        for (const c of e.value.fields) {
          const cAt: Located = c.line > 0 ? { file, line: c.line, column: c.column } : here;
          if (c.name !== "kind" && c.name !== "path") fail(cAt, `CustomHttpPattern has no field ${c.name} (kind, path)`);
          custom.set(c.name, { value: stringValue(c, cAt), at: cAt });
        }
        pattern = { method: "custom", path: "", at: here };
      } else pattern = { method: name.toUpperCase(), path: stringValue(e, here), at: here };
    } else if (name === "body") {
      body = stringValue(e, here);
      bodyAt = here;
    } else if (name === "response_body") {
      responseBody = stringValue(e, here);
      responseBodyAt = here;
    }
    else if (name === "selector") continue; // meaningful in service config YAML only; the annotation selects its method
    else if (name === "additional_bindings") {
      if (nested) fail(here, "nested bindings must not contain an additional_bindings field themselves (the nesting may only be one level deep)");
      const items = e.value.kind === "list" ? e.value.items : [e.value];
      for (const item of items) {
        if (item.kind !== "message") fail(here, "additional_bindings are HttpRule messages");
        additional.push({ entries: item.fields, at: here });
      }
    } else fail(here, `HttpRule has no field ${name}`);
  }
  if (pattern === undefined) fail(at, "an HttpRule needs one pattern: get, put, post, delete, patch or custom (oneof pattern)");
  if (pattern.method === "custom") {
    const kind = custom.get("kind");
    const path = custom.get("path");
    if (kind === undefined || kind.value === "") fail(pattern.at, "a custom pattern needs its kind (the HTTP method, or \"*\")");
    if (!/^(\*|[!#$%&'*+\-.^_`|~0-9A-Za-z]+)$/.test(kind.value)) fail(kind.at, `custom kind ${JSON.stringify(kind.value)} is not an HTTP method`);
    if (path === undefined) fail(pattern.at, "a custom pattern needs its path");
    pattern = { method: kind.value.toUpperCase(), path: path.value, at: path.at };
  }
  out.push({
    method: pattern.method,
    path: pattern.path,
    ...(body !== undefined && body !== "" ? { body } : {}),
    ...(responseBody !== undefined && responseBody !== "" ? { responseBody } : {}),
    at,
    pathAt: pattern.at,
    bodyAt,
    responseBodyAt,
  });
  for (const a of additional) readRule(a.entries, file, a.at, true, out);
}

/** Resolve a field path in the request message by http.proto's rules for path variables. */
function checkVariable(doc: IrDocument, input: RecordType, fieldPath: readonly string[], at: Located, text: string): void {
  let record: RecordType | undefined = input;
  fieldPath.forEach((name, i) => {
    const field = record === undefined ? undefined : messageFields(record).find((f) => f.name === name);
    if (field === undefined) fail(at, `${text}: ${fieldPath.slice(0, i + 1).join(".")} is not a field of ${protoFullName(record?.id ?? input.id)}`);
    const last = i === fieldPath.length - 1;
    const { kind, message } = kindOf(doc, field);
    if (isRepeated(field) || kind === "map") {
      fail(at, `${text}: ${fieldPath.join(".")} — the path variables must not refer to any repeated or mapped field`);
    }
    if (last) {
      if (kind === "message" || kind === "json" || field.type.kind === "ref" && field.type.id.startsWith(WKT_PREFIX) && kind !== "enum") {
        fail(at, `${text}: ${fieldPath.join(".")} — fields mapped to the path pattern must have a primitive (non-message) type`);
      }
    } else {
      if (kind !== "message" || message === undefined) fail(at, `${text}: ${fieldPath.slice(0, i + 1).join(".")} is not a message field, so ${fieldPath.join(".")} is not a field path`);
      record = recordOf(doc, message);
    }
  });
}

function topField(record: RecordType, name: string): Field | undefined {
  return messageFields(record).find((f) => f.name === name);
}

/** The checked bindings of one method (empty when it has no google.api.http option). */
export function methodBindings(doc: IrDocument, method: RpcMethod): CheckedBinding[] {
  const rules = method.httpRules;
  if (rules === undefined || rules.length === 0) return [];
  const first = rules[0]!;
  const file = first.file;
  const raw: RawRule[] = [];
  readRule(entriesOf(rules), file, { file, line: first.line, column: first.column }, false, raw);
  const input = recordOf(doc, method.input);
  const output = recordOf(doc, method.output);
  if (input === undefined || output === undefined) return [];
  return raw.map((r) => {
    let template: PathTemplate;
    try {
      template = parsePathTemplate(r.path);
    } catch (error) {
      if (error instanceof HttpTemplateError) {
        fail(r.pathAt, `path template ${JSON.stringify(r.path)}, at offset ${error.offset}: ${error.detail} (http.proto: ${error.rule})`);
      }
      throw error;
    }
    for (const v of template.variables) checkVariable(doc, input, v.fieldPath, r.pathAt, `{${v.fieldPath.join(".")}}`);
    if (r.body !== undefined && r.body !== "*") {
      const field = topField(input, r.body);
      if (field === undefined) fail(r.bodyAt, `body "${r.body}": the referred field must be present at the top-level of the request message type (${protoFullName(input.id)})`);
    }
    if (r.responseBody !== undefined) {
      const field = topField(output, r.responseBody);
      if (field === undefined) fail(r.responseBodyAt, `response_body "${r.responseBody}": the referred field must be present at the top-level of the response message type (${protoFullName(output.id)})`);
    }
    return {
      method: r.method,
      path: r.path,
      ...(r.body !== undefined ? { body: r.body } : {}),
      ...(r.responseBody !== undefined ? { responseBody: r.responseBody } : {}),
      template,
      at: r.pathAt,
    };
  });
}

/**
 * The transcoded methods of a service, checked; streaming methods with bindings are skipped with a warning (their
 * REST form is not served). Two bindings that can match the same request are an error at the later one.
 */
export function serviceBindings(doc: IrDocument, service: RpcService, warn?: (method: RpcMethod, detail: string) => void): MethodHttp[] {
  const out: MethodHttp[] = [];
  const all: { binding: CheckedBinding; method: RpcMethod }[] = [];
  for (const method of service.methods) {
    const bindings = methodBindings(doc, method);
    if (bindings.length === 0) continue;
    if (method.clientStreaming || method.serverStreaming) {
      warn?.(method, `google.api.http on streaming method ${method.name} is not served over REST (only unary methods are transcoded)`);
      continue;
    }
    for (const binding of bindings) {
      for (const other of all) {
        const sameMethod = other.binding.method === binding.method || other.binding.method === "*" || binding.method === "*";
        if (sameMethod && templatesOverlap(other.binding.template, binding.template)) {
          fail(
            binding.at,
            `${binding.method} ${formatPathTemplate(binding.template)} can match the same requests as ${other.binding.method} ` +
              `${formatPathTemplate(other.binding.template)} (rpc ${other.method.name}): each request must map to one method`,
          );
        }
      }
      all.push({ binding, method });
    }
    out.push({ method, bindings });
  }
  return out;
}

/**
 * The message table of a service's transcoded methods: every message reachable from their requests through message
 * fields (query parameters can name nested fields), and the responses' top-level fields (response_body).
 */
export function transcodeMessages(doc: IrDocument, methods: readonly MethodHttp[]): Map<string, TranscodeField[]> {
  const table = new Map<string, TranscodeField[]>();
  const visit = (id: TypeId, deep: boolean) => {
    const name = protoFullName(id);
    if (table.has(name)) return;
    const record = recordOf(doc, id);
    if (record === undefined) return;
    const fields = messageFields(record).map((f) => transcodeField(doc, f));
    table.set(name, fields);
    if (!deep) return;
    for (const f of messageFields(record)) {
      const { kind, message } = kindOf(doc, f);
      if (kind === "message" && message !== undefined && !isRepeated(f)) visit(message, true);
    }
  };
  for (const m of methods) visit(m.method.input, true);
  for (const m of methods) visit(m.method.output, false);
  return table;
}
