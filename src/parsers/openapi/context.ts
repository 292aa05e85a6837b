/**
 * State shared by the lowering steps: the file set, the named types built so far, name allocation, and helpers
 * that turn a spec location into an `Origin`, a `TypeId` or a located `SpecError`.
 */
import type { NamedType, Origin, TypeId } from "../../ir/model.js";
import { originPath, type SpecHost } from "../host.js";
import { FileSet, type Loc } from "./files.js";
import { child, entries, isObject, str } from "./json.js";
import { NameTable } from "./names.js";
import type { ParsedFile } from "./read.js";

export class LowerContext {
  readonly files: FileSet;
  readonly names = new NameTable();
  /** Named types by id; `null` while the type is being built (so recursive references terminate). */
  readonly named = new Map<TypeId, NamedType | null>();
  /** Whether the schema behind a named type admits null (named types cannot carry that themselves). */
  readonly namedNullable = new Map<TypeId, boolean>();

  /** `seed`: files already parsed (or converted from Swagger 2.0), used instead of reading their paths again. */
  constructor(
    readonly entry: string,
    readonly host: SpecHost,
    seed: readonly ParsedFile[] = [],
  ) {
    // Component names are reserved before any inline schema is named, so an inline "PetOwner" can never take the
    // name of a component declared later as "PetOwner".
    this.files = new FileSet(host, (file) => {
      const root: Loc = { file, pointer: "#", value: file.value };
      const schemas = isObject(root.value) ? child(root, "components") : undefined;
      const scope = this.scopeOf(file);
      for (const [name] of entries(schemas && child(schemas, "schemas"))) this.names.reserve(scope, name);
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

  fail(loc: Pick<Loc, "file" | "pointer">, detail: string): never {
    return this.files.fail(loc, detail);
  }

  /** Follow `$ref` at `loc` (if any) once. */
  resolveRef(loc: Loc): Loc | undefined {
    const refLoc = child(loc, "$ref");
    if (!refLoc) return undefined;
    const ref = str(loc, "$ref");
    if (ref === undefined) return this.fail(refLoc, "$ref must be a string");
    return this.files.resolve(ref, refLoc);
  }

  /** Follow `$ref`s until a node without one (parameters, responses, request bodies, headers, path items). */
  deref(loc: Loc): Loc {
    const seen = new Set<string>();
    let at = loc;
    for (;;) {
      const next = this.resolveRef(at);
      if (!next) return at;
      const key = `${next.file.path}${next.pointer}`;
      if (seen.has(key)) return this.fail(loc, "circular $ref");
      seen.add(key);
      at = next;
    }
  }
}
