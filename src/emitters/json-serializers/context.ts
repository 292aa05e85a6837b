import type { GeneratedFile, ImportToken } from "../../codegen/generated-file.js";
import type { NamedType, ScalarType, TypeExpr, TypeId } from "../../ir/model.js";
import { Lines } from "../json-validators/code.js";
import { bodyRefs } from "../json-validators/analysis.js";
import { sameShapeTypes } from "../types/same-shape.js";
import { recordProperties } from "../types/properties.js";
import type { TypesContext } from "../types/context.js";
import type { EmitModules } from "../artifact.js";
import { importPublic, importShared, ownSameShape } from "../modules.js";

/** How a scalar is held in memory and written as JSON. */
export type ScalarShape = "string" | "date" | "boolean" | "number" | "bigint" | "int64-string" | "bytes" | "any";

const INT64_KINDS = new Set(["int64", "sint64", "sfixed64", "uint64", "fixed64"]);
const NUMBER_KINDS = new Set(["int32", "sint32", "sfixed32", "uint32", "fixed32", "float", "double"]);

export function scalarShape(t: ScalarType, types: TypesContext): ScalarShape {
  if (INT64_KINDS.has(t.scalar)) {
    const mode = types.options.int64;
    return mode === "bigint" ? "bigint" : mode === "string" ? "int64-string" : "number";
  }
  if (NUMBER_KINDS.has(t.scalar)) return "number";
  switch (t.scalar) {
    case "integer":
      return "bigint";
    case "boolean":
      return "boolean";
    case "bytes":
      return "bytes";
    case "any":
      return "any";
    case "dateTime":
      return types.options.dates === "Date" ? "date" : "string";
    default:
      return "string";
  }
}

/** State of one json.ts being written: helper naming, and which types need a conversion step when decoding. */
export class SerializerContext {
  helpers = new Lines();
  private owner = "";
  private helperCount = 0;
  /** Named types whose decoded JSON needs converting (Date, bigint, bytes) before it has the TypeScript shape. */
  readonly needsRevive: ReadonlySet<TypeId>;
  /** Whether the parser must keep big integers exact (int64 as bigint or string). */
  readonly parseBigints: boolean;
  /** Types whose codecs are another type's, of the same shape: type -> the one with the code. */
  readonly sameShape: ReadonlyMap<TypeId, TypeId>;

  constructor(
    readonly f: GeneratedFile,
    readonly types: TypesContext,
    readonly runtimeModule: string,
    /** Set when the output is one module per input file: other files' types are written and read by their modules. */
    readonly modules?: EmitModules,
  ) {
    this.parseBigints = types.options.int64 !== "number" && types.doc.types.some((t) => bodyExprs(t, types).some(hasInt64));
    this.needsRevive = this.computeNeedsRevive();
    this.sameShape = ownSameShape(modules, sameShapeTypes(types));
  }

  /**
   * The function of named type `id` that generated code calls for `role`: this module's (or that of the first own
   * type of the same shape), or for another file's type its module's (`encodeJson` and `is` are public, a reviver is
   * exported for other modules under its `$` name). `is` lives in validate.ts, the others in json.ts.
   */
  typeFn(id: TypeId, role: "encodeJson" | "revive" | "is"): string {
    const home = this.modules?.foreign(id);
    const file = role === "is" ? "validate" : "json";
    if (home !== undefined) {
      return role === "revive"
        ? importShared(this.f, home, file, this.types.names.shared(id, "revive"))
        : this.f.use(importPublic(this.f, home, file, this.types.names.derived(id, role)));
    }
    const name = this.types.names.derived(this.sameShape.get(id) ?? id, role);
    return role === "is" ? this.f.use(this.f.import(name, "./validate.js")) : name;
  }

  rt(name: string): ImportToken {
    return this.f.import(name, this.runtimeModule);
  }

  typeName(id: TypeId): string {
    return this.types.names.type(id);
  }

