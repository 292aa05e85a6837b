/** Test helpers: parse inline specs through an in-memory host and pick pieces of the IR. */
import type { HttpOperation, HttpService, IrDocument, NamedType } from "../../../src/ir/model.js";
import { memorySpecHost } from "../../../src/parsers/host.js";
import { parseOpenApi } from "../../../src/parsers/openapi/index.js";

export const ENTRY = "/spec/api.yaml";

/** Parse `main` as /spec/api.yaml (or `entry`), with `others` as further files under /spec. */
export function parse(main: string, others: Record<string, string> = {}, entry = ENTRY): IrDocument {
  const files: Record<string, string> = { [entry]: main };
  for (const [name, text] of Object.entries(others)) files[`/spec/${name}`] = text;
  return parseOpenApi(entry, memorySpecHost(files));
}

/** The error message thrown while parsing, or "" when parsing succeeds. */
export function parseError(main: string, others: Record<string, string> = {}, entry = ENTRY): string {
  try {
    parse(main, others, entry);
    return "";
  } catch (e) {
    return e instanceof Error ? e.message : String(e);
  }
}

export function type(doc: IrDocument, pointer: string, file = "api.yaml"): NamedType {
  const id = `openapi:${file}${pointer}`;
  const t = doc.types.find((x) => x.id === id);
  if (!t) throw new Error(`no type ${id}; have ${doc.types.map((x) => x.id).join(", ")}`);
  return t;
}

export function service(doc: IrDocument): HttpService {
  const s = doc.services[0];
  if (!s || s.kind !== "http") throw new Error("no http service");
  return s;
}

export function operation(doc: IrDocument, name: string): HttpOperation {
  const op = service(doc).operations.find((o) => o.name === name);
  if (!op) throw new Error(`no operation ${name}; have ${service(doc).operations.map((o) => o.name).join(", ")}`);
  return op;
}

/** A 3.0 document header followed by `body` (indented as top-level YAML). */
export function v30(body: string): string {
  return `openapi: 3.0.3\ninfo: {title: T, version: "1"}\n${body}`;
}

export function v31(body: string): string {
  return `openapi: 3.1.0\ninfo: {title: T, version: "1"}\n${body}`;
}

/** A Swagger 2.0 document header followed by `body`. */
export function v20(body: string): string {
  return `swagger: "2.0"\ninfo: {title: T, version: "1"}\n${body}`;
}

export const ref = (id: string, file = "api.yaml") => ({ kind: "ref", id: `openapi:${file}${id}` });
export const scalar = (s: string, builtin?: string) => (builtin ? { kind: "scalar", scalar: s, builtin } : { kind: "scalar", scalar: s });
