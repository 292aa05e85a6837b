/**
 * OpenAPI document -> IR: version check, component schemas, paths, one HttpService, and the final type order.
 */
import type { HttpService, IrDocument, NamedType } from "../../ir/model.js";
import { originPath, type SpecHost } from "../host.js";
import { Diagnostics } from "../diagnostics.js";
import { LowerContext, type OpenApiOptions } from "./context.js";
import type { Loc } from "./files.js";
import { child, has, isObject, items, str } from "./json.js";
import { lowerOperations, lowerSecuritySchemes } from "./operations.js";
import { SchemaLowerer } from "./schema.js";
import { convertSwagger2, isSwagger2 } from "./swagger2/index.js";

const VERSION = /^3\.[01]\.\d+(-[0-9A-Za-z.-]+)?$/;

/**
 * A YAML/JSON syntax error or an unreadable file ends the parse; errors in one schema, property or operation are
 * collected and lowering goes on, and all of them are thrown together (SpecErrors).
 */
export function lowerOpenApi(entryFile: string, host: SpecHost, options: OpenApiOptions = {}): IrDocument {
  const diagnostics = new Diagnostics();
  return diagnostics.document(() => lowerWith(entryFile, host, diagnostics, options));
}

function lowerWith(entryFile: string, host: SpecHost, diagnostics: Diagnostics, options: OpenApiOptions): IrDocument {
  let ctx = new LowerContext(entryFile, host, [], diagnostics, options);
  let file = ctx.files.load(entryFile);
  if (!isObject(file.value)) ctx.fail({ file, pointer: "#" }, "an OpenAPI document must be an object");
  if (isSwagger2(file.value)) {
    // Swagger 2.0: lowered from its OpenAPI 3.0 conversion (positions still those of the 2.0 files).
    ctx = new LowerContext(entryFile, host, convertSwagger2(file, host), diagnostics, options);
    file = ctx.files.load(entryFile);
  }
  const root: Loc = { file, pointer: "#", value: file.value };
  // 3.0 and 3.1 differences (nullable vs type arrays, boolean vs numeric exclusive bounds) are told apart by the
  // keywords' own shapes; the version only decides whether keywords beside a schema `$ref` apply (see ctx.version).
  // Without a known version nothing below can be read reliably: that error ends the parse.
  const shared = options.sharedComponents !== undefined && child(root, "openapi") === undefined && !isSwagger2(file.value);
  ctx.version = shared ? options.sharedComponents! : checkVersion(ctx, root);

  const info = child(root, "info");
  const title = info && str(info, "title");
  const version = info && str(info, "version");
  // DigitalOcean keeps its long introduction in another file: `description: {$ref: description.yml#/introduction}`.
  const docLoc = info && child(info, "description");
  const docText = docLoc && ctx.deref(docLoc).value;
  const doc = typeof docText === "string" ? docText : undefined;

  const schemas = new SchemaLowerer(ctx);
  schemas.lowerComponents(root);
  const services: HttpService[] = [];
  // A components-only document (allowed in 3.1) has no service; `paths: {}` still declares an (empty) one.
  if (has(root, "paths")) {
    const operations = lowerOperations(ctx, schemas, root);
    const securitySchemes = ctx.recover(() => lowerSecuritySchemes(ctx, root)) ?? [];
    services.push({
      kind: "http",
      name: title ?? "",
      ...(version !== undefined ? { version } : {}),
      ...(doc !== undefined ? { doc } : {}),
      servers: items(child(root, "servers")).flatMap((s) => {
        const url = str(s, "url");
        return url !== undefined ? [url] : [];
      }),
      operations,
      securitySchemes,
      origin: ctx.origin(root, `openapi document ${title ?? originPath(entryFile, entryFile)}`),
    });
  }

  return {
    format: "openapi",
    entry: originPath(entryFile, entryFile),
    files: ctx.files.files.map((f) => originPath(entryFile, f.path)),
    info: {
      ...(title !== undefined ? { title } : {}),
      ...(version !== undefined ? { version } : {}),
      ...(doc !== undefined ? { doc } : {}),
    },
    types: rejectCycles(ctx, orderTypes(ctx)),
    elements: [],
    extensions: [],
    services,
  };
}

function checkVersion(ctx: LowerContext, root: Loc): "3.0" | "3.1" {
  const v = child(root, "openapi");
  if (!v) return ctx.fail(root, "missing 'openapi' field: not an OpenAPI 3.0/3.1 (or Swagger 2.0) document");
  const text = typeof v.value === "string" ? v.value : String(v.value);
  const m = typeof v.value === "string" ? VERSION.exec(v.value) : null;
  if (!m) ctx.fail(v, `unsupported OpenAPI version "${text}": expected 3.0.x or 3.1.x (as a string)`);
  return text.startsWith("3.1.") ? "3.1" : "3.0";
}

/**
 * Rejects cycles no TypeScript declaration can express: `allOf` inheritance that leads back to itself (A extends B
 * extends A) and component `$ref`s that only alias each other (A = B, B = A). Recursion through properties is fine.
 */
function rejectCycles(ctx: LowerContext, types: NamedType[]): NamedType[] {
  const byId = new Map(types.map((t) => [t.id, t]));
  const next = (t: NamedType): NamedType | undefined => {
    if (t.kind === "record") return t.base ? byId.get(t.base.id) : undefined;
    if (t.kind === "alias" && t.target.kind === "ref") return byId.get(t.target.id);
    return undefined;
  };
  const reported = new Set<NamedType>();
  for (const t of types) {
    if (reported.has(t)) continue; // one error per cycle, from its first member
    const chain = [t];
    for (let cur = next(t); cur; cur = next(cur)) {
      if (cur === t) {
        const file = ctx.files.files.find((f) => ctx.scopeOf(f) === t.origin.file);
        const what = t.kind === "record" ? "circular allOf inheritance" : "circular $ref";
        if (file) ctx.recover(() => ctx.fail({ file, pointer: t.origin.pointer }, `${what}: ${[...chain, t].map((x) => x.name).join(" -> ")}`));
        for (const member of chain) reported.add(member);
        break;
      }
      if (chain.includes(cur)) break; // a cycle further on: reported from one of its own members
      chain.push(cur);
    }
  }
  return types;
}

/**
 * Declaration order: files in the order they were first read (entry first), and within a file by source position —
 * so an inline type comes right after the schema that declares it, whatever order lowering visited them in.
 */
function orderTypes(ctx: LowerContext): NamedType[] {
  const fileRank = new Map(ctx.files.files.map((f, i) => [ctx.scopeOf(f), i]));
  const types = [...ctx.named.values()].filter((t): t is NamedType => t !== null);
  return types.sort(
    (a, b) =>
      (fileRank.get(a.origin.file) ?? 0) - (fileRank.get(b.origin.file) ?? 0) ||
      a.origin.line - b.origin.line ||
      a.origin.column - b.origin.column ||
      (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
  );
}

