/**
 * State shared by the lowering steps: the file set, the named types built so far, name allocation, and helpers
 * that turn a spec location into an `Origin`, a `TypeId` or a located `SpecError`.
 */
import type { NamedType, Origin, TypeId } from "../../ir/model.js";
import { Diagnostics } from "../diagnostics.js";
import { originPath, type SpecHost } from "../host.js";
import { FileSet, type Loc } from "./files.js";
import { child, entries, isObject, str } from "./json.js";
import { NameTable } from "./names.js";
import type { JsonValue, ParsedFile } from "./read.js";

/**
 * How schemas are read where OpenAPI practice and JSON Schema differ (the `jsonSchema` option): "openapi" (default)
 * reads a schema with properties (items) but no `type` as an object (array), and in 3.0 lets additionalProperties
 * beside allOf see the parts' properties; "exact" reads both as JSON Schema does.
 */
export type JsonSchemaMode = "openapi" | "exact";

export interface OpenApiOptions {
  readonly jsonSchema?: JsonSchemaMode;
  /**
   * Read the file as a shared file of component schemas that entry documents `$ref` (one module per input file,
   * src/pipeline/module-layout.ts): when it has no `openapi` field, its `components.schemas` are lowered with the
   * rules of this version (the importing entries'), instead of refusing it as a document without a version.
   */
  readonly sharedComponents?: "3.0" | "3.1";
}

/** Fields of a Reference Object that override the referenced object's. */
const OVERRIDABLE = ["summary", "description"] as const;

export class LowerContext {
  readonly files: FileSet;
  readonly names = new NameTable();
  /**
   * The entry document's minor version. It matters in one place only: beside a schema `$ref`, other keywords are
   * ignored in 3.0 ("SHALL be ignored") and apply together with the reference in 3.1 (JSON Schema 2020-12).
   */
  version: "3.0" | "3.1" = "3.0";
  /** Named types by id; `null` while the type is being built (so recursive references terminate). */
  readonly named = new Map<TypeId, NamedType | null>();
  /**
   * Whether the schema behind a named type admits null, known before the type is built: references met while it is
   * being built (recursion) read it here, since `named` still holds null. The built type carries it as `nullable`.
   */
  readonly namedNullable = new Map<TypeId, boolean>();

  /**
   * `seed`: files already parsed (or converted from Swagger 2.0), used instead of reading their paths again.
   * `diagnostics`: where recoverable errors (one schema, property or operation) are collected.
   */
  constructor(
    readonly entry: string,
    readonly host: SpecHost,
    seed: readonly ParsedFile[] = [],
    readonly diagnostics: Diagnostics = new Diagnostics(1),
    readonly options: OpenApiOptions = {},
  ) {
    // Component names are reserved before any inline schema is named, so an inline "PetOwner" can never take the
    // name of a component declared later as "PetOwner".
    this.files = new FileSet(host, (file) => {
      const root: Loc = { file, pointer: "#", value: file.value };
      const schemas = isObject(root.value) ? child(root, "components") : undefined;
      const scope = this.scopeOf(file);
      for (const [name] of entries(schemas && child(schemas, "schemas"))) this.names.reserve(scope, name);
      // A referenced file that is not an OpenAPI document may be a file of definitions, whose top-level keys name
      // schemas (see SchemaLowerer.namedLocationName); reserving a key that turns out not to be one costs nothing.
      if (this.files.files.length > 1 && isObject(root.value) && !("openapi" in root.value)) {
        for (const [name] of entries(root)) this.names.reserve(scope, name);
      }
    });
    for (const file of seed) this.files.seed(file);
  }

  scopeOf(file: ParsedFile): string {
    return originPath(this.entry, file.path);
  }

  typeId(loc: Loc): TypeId {
    return `openapi:${this.scopeOf(loc.file)}${loc.pointer}`;
  }

  origin(loc: Loc, construct: string): Origin {
    const p = loc.file.locate(loc.pointer);
    // A node converted from Swagger 2.0 is named as the author wrote it (#/definitions/Pet, not #/components/schemas/Pet).
    const source = loc.file.sourcePointer?.(loc.pointer) ?? loc.pointer;
    const named = source === loc.pointer ? construct : construct.replace(loc.pointer, source);
    return { file: this.scopeOf(loc.file), line: p.line, column: p.column, pointer: source, construct: named };
  }

  /** Lower one independent piece (a schema, a property, an operation); its error is recorded and it is left out. */
  recover<T>(work: () => T): T | undefined {
    return this.diagnostics.recover(work);
  }

  /**
   * Record a located warning (Diagnostics.warn): the construct at `loc` is kept in a degraded form (a wider type, a
   * looser check) instead of refusing the document. Never for what breaks OpenAPI's own rules: that is `fail`.
   */
  warn(loc: Pick<Loc, "file" | "pointer">, detail: string): void {
    const p = loc.file.locate(loc.pointer);
    this.diagnostics.warn({ file: this.host.displayPath(loc.file.path), line: p.line, column: p.column }, detail);
  }

  fail(loc: Pick<Loc, "file" | "pointer">, detail: string): never {
    return this.files.fail(loc, detail);
  }

  /** Follow `$ref` at `loc` (if any) once. */
  resolveRef(loc: Loc): Loc | undefined {
    // A `$dynamicRef` to a JSON pointer (not a `$dynamicAnchor` name) is a plain reference (JSON Schema 2020-12 §8.2.3.2).
    const dynamic = child(loc, "$ref") ? undefined : child(loc, "$dynamicRef");
    const key = dynamic && typeof dynamic.value === "string" && /^[^#]*#\//.test(dynamic.value) ? "$dynamicRef" : "$ref";
    const refLoc = child(loc, key);
    if (!refLoc) return undefined;
    const ref = str(loc, key);
    if (ref === undefined) return this.fail(refLoc, `${key} must be a string`);
    return this.files.resolve(ref, refLoc);
  }

  /**
   * The map under `key` (properties, responses, content...), following a `$ref` that stands for the whole map.
   * OpenAPI only allows Reference Objects in specific places, but JSON Reference resolvers (and documents written
   * for them, such as DigitalOcean's `properties: {$ref: attributes.yml#/...}`) replace any object holding a string
   * `$ref`. A map entry named `$ref` would be a schema/response object, never a string, so the two cannot be confused.
   */
  mapAt(loc: Loc, key: string): Loc | undefined {
    const at = child(loc, key);
    return at && isObject(at.value) && typeof at.value["$ref"] === "string" ? this.deref(at) : at;
  }

  /**
   * Follow `$ref`s until a node without one (parameters, responses, request bodies, headers, operations).
   * A `summary` or `description` written beside a `$ref` overrides the target's (the 3.1 Reference Object; 3.0 says
   * to ignore siblings, but documents that write them mean the same, and they only change doc comments): the result
   * is then a view of the target with those fields replaced, still located at the target.
   */
  deref(loc: Loc): Loc {
    const seen = new Set<string>();
    const overrides: { [key: string]: JsonValue } = {};
    let at = loc;
    for (;;) {
      const next = this.resolveRef(at);
      if (!next) break;
      for (const key of OVERRIDABLE) {
        const text = str(at, key);
        if (text !== undefined && !(key in overrides)) overrides[key] = text;
      }
      const key = `${next.file.path}${next.pointer}`;
      if (seen.has(key)) return this.fail(loc, "circular $ref");
      seen.add(key);
      at = next;
    }
    if (Object.keys(overrides).length === 0 || !isObject(at.value)) return at;
    const view: { [key: string]: JsonValue } = Object.assign(Object.create(null) as object, at.value, overrides);
    return { ...at, value: view };
  }
}