  /** The name of the type whose functions encode and decode type `id`: its own, or that of the first type of the
   * same shape (see types/same-shape.ts), whose functions the later ones' names are aliases of. */
  codecName(id: TypeId): string {
    return this.typeName(this.sameShape.get(id) ?? id);
  }

  beginType(id: TypeId): void {
    this.owner = this.typeName(id);
    this.helperCount = 0;
    this.helpers = new Lines();
  }

  helperName(prefix: "write" | "revive"): string {
    return `${prefix}${this.owner}$${++this.helperCount}`;
  }

  private readonly sharedHelpers = new Map<string, string>();

  /**
   * One helper per distinct inline type (array, map, union) and prefix in the module, named after the type that
   * first needed it: `build` runs only then. References count by the type whose codec they use, so an array of one
   * type and an array of a same-shape type share a writer.
   */
  sharedHelper(prefix: "write" | "revive", key: unknown, build: (name: string) => void): string {
    const cacheKey = `${prefix}:${JSON.stringify(key, (k, v: unknown) => (k === "id" && typeof v === "string" ? (this.sameShape.get(v) ?? v) : v))}`;
    const known = this.sharedHelpers.get(cacheKey);
    if (known) return known;
    const name = this.helperName(prefix);
    this.sharedHelpers.set(cacheKey, name);
    build(name);
    return name;
  }

  /** Whether a scalar's wire JSON differs from its in-memory value. */
  scalarNeedsRevive(t: ScalarType): boolean {
    const shape = scalarShape(t, this.types);
    if (shape === "date" || shape === "bigint" || shape === "int64-string" || shape === "bytes") return true;
    return shape === "number" && this.parseBigints;
  }

  exprNeedsRevive(t: TypeExpr, known: ReadonlySet<TypeId> = this.needsRevive): boolean {
    switch (t.kind) {
      case "scalar":
        return this.scalarNeedsRevive(t);
      case "literal":
        return false;
      case "ref":
        return known.has(t.id);
      case "list":
        return this.exprNeedsRevive(t.of, known);
      case "map":
        return this.exprNeedsRevive(t.value, known);
      case "union":
        return t.of.some((m) => this.exprNeedsRevive(m, known));
    }
  }

  /** A fixpoint over references, so mutually recursive types agree. */
  private computeNeedsRevive(): Set<TypeId> {
    const out = new Set<TypeId>();
    const own = (id: TypeId): boolean => {
      const t = this.types.types.get(id)!;
      const leaves = (e: TypeExpr): boolean => this.exprNeedsRevive(e, out);
      switch (t.kind) {
        case "record":
          return bodyRefs(t, this.types).some((r) => out.has(r)) || bodyExprs(t, this.types).some(leaves);
        case "alias":
          return leaves(t.target);
        case "union":
          return t.variants.some((v) => leaves(v.type));
        case "enum":
          return false;
      }
    };
    for (let changed = true; changed; ) {
      changed = false;
      for (const t of this.types.doc.types) {
        if (!out.has(t.id) && own(t.id)) {
          out.add(t.id);
          changed = true;
        }
      }
    }
    return out;
  }
}

/** The type expressions a named type's body holds directly (record fields include inherited ones). */
export function bodyExprs(t: NamedType, types: TypesContext): TypeExpr[] {
  switch (t.kind) {
    case "record": {
      const fields = recordProperties(t, types).flatMap((p) => (p.kind === "field" ? [p.field.type] : []));
      return t.additionalProperties ? [...fields, t.additionalProperties] : fields;
    }
    case "alias":
      return [t.target];
    case "union":
      return t.variants.map((v) => v.type);
    case "enum":
      return [];
  }
}

function hasInt64(t: TypeExpr): boolean {
  switch (t.kind) {
    case "scalar":
      return INT64_KINDS.has(t.scalar);
    case "list":
      return hasInt64(t.of);
    case "map":
      return hasInt64(t.value);
    case "union":
      return t.of.some(hasInt64);
    default:
      return false;
  }
}
