/**
 * Lowering of JSON Schema (the OpenAPI 3.0 dialect and the 3.1 = 2020-12 dialect) into IR types.
 *
 * Which schemas become *named* IR types:
 *  - component schemas ("#/components/schemas/X"), `$defs`/`definitions` of referenced files and whole referenced
 *    schema files: always, under their own name (scalars and arrays become an `alias`);
 *  - inline schemas that need a declaration (objects, enums, discriminated unions, constrained array items):
 *    `anonymous: true`, a name synthesized from where they were first met, id from their own JSON pointer.
 * Everything else (scalars, arrays, maps, type arrays, plain oneOf) stays an inline type expression.
 * Recursion terminates because a named type's id is registered before its body is lowered.
 */
import path from "node:path";
import type {
  EnumType,
  EnumValue,
  Example,
  Facets,
  NamedType,
  Field,
  JsonData,
  ObjectCheck,
  ArrayCheck,
  Evaluated,
  EvaluatedWhen,
  RecordType,
  ScalarType,
  TypeExpr,
  TypeId,
  UnionType,
  UnionVariant,
  ValueCheck,
} from "../../ir/model.js";
import type { LowerContext } from "./context.js";
import type { Loc } from "./files.js";
import { bool, child, entries, has, isObject, items, str, type JsonObject } from "./json.js";
import { facetsOf, listFacetsOf, mergeFacets, withoutFormat } from "./facets.js";
import { Intersection, jsonKindsOf, namedTypeRefs, Never, refsOf, type Typed } from "./intersect.js";
import { schemaExamples } from "./examples.js";
import { pascalCase } from "./names.js";
import { childPointer, segmentsOf } from "./pointer.js";
import { backtrackingReason, unicodePattern } from "./pattern.js";

/** An inline use of a schema: its type plus what a field/parameter carries beside the type. */
export interface Lowered {
  readonly type: TypeExpr;
  readonly nullable: boolean;
  readonly facets?: Facets;
}

const ANY: ScalarType = { kind: "scalar", scalar: "any" };
const STRING: ScalarType = { kind: "scalar", scalar: "string" };
const NULL_LITERAL: TypeExpr = { kind: "literal", value: null };
const JSON_TYPES = new Set(["object", "array", "string", "integer", "number", "boolean", "null"]);

/** What a schema node is, decided once from its keywords (first match wins, in this order). */
type Shape =
  | { readonly k: "ref"; readonly target: Loc }
  /**
   * `allOf: [x]` alone (parts that only annotate or only add scalar constraints aside), or oneOf/anyOf with a single
   * non-null variant: the schema is `x` (plus null), with the constraints of `layered` parts as extra facets.
   */
  | { readonly k: "unwrap"; readonly inner: Loc; readonly layered?: readonly Loc[]; readonly via: "allOf" | "oneOf" | "anyOf" | "rest" }
  | { readonly k: "literal"; readonly value: string | number | boolean | null }
  | { readonly k: "enum" }
  | { readonly k: "record" }
  | { readonly k: "union"; readonly variants: readonly Loc[]; readonly exclusive: boolean }
  /** A type array of several non-null types. */
  | { readonly k: "multi"; readonly types: readonly string[] }
  /** A single JSON type: object (as map or record), array or a scalar. */
  | { readonly k: "typed"; readonly type: string }
  /**
   * `jsonSchema: "exact"`: no `type`, but object (array) keywords. JSON Schema applies them to objects (arrays) only,
   * so the schema admits every other JSON type as well: a named alias of the union of the object (array) and the rest.
   */
  | { readonly k: "untyped"; readonly of: "object" | "array" }
  | { readonly k: "any" };

/**
 * JSON Schema keywords the IR has no place for yet. They are left out of the generated type and checks, with a
 * located warning (so `--strict` refuses the document), rather than refusing a valid document.
 */
const UNSUPPORTED_KEYWORDS = ["$recursiveRef", "$dynamicRef"] as const;

/**
 * Most in-place subschema applications one `unevaluatedProperties`/`unevaluatedItems` may depend on (allOf parts,
 * branches, `$ref` targets, followed through each other). Beyond it the keyword is not checked, with a warning: a
 * schema whose branches refer to branches can describe a tree exponentially larger than itself.
 */
const MAX_EVALUATED_NODES = 2000;

/**
 * Keywords that never shape the type and always become checks (NamedType.checks), and the ones a leftover
 * ("rest") schema leaves out because they are checked on their own.
 */
const CHECK_KEYWORDS = new Set([
  "not", "if", "then", "else", "patternProperties", "propertyNames", "dependentSchemas", "dependentRequired", "dependencies",
  "unevaluatedProperties", "unevaluatedItems", "prefixItems", "contains", "minContains", "maxContains", "minProperties",
  "maxProperties", "allOf", "oneOf", "anyOf", "required", "minItems", "maxItems", "uniqueItems", "additionalItems",
]);
/** Keywords that locate or name schemas rather than constrain the value. */
const STRUCTURAL = new Set([
  "$ref", "$dynamicRef", "$recursiveRef", "$schema", "$id", "$anchor", "$dynamicAnchor", "$recursiveAnchor", "$defs",
  "definitions", "$comment", "$vocabulary", "discriminator", "nullable",
]);
/** The keywords a record shape (properties merged over allOf and $ref) takes in. */
const RECORD_KEYWORDS = new Set(["properties", "required", "additionalProperties", "allOf", "type", "$ref"]);

/** Keywords that, beside a 3.1 `$ref`, make the schema an object of its own: the reference's properties and these. */
const REF_RECORD_SIBLINGS = ["properties", "required", "additionalProperties", "allOf"] as const;
/** Keywords that, beside a 3.1 `$ref`, would narrow the referenced type in ways the IR cannot express on a use. */
const REF_UNSUPPORTED_SIBLINGS = ["enum", "const", "items", "type"] as const;

export class SchemaLowerer {
  /** Non-named `$ref` targets being lowered, to report cycles that no named type breaks. */
  private readonly expanding = new Set<string>();
  /** Schemas isRecordLike is working out right now (allOf parts can refer back to the schema that asks). */
  private readonly askingRecordLike = new Set<string>();
  /** familyOf's answer per base schema location (undefined: not a discriminated base that schemas extend). */
  private readonly families = new Map<string, TypeExpr | undefined>();
  /**
   * 3.1: schemas whose `additionalProperties` a record they are part of cannot take in, because the record has
   * properties that schema does not declare itself (JSON Schema: additionalProperties sees only the `properties`
   * beside it, not those of allOf parts or a $ref). Their additionalProperties is checked on its own (objectCheck, or
   * the part as a `matches` check).
   */
  private readonly separateAdditional = new Set<string>();
  /** Records (by location) whose own additionalProperties is such a one: objectCheck checks it beside the record. */
  private readonly ownSeparateAdditional = new Set<string>();

  constructor(private readonly ctx: LowerContext) {}

  /** Lower every `components.schemas` entry of a file (the entry file: all of them, used or not). */
  lowerComponents(root: Loc): void {
    const components = child(root, "components");
    for (const [name, loc] of entries(components && child(components, "schemas"))) this.ctx.recover(() => this.ensureNamed(loc, name, false));
  }

  /** A schema used in place (property, parameter, items...). `hint` names inline types declared here. */
  lower(loc: Loc, hint: string): Lowered {
    const shape = this.shapeOf(loc);
    const lowered = this.lowerShape(loc, shape, hint);
    // Records, enums and discriminated unions are named types already: their checks go on them (ensureNamed).
    if (lowered.type.kind === "ref" && lowered.type.id === this.ctx.typeId(loc)) return lowered;
    const id = this.ctx.typeId(loc);
    if (this.ctx.named.has(id)) return { type: this.refTo(id), nullable: lowered.nullable };
    this.ctx.named.set(id, null);
    const checks = this.checksOf(loc, shape, hint, true);
    if (checks.length === 0) {
      this.ctx.named.delete(id);
      return lowered;
    }
    // What the type cannot say is checked on an anonymous alias of it (the type stays as wide as the shape's).
    this.ctx.named.set(id, {
      kind: "alias",
      id,
      name: this.ctx.names.claim(this.ctx.scopeOf(loc.file), hint),
      scope: this.ctx.scopeOf(loc.file),
      anonymous: true,
      target: lowered.type,
      ...(lowered.facets ? { facets: lowered.facets } : {}),
      ...(lowered.nullable ? { nullable: true } : {}),
      checks,
      origin: this.ctx.origin(loc, `openapi schema ${loc.pointer}`),
    });
    return { type: this.refTo(id), nullable: lowered.nullable };
  }

  /** The type of a schema of a known shape, without the checks its shape does not express. */
  private lowerShape(loc: Loc, shape: Shape, hint: string): Lowered {
    const nullable = this.nullableOf(loc);
    switch (shape.k) {
      case "ref": {
        // 3.0 polymorphism: a use of a base schema that has a discriminator means the base or any schema extending it.
        const family = this.familyOf(shape.target);
        if (family) return { type: family, nullable: nullable || (this.ctx.namedNullable.get(this.ctx.typeId(shape.target)) ?? false) };
        const target = this.lowerTarget(shape.target, hint);
        return { type: target.type, nullable, facets: this.applicable(target.type, mergeFacets(target.facets, this.refSiblingFacets(loc)), shape.target) };
      }
      case "unwrap": {
        // `X: allOf: [$ref Base]` extends Base (it is one of Base's family, not the family itself).
        const target = items(child(loc, "allOf")).some((p) => p.pointer === shape.inner.pointer) ? this.ctx.resolveRef(shape.inner) : undefined;
        const inner = target && this.familyOf(target) ? this.lowerTarget(target, hint) : this.lower(shape.inner, hint);
        const layered = (shape.layered ?? []).reduce((f, part) => mergeFacets(f, facetsOf(this.ctx, part)), inner.facets);
        return {
          type: inner.type,
          nullable: nullable || (shape.via === "rest" && inner.nullable),
          facets: this.applicable(inner.type, mergeFacets(layered, shape.via === "rest" ? undefined : facetsOf(this.ctx, loc)), shape.inner),
        };
      }
      case "literal":
        return { type: { kind: "literal", value: shape.value }, nullable };
      case "enum":
      case "record":
      case "untyped":
        return { type: this.refTo(this.ensureNamed(loc, hint, true)), nullable };
      case "union":
        if (has(loc, "discriminator")) return { type: this.refTo(this.ensureNamed(loc, hint, true)), nullable };
        return { type: { kind: "union", of: shape.variants.map((v, i) => this.typeOnly(v, variantHint(v, hint, i))) }, nullable };
      case "multi":
        return {
          type: { kind: "union", of: shape.types.map((t) => this.lowerTyped(loc, t, hint)) },
          nullable,
          facets: facetsOf(this.ctx, loc),
        };
      case "typed": {
        const type = this.lowerTyped(loc, shape.type, hint);
        return { type, nullable, facets: shape.type === "object" || shape.type === "array" ? undefined : facetsOf(this.ctx, loc) };
      }
      case "any":
        return { type: this.anyOrNull(loc), nullable, facets: facetsOf(this.ctx, loc) };
    }
  }

  /**
   * A schema where only a type expression fits (array items, map values, union variants): facets are kept by
   * declaring an anonymous alias, and null becomes a union member.
   */
  typeOnly(loc: Loc, hint: string): TypeExpr {
    const { type, nullable } = this.withoutFacets(loc, hint);
    return nullable && !isNullType(type) ? { kind: "union", of: [type, NULL_LITERAL] } : type;
  }

  /**
   * Like `lower`, but facets are folded into an anonymous alias (for places such as HttpContent without facets).
   * With `always`, any shape that is not already a named type gets that alias (a body's own validator and codecs:
   * a top-level oneOf, an inline array or map), except a schema that allows anything.
   */
  withoutFacets(loc: Loc, hint: string, always = false): { type: TypeExpr; nullable: boolean } {
    const lowered = this.lower(loc, hint);
    // A format the scalar kind already says (int64, date-time...) is not worth declaring an alias for.
    const facets = lowered.facets && lowered.type.kind === "scalar" && lowered.type.scalar !== "string" && lowered.type.scalar !== "any"
      ? withoutFormat(lowered.facets)
      : lowered.facets;
    const wanted = always && lowered.type.kind !== "ref" && !(lowered.type.kind === "scalar" && lowered.type.scalar === "any");
    if (!facets && !wanted) return lowered;
    const id = this.ctx.typeId(loc);
    if (!this.ctx.named.has(id)) {
      this.ctx.named.set(id, {
        kind: "alias",
        id,
        name: this.ctx.names.claim(this.ctx.scopeOf(loc.file), hint),
        scope: this.ctx.scopeOf(loc.file),
        anonymous: true,
        target: lowered.type,
        ...(facets ? { facets } : {}),
        ...(lowered.nullable ? { nullable: true } : {}),
        origin: this.ctx.origin(loc, `openapi schema ${loc.pointer}`),
      });
    }
    return { type: this.refTo(id), nullable: lowered.nullable };
  }

  // ---------------------------------------------------------------------------------------------------------------
  // Named types

  /** The named type for the schema at `loc`, built on first request. */
  private ensureNamed(loc: Loc, wanted: string, anonymous: boolean): TypeId {
    const { ctx } = this;
    const id = ctx.typeId(loc);
    if (ctx.named.has(id)) return id;
    ctx.named.set(id, null);
    const nullable = this.nullableOf(loc);
    ctx.namedNullable.set(id, nullable);
    const scope = ctx.scopeOf(loc.file);
    const name = anonymous ? ctx.names.claim(scope, wanted) : wanted;
    const doc = str(loc, "description");
    const head = {
      id,
      name,
      scope,
      ...(doc !== undefined ? { doc } : {}),
      ...(bool(loc, "deprecated") ? { deprecated: true } : {}),
      ...(anonymous ? { anonymous: true } : {}),
      ...(nullable ? { nullable: true } : {}),
      ...examplesField(schemaExamples(ctx, loc)),
      origin: ctx.origin(loc, `openapi schema ${loc.pointer}`),
    };
    const shape = this.shapeOf(loc);
    let built: NamedType;
    if (shape.k === "enum") built = this.buildEnum(loc, head);
    else if (shape.k === "record") built = this.buildRecord(loc, head);
    else if (shape.k === "union") built = this.buildUnion(loc, head, shape);
    else if (shape.k === "untyped") {
      const facets = facetsOf(ctx, loc);
      const note = `No \`type\`: JSON Schema applies the ${shape.of === "object" ? "object" : "array"} keywords to ${shape.of === "object" ? "objects" : "arrays"} only, so any other JSON value is valid too (jsonSchema: exact).`;
      built = {
        kind: "alias",
        ...head,
        doc: head.doc !== undefined ? `${head.doc}\n\n${note}` : note,
        target: this.untypedUnion(loc, shape.of, name),
        ...(facets ? { facets } : {}),
      };
    } else {
      // Scalars, arrays, maps, literals and refs declared under a name: an alias keeps the name and the facets.
      const body = this.lowerBody(loc, shape, name);
      built = { kind: "alias", ...head, target: body.type, ...(body.facets ? { facets: body.facets } : {}) };
    }
    ctx.named.set(id, built);
    const checks = this.checksOf(loc, shape, name);
    if (checks.length > 0) ctx.named.set(id, { ...built, checks });
    return id;
  }

  /** `lower` for a named location itself (which would otherwise just refer to itself). */
  private lowerBody(loc: Loc, shape: Shape, hint: string): Lowered {
    if (shape.k === "typed") {
      return { type: this.lowerTyped(loc, shape.type, hint), nullable: false, facets: shape.type === "array" ? undefined : facetsOf(this.ctx, loc) };
    }
    return this.lowerShape(loc, shape, hint);
  }

  /**
   * The type of an untyped schema read exactly (Shape "untyped"): the object it describes (a record declared under
   * its own id and name, `<Name>Object`, or a map) or the array, or any other JSON value. Checks stay on the alias.
   */
  private untypedUnion(loc: Loc, of: "object" | "array", name: string): TypeExpr {
    const { ctx } = this;
    let own: TypeExpr;
    if (of === "array") own = this.lowerTyped(loc, "array", name);
    else if (this.untypedRecord(loc)) {
      // `~` never follows itself in a JSON pointer otherwise (it is escaped as ~0 or ~1): no schema has this id.
      const id = `${ctx.typeId(loc)}~object`;
      if (!ctx.named.has(id)) {
        ctx.named.set(id, null);
        const scope = ctx.scopeOf(loc.file);
        const record = this.buildRecord(loc, {
          id,
          name: ctx.names.claim(scope, `${name}Object`),
          scope,
          anonymous: true,
          origin: ctx.origin(loc, `openapi schema ${loc.pointer}`),
        });
        ctx.named.set(id, record);
      }
      own = this.refTo(id);
    } else own = this.lowerTyped(loc, "object", name);
    const others: TypeExpr[] = [STRING, { kind: "scalar", scalar: "double" }, { kind: "scalar", scalar: "boolean" }, NULL_LITERAL];
    const rest: TypeExpr = of === "array" ? { kind: "map", key: STRING, value: ANY } : { kind: "list", of: ANY };
    return { kind: "union", of: [own, ...others, rest] };
  }

  private buildRecord(loc: Loc, head: Omit<RecordType, "kind" | "members">): RecordType {
    // Every declaration of a property (an allOf part may re-declare one another part declares): they are merged
    // into one property whose value satisfies them all (mergedField).
    const props = new Map<string, Loc[]>();
    const required = new Set<string>();
    let additional: Loc | undefined;
    const additionalOwners: Loc[] = [];
    const seen = new Set<string>();
    const collect = (at: Loc, followAllOf: boolean, into = props, requiredInto = required): void => {
      const key = `${at.file.path}${at.pointer}`;
      if (seen.has(key)) return;
      seen.add(key);
      const target = this.ctx.resolveRef(at);
      if (target) {
        collect(target, true, into, requiredInto);
        // 3.0 ignores whatever is written beside a $ref; in 3.1 the object's own keywords add to the reference's.
        if (this.ctx.version !== "3.1") return;
      }
      for (const [name, p] of entries(this.ctx.mapAt(at, "properties"))) into.set(name, [...(into.get(name) ?? []), p]);
      for (const r of items(child(at, "required"))) if (typeof r.value === "string") requiredInto.add(r.value);
      // Of a base, only the names of its properties (and required ones) are wanted (see `redeclares`).
      if (into === props) {
        // Beside patternProperties, additionalProperties is checked on the keys no pattern matches (objectCheck).
        if (!has(at, "patternProperties") && has(at, "additionalProperties")) {
          additional = child(at, "additionalProperties");
          additionalOwners.push(at);
        }
      }
      if (followAllOf) for (const part of items(child(at, "allOf"))) collect(part, true, into, requiredInto);
    };

    // `allOf: [$ref Base, {inline}]` is inheritance: keep Base as the base type and only the inline part as members.
    // Any other allOf is flattened into one record (field origins still point at their declarations).
    let base: RecordType["base"];
    let baseTarget: Loc | undefined;
    const parts = items(child(loc, "allOf"));
    const refParts = parts.filter((p) => has(p, "$ref"));
    const baseRef = refParts.length === 1 ? this.ctx.resolveRef(refParts[0]!) : undefined;
    if (baseRef && this.isRecordLike(baseRef)) {
      const baseType = this.lowerTarget(baseRef, `${head.name}Base`).type;
      if (baseType.kind === "ref") {
        base = { id: baseType.id, derivation: "extension" };
        baseTarget = baseRef;
      }
    }
    if (base) {
      collect(loc, false);
      for (const part of parts) if (!has(part, "$ref")) collect(part, true);
    } else {
      collect(loc, true);
    }

    // An extension cannot change an inherited member, so the record is flattened instead (every property of the base
    // and of the extension, re-declared ones merged) when `required` names a property the base declares
    // (`allOf: [$ref Base, {required: [id]}]` makes Base's optional id required), or when the extension re-declares
    // a property of the base (`id: {format: uuid}` over Base's `id: {type: string}`), or declares one the base only
    // requires (Box's `Base: {required: [segment]}` without `segment` in its properties: the base has it with any value).
    const inherited = new Map<string, Loc[]>();
    const inheritedRequired = new Set<string>();
    if (baseTarget) collect(baseTarget, true, inherited, inheritedRequired);
    const redeclares = (): boolean => [...props.keys()].some((name) => inherited.has(name) || inheritedRequired.has(name));
    if (base && ([...required].some((name) => !props.has(name)) || redeclares())) {
      base = undefined;
      props.clear();
      required.clear();
      seen.clear();
      additional = undefined;
      additionalOwners.length = 0;
      collect(loc, true);
    }
    if (this.ctx.version === "3.1" || this.ctx.options.jsonSchema === "exact") {
      // JSON Schema: each additionalProperties sees only the properties written beside it. One that does not declare
      // every property of the record (others come from allOf parts, a $ref or the base) is checked on its own.
      const names = [...props.keys(), ...(base ? inherited.keys() : [])];
      additional = undefined;
      for (const owner of additionalOwners) {
        const own = new Set(entries(this.ctx.mapAt(owner, "properties")).map(([k]) => k));
        if (child(owner, "additionalProperties")?.value !== true && names.some((n) => !own.has(n))) {
          this.separateAdditional.add(`${owner.file.path}${owner.pointer}`);
          if (owner.file === loc.file && owner.pointer === loc.pointer) this.ownSeparateAdditional.add(`${loc.file.path}${loc.pointer}`);
        } else additional = child(owner, "additionalProperties");
      }
    }
    // A required name declared nowhere still has to be present, with any value.
    for (const name of required) {
      if (props.has(name)) continue;
      const at = items(child(loc, "required")).find((r) => r.value === name) ?? loc;
      props.set(name, [{ file: at.file, pointer: at.pointer, value: Object.create(null) as JsonObject }]);
    }
    // A property in error is reported and left out; the record's other properties are still checked.
    const members = [...props].flatMap(([name, decls]) => this.ctx.recover(() => this.mergedField(name, decls, required.has(name), head)) ?? []);
    const record: RecordType = { kind: "record", ...head, members, ...(base ? { base } : {}) };
    if (additional === undefined) return record;
    const ap: Loc = additional;
    if (ap.value === false) return { ...record, additionalProperties: false };
    if (ap.value === true) return { ...record, additionalProperties: ANY };
    return { ...record, additionalProperties: this.typeOnly(ap, `${head.name}Value`) };
  }

  /**
   * A property declared in one or several allOf parts. Declarations that repeat another, or only annotate, add
   * nothing; the others are lowered one by one and met (intersect.ts): one property that must satisfy them all.
   * Types declared while lowering them that the merged property does not use are dropped again.
   */
  private mergedField(name: string, decls: readonly Loc[], required: boolean, record: Pick<RecordType, "id" | "name">): Field {
    const parent = record.name;
    const distinct: Loc[] = [];
    const keys = new Set<string>();
    for (const d of decls) {
      const key = this.declarationKey(d);
      if (!keys.has(key)) {
        keys.add(key);
        distinct.push(d);
      }
    }
    const constraining = distinct.filter((d) => !onlyAnnotates(d));
    const last = distinct.at(-1)!;
    if (constraining.length <= 1) {
      const field = this.field(name, constraining[0] ?? last, required, parent);
      return distinct.length > 1 ? { ...field, ...annotationsOf(distinct, field) } : field;
    }
    const at = constraining.at(-1)!;
    const hint = `${parent}${pascalCase(name)}`;
    const before = new Set(this.ctx.named.keys());
    const lowered = constraining.map((d) => this.lower(d, hint));
    const meet = new Intersection(this.ctx, at, `${record.id}&${name}`, hint);
    let acc: Typed | Never = lowered[0]!;
    for (const next of lowered.slice(1)) if (!(acc instanceof Never)) acc = meet.meet(acc, next);
    const where = `property "${name}" of ${parent} is declared in several allOf parts`;
    for (const c of meet.contradictions) this.ctx.warn(at, `${where} that contradict each other: ${c}`);
    for (const l of meet.losses) this.ctx.warn(at, `${where}: ${l}`);
    let result: Typed;
    if (acc instanceof Never) {
      this.ctx.warn(at, `${where} that contradict each other (${acc.reason}): no value is valid, its type is never`);
      result = { type: meet.never(acc.reason) };
    } else result = acc;
    this.pruneUnused(before, refsOf(result.type));
    // The merged property's own types take the best names the dropped declarations gave back.
    const kept = meet.declared.flatMap((id) => this.ctx.named.get(id) ?? []);
    for (const t of kept) this.ctx.names.release(t.scope, t.name);
    for (const t of kept) this.ctx.named.set(t.id, { ...t, name: this.ctx.names.claim(t.scope, hint) });
    const field = this.field(name, at, required, parent, { type: result.type, nullable: lowered.every((l) => l.nullable), facets: result.facets });
    return { ...field, ...annotationsOf(distinct, field) };
  }

  /** Declarations that say the same thing get the same key: equal JSON, or a bare `$ref` to the same schema. */
  private declarationKey(d: Loc): string {
    const target = isObject(d.value) && Object.keys(d.value).every((k) => k === "$ref" || ANNOTATIONS.has(k)) ? this.ctx.resolveRef(d) : undefined;
    if (target) return `ref:${target.file.path}${target.pointer}`;
    if (!isObject(d.value)) return `json:${JSON.stringify(d.value)}`;
    const kept = Object.entries(d.value).filter(([k]) => !ANNOTATIONS.has(k));
    return `json:${JSON.stringify(kept)}`;
  }

  /**
   * Drop the anonymous types declared since `before` that nothing kept refers to (the separate declarations of a
   * merged property, when the merge made a type of its own), and give their names back.
   */
  private pruneUnused(before: ReadonlySet<string>, roots: readonly string[]): void {
    const fresh = [...this.ctx.named.keys()].filter((id) => !before.has(id));
    const reached = new Set<string>();
    const stack = [...roots, ...fresh.filter((id) => !this.ctx.named.get(id)?.anonymous)];
    while (stack.length > 0) {
      const id = stack.pop()!;
      if (reached.has(id)) continue;
      reached.add(id);
      const t = this.ctx.named.get(id);
      if (t) stack.push(...namedTypeRefs(t));
    }
    for (const id of fresh) {
      const t = this.ctx.named.get(id);
      if (reached.has(id) || !t) continue;
      this.ctx.named.delete(id);
      this.ctx.namedNullable.delete(id);
      this.ctx.names.release(t.scope, t.name);
    }
  }

  private field(name: string, loc: Loc, required: boolean, parent: string, lowered = this.lower(loc, `${parent}${pascalCase(name)}`)): Field {
    const doc = str(loc, "description");
    const dflt = child(loc, "default");
    return {
      kind: "field",
      name,
      type: lowered.type,
      occurs: { min: required ? 1 : 0, max: 1 },
      nullable: lowered.nullable,
      ...(lowered.facets ? { facets: lowered.facets } : {}),
      ...(dflt ? { default: JSON.stringify(dflt.value) } : {}),
      ...(bool(loc, "deprecated") ? { deprecated: true } : {}),
      ...(doc !== undefined ? { doc } : {}),
      ...examplesField(schemaExamples(this.ctx, loc)),
      origin: this.ctx.origin(loc, `openapi property ${loc.pointer}`),
      wire: {
        json: {
          key: name,
          ...(bool(loc, "readOnly") ? { readOnly: true } : {}),
          ...(bool(loc, "writeOnly") ? { writeOnly: true } : {}),
        },
      },
    };
  }

  private buildEnum(loc: Loc, head: Omit<EnumType, "kind" | "base" | "values">): EnumType {
    const values: EnumValue[] = [];
    for (const v of items(child(loc, "enum"))) {
      if (v.value === null) continue; // null is nullability, not a value
      const primitive = typeof v.value !== "object";
      const value = primitive ? (v.value as string | number | boolean) : JSON.stringify(v.value);
      values.push({ name: String(value), value, origin: this.ctx.origin(v, `openapi enum value ${JSON.stringify(value)}`) });
    }
    const declared = this.typesOf(loc).filter((t) => t !== "null");
    // `type: string, enum: [false, true]`, `type: integer, enum: ["1"]`: the values are what a valid document holds
    // (a value must match both keywords, so the schema as written admits none of them). The type follows the values.
    const misfits = declared.length === 1 ? values.filter((v) => !fitsType(v.value, declared[0]!)) : [];
    if (misfits.length > 0) {
      const kinds = [...new Set(values.map((v) => typeof v.value))].join(" or ");
      this.ctx.warn(child(loc, "enum")!, `enum values ${misfits.map((v) => JSON.stringify(v.value)).join(", ")} are not of the declared type "${declared[0]}": the type is widened to the values' own type (${kinds})`);
    }
    let base: ScalarType;
    if (declared.length === 1 && declared[0] !== "object" && declared[0] !== "array" && misfits.length === 0) base = this.scalarFor(loc, declared[0]!);
    else {
      const kinds = new Set(values.map((v) => typeof v.value));
      base =
        kinds.size !== 1 ? ANY
        : kinds.has("string") ? STRING
        : kinds.has("number") ? { kind: "scalar", scalar: "double" }
        : { kind: "scalar", scalar: "boolean" };
    }
    return { kind: "enum", ...head, base, values };
  }

  private buildUnion(loc: Loc, head: Omit<UnionType, "kind" | "variants" | "discriminator">, shape: Extract<Shape, { k: "union" }>): UnionType {
    const disc = child(loc, "discriminator");
    const property = disc && str(disc, "propertyName");
    if (disc && property === undefined) this.ctx.fail(disc, "discriminator needs a propertyName");
    const candidates = shape.variants.map((v, i) => {
      const target = this.ctx.resolveRef(v);
      const targetName = target && this.namedLocationName(target);
      const type = this.typeOnly(v, variantHint(v, head.name, i));
      const name = targetName ?? str(v, "title") ?? (type.kind === "scalar" ? type.scalar : `Variant${i + 1}`);
      return { at: v, target, targetName, name, type };
    });
    const discriminator: UnionType["discriminator"] =
      property !== undefined ? { kind: "property", property } : { kind: "none", exclusive: shape.exclusive };
    const variants = property === undefined ? candidates.map(({ name, type }) => ({ name, type })) : this.tagVariants(disc!, property, candidates);
    return { kind: "union", ...head, variants, discriminator };
  }

  /**
   * The tags of a discriminated union's variants, as the specification defines them: the `mapping` keys that name
   * the variant's schema (several keys may name one schema), else the schema's `x-ms-discriminator-value` (AutoRest's
   * way of saying the tag of a schema that extends a base), else the schema's name (implicit mapping). An inline
   * variant has no name: its own values (`enum`, `const`) for the property, if it fixes them, else it is untagged
   * (tried when no tag matches).
   *
   * The discriminator only says which variant to check; the variant's schema decides what is valid. A variant whose
   * own schema fixes the property (`enum`, `const`, also inherited through allOf) and rejects the tag it would get
   * can never be selected by that tag (no valid value carries it; its type would be `never`), and each such case is
   * a located warning:
   *  - an implied tag (the schema name: the document states none): the variant's own values are its tags, those
   *    that no variant with an accepted tag claims; when none is left (a base whose enum lists its extensions'
   *    tags), no value selects it and it is left out of the union;
   *  - a stated tag (a mapping key, x-ms-discriminator-value) is not replaced by a guess: the tag is dropped, and a
   *    variant left without tags is left out of the union (the validator rejects values carrying the tag, as the
   *    variant's schema does).
   * A tag only the first variant that claims it gets.
   */
  private tagVariants(
    disc: Loc,
    property: string,
    candidates: readonly { at: Loc; target: Loc | undefined; targetName: string | undefined; name: string; type: TypeExpr }[],
  ): UnionVariant[] {
    const mapped = new Map<string, string[]>();
    const mappedAt = new Map<string, Loc>();
    for (const [tag, m] of entries(child(disc, "mapping"))) {
      if (typeof m.value !== "string") this.ctx.fail(m, "discriminator mapping values must be strings");
      const target = this.mappingTarget(m, m.value);
      const key = `${target.file.path}${target.pointer}`;
      mapped.set(key, [...(mapped.get(key) ?? []), tag]);
      mappedAt.set(tag, m);
    }
    const quote = (values: readonly string[]) => values.map((v) => JSON.stringify(v)).join(", ");
    // What each variant would be tagged, where that comes from, and the values its own schema allows there.
    const planned = candidates.map((c) => {
      const own = this.fixedValues(c.type, property);
      const explicit = c.target && mapped.get(`${c.target.file.path}${c.target.pointer}`);
      const msValue = c.target && str(c.target, "x-ms-discriminator-value");
      const declared: readonly string[] | undefined =
        explicit ?? (msValue !== undefined ? [msValue] : c.targetName !== undefined ? [c.targetName] : undefined);
      const source = explicit ? "a mapping names it" : msValue !== undefined ? "its x-ms-discriminator-value" : "its schema name, no mapping names it";
      const allowed = declared && own ? declared.filter((t) => own.includes(t)) : declared;
      return { c, own, declared, source, allowed, mapped: explicit !== undefined, implicit: !explicit && msValue === undefined };
    });
    const used = new Set<string>();
    const tagsOf = new Map<number, string[]>();
    const claim = (i: number, tags: readonly string[]) => {
      const fresh = tags.filter((t) => !used.has(t));
      for (const t of fresh) used.add(t);
      tagsOf.set(i, fresh);
    };
    // First the variants whose schema accepts (some of) their tags, then the others take what is left of their own.
    planned.forEach((p, i) => {
      if (p.allowed && p.allowed.length > 0) claim(i, p.allowed);
    });
    const variants: UnionVariant[] = [];
    planned.forEach((p, i) => {
      const { c, own, declared, source } = p;
      if (declared && own && p.allowed!.length < declared.length) {
        const rejected = declared.filter((t) => !own.includes(t));
        const head = `discriminator "${property}": variant ${c.name} would be tagged ${quote(rejected)} (${source}), but its own schema only allows ${quote(own)} there: `;
        if (p.allowed!.length > 0) {
          // Only mapping keys can be partly accepted (a variant has one x-ms-discriminator-value or name).
          this.ctx.warn(mappedAt.get(rejected[0]!) ?? c.at, `${head}no valid value carries that tag, so it selects no variant`);
        } else if (p.implicit) {
          // The document states no tag, only the values: those are the variant's.
          claim(i, own);
          const got = tagsOf.get(i)!;
          this.ctx.warn(c.at, head +
            (got.length === own.length ? "those values are its tags"
            : got.length > 0 ? `of those, ${quote(got)} are its tags (the others are other variants')`
            : "those are other variants' tags, so no value selects it and it is left out of the union"));
        } else {
          // A stated tag is not replaced by a guess: the variant's other values may well be other schemas' tags.
          const at = p.mapped ? mappedAt.get(rejected[0]!) : c.target && child(c.target, "x-ms-discriminator-value");
          this.ctx.warn(at ?? c.at, `${head}no valid value carries that tag, so no value selects it and it is left out of the union`);
        }
      } else if (!declared && own) claim(i, own);
      const tags = tagsOf.get(i) ?? [];
      if (tags.length === 0 && !declared && !own) variants.push({ name: c.name, type: c.type });
      for (const tag of tags) variants.push({ name: c.name, type: c.type, tag });
    });
    return variants;
  }

  /** The string values a record type allows for `property` when its schema fixes them (enum, const); else undefined. */
  private fixedValues(type: TypeExpr, property: string): string[] | undefined {
    let record = type.kind === "ref" ? this.ctx.named.get(type.id) : undefined;
    // A schema that only extends another (`allOf: [$ref Base]`, nothing of its own) is an alias of it.
    for (let hops = 0; record?.kind === "alias" && record.target.kind === "ref" && hops < 16; hops++) record = this.ctx.named.get(record.target.id);
    if (record?.kind !== "record") return undefined;
    const fields: Field[] = [];
    const seen = new Set<string>();
    for (let r: NamedType | null | undefined = record; r?.kind === "record" && !seen.has(r.id); r = r.base ? this.ctx.named.get(r.base.id) : undefined) {
      seen.add(r.id);
      fields.unshift(...r.members.filter((m): m is Field => m.kind === "field"));
    }
    const field = fields.filter((f) => (f.wire.json?.key ?? f.name) === property).at(-1);
    const values = (t: TypeExpr, depth: number): (string | number | boolean | null)[] | undefined => {
      if (depth > 16) return undefined;
      if (t.kind === "literal") return [t.value];
      if (t.kind === "union") {
        const all = t.of.map((m) => values(m, depth + 1));
        return all.every((v) => v !== undefined) ? all.flat() : undefined;
      }
      const named = t.kind === "ref" ? this.ctx.named.get(t.id) : undefined;
      if (named?.kind === "enum") return named.values.map((v) => v.value);
      if (named?.kind === "alias") return values(named.target, depth + 1);
      return undefined;
    };
    const found = field && values(field.type, 0);
    const strings = found?.filter((v): v is string => typeof v === "string");
    return strings && strings.length > 0 ? strings : undefined;
  }

  /**
   * The union a use of `target` stands for when `target` is a named object schema with a `discriminator` (and no
   * oneOf/anyOf of its own) that other component schemas extend with `allOf: [$ref target, ...]`: the OpenAPI 3.0
   * polymorphism pattern. Its variants are the base itself and every schema that extends it (directly or through
   * another), tagged as tagVariants says. Undefined for any other target.
   */
  private familyOf(target: Loc): TypeExpr | undefined {
    const key = `${target.file.path}${target.pointer}`;
    if (this.families.has(key)) return this.families.get(key);
    const family = this.buildFamily(target);
    this.families.set(key, family);
    return family;
  }

  private buildFamily(target: Loc): TypeExpr | undefined {
    const disc = child(target, "discriminator");
    if (!disc || has(target, "oneOf") || has(target, "anyOf")) return undefined;
    const baseName = this.namedLocationName(target);
    const property = str(disc, "propertyName");
    if (baseName === undefined || property === undefined || this.shapeOf(target).k !== "record") return undefined;
    const id = `${this.ctx.typeId(target)}&family`;
    const subtypes = this.extensionsOf(target);
    if (subtypes.length === 0) return undefined;
    // Registered before its variants are lowered: a variant that refers back to the base (recursion) meets it here.
    this.families.set(`${target.file.path}${target.pointer}`, this.refTo(id));
    this.ctx.named.set(id, null);
    const scope = this.ctx.scopeOf(target.file);
    const name = this.ctx.names.claim(scope, `${baseName}Family`);
    const candidates = [target, ...subtypes].map((at) => {
      const n = this.namedLocationName(at)!;
      return { at, target: at, targetName: n, name: n, type: this.lowerTarget(at, n).type };
    });
    const variants = this.tagVariants(disc, property, candidates);
    this.ctx.named.set(id, {
      kind: "union",
      id,
      name,
      scope,
      anonymous: true,
      doc: `${baseName} or a schema that extends it (allOf); the discriminator picks which.`,
      origin: this.ctx.origin(disc, `openapi discriminator ${disc.pointer}`),
      variants,
      discriminator: { kind: "property", property },
    });
    return this.refTo(id);
  }

  /** Component schemas that extend `base` through `allOf: [$ref base, ...]`, directly or through one another. */
  private extensionsOf(base: Loc): Loc[] {
    const files = [...new Set([this.ctx.files.files[0]!, base.file])];
    const schemas = files.flatMap((file) => {
      const root: Loc = { file, pointer: "#", value: file.value };
      const components = isObject(root.value) ? child(root, "components") : undefined;
      return entries(components && child(components, "schemas"));
    });
    const key = (l: Loc) => `${l.file.path}${l.pointer}`;
    const found = new Map<string, Loc>();
    const parents = new Set([key(base)]);
    for (let grew = true; grew; ) {
      grew = false;
      for (const [, s] of schemas) {
        if (found.has(key(s)) || parents.has(key(s))) continue;
        const extendsOne = items(child(s, "allOf")).some((part) => {
          const t = has(part, "$ref") ? this.ctx.recover(() => this.ctx.resolveRef(part)) : undefined;
          return t !== undefined && parents.has(key(t));
        });
        if (extendsOne) {
          found.set(key(s), s);
          parents.add(key(s));
          grew = true;
        }
      }
    }
    return [...found.values()];
  }

  /** Mapping values are a schema name ("Cat") or a $ref string ("#/components/schemas/Cat", "cat.yaml"). */
  private mappingTarget(at: Loc, value: string): Loc {
    if (/^[A-Za-z0-9_.-]+$/.test(value) && !/\.(ya?ml|json)$/i.test(value)) {
      const root: Loc = { file: at.file, pointer: "#", value: at.file.value };
      const components = child(root, "components");
      const target = components && child(components, "schemas") && child(child(components, "schemas")!, value);
      if (!target) return this.ctx.fail(at, `unknown discriminator mapping target '${value}'`);
      return target;
    }
    return this.ctx.files.resolve(value, at);
  }

  // ---------------------------------------------------------------------------------------------------------------
  // Shapes and inline expressions

  private shapeOf(loc: Loc): Shape {
    const s = loc.value;
    // `true` allows anything; `false` allows nothing, which its checks say (the type stays `unknown`).
    if (s === true || s === false) return { k: "any" };
    if (!isObject(s)) return this.ctx.fail(loc, "a schema must be an object");
    // Degrade, never refuse: the schema is lowered without the keyword (its type is wider than the spec's) and the
    // run says so, located at the keyword.
    for (const keyword of UNSUPPORTED_KEYWORDS) {
      const at = child(loc, keyword);
      if (at && !(keyword === "$dynamicRef" && this.ctx.resolveRef(loc))) this.ctx.warn(at, `schema keyword "${keyword}" is not checked: the generated type and validator accept more than the schema allows`);
    }
    const target = this.ctx.resolveRef(loc);
    if (target) {
      // 3.1: the other keywords apply too. Object keywords make this an object that has both the reference's
      // properties and its own (flattened, see buildRecord); scalar constraints ride on the reference as facets,
      // anything else is checked beside it (checksOf).
      if (this.ctx.version === "3.1" && REF_RECORD_SIBLINGS.some((k) => has(loc, k))) return { k: "record" };
      return { k: "ref", target };
    }
    if (has(loc, "const") && !isStructured(s["const"])) return { k: "literal", value: s["const"] as string | number | boolean | null };
    if (has(loc, "enum") && !isOpenEnum(loc)) {
      const e = s["enum"];
      if (!Array.isArray(e)) return this.ctx.fail(child(loc, "enum")!, "enum must be an array");
      // An empty enum, or one with array or object values, is checked by deep equality (checksOf).
      if (e.length > 0 && !e.some(isStructured)) return e.every((v) => v === null) ? { k: "literal", value: null } : { k: "enum" };
    }
    const allOf = allOfParts(loc);
    if (!has(loc, "properties") && !has(loc, "additionalProperties")) {
      // `allOf: [$ref X, {description: ...}]` or `allOf: [$ref X, {maxLength: 16}]` is X (with the extra facets),
      // not an object made of X's properties: that would turn a string or an array into a record.
      // `required` next to `allOf: [$ref Record]` makes a record of its own (Record with those properties required).
      const [only] = allOf.typed;
      const narrows = allOf.layered.length > 0 || has(loc, "required");
      if (allOf.typed.length === 1 && (!narrows || !this.isRecordLike(only!))) return { k: "unwrap", inner: only!, layered: allOf.layered, via: "allOf" };
      if (allOf.typed.length === 0 && allOf.layered.length === 1) return { k: "unwrap", inner: allOf.layered[0]!, via: "allOf" };
    }
    if (allOf.typed.length + allOf.layered.length > 0) {
      // An object made of its parts' properties only when some part (or the schema) declares an object; parts that
      // only constrain (`allOf: [{maximum: 30}, {minimum: 20}]`) are checks on the rest of the schema.
      const objectish = has(loc, "properties") || has(loc, "additionalProperties") ||
        allOf.typed.some((p) => OBJECT_PART_KEYWORDS.some((k) => has(p, k))) || allOf.typed.some((p) => this.isRecordLike(p));
      if (objectish) {
        // JSON Schema: if no part says `type`, the object keywords of the parts constrain objects only.
        if (this.ctx.options.jsonSchema === "exact" && !this.typedSomewhere(loc)) return { k: "untyped", of: "object" };
        return { k: "record" };
      }
      return { k: "unwrap", inner: restOf(loc, (k) => k !== "allOf" && !CHECK_KEYWORDS.has(k)), via: "rest" };
    }
    const unionKey = has(loc, "oneOf") ? "oneOf" : has(loc, "anyOf") ? "anyOf" : undefined;
    if (unionKey) {
      const variants = items(child(loc, unionKey)).filter((v) => !this.isNullSchema(v));
      if (variants.length === 0) return { k: "literal", value: null };
      if (variants.length === 1 && !has(loc, "discriminator")) return { k: "unwrap", inner: variants[0]!, via: unionKey };
      return { k: "union", variants, exclusive: unionKey === "oneOf" };
    }
    const types = this.typesOf(loc);
    const nonNull = types.filter((t) => t !== "null");
    if (nonNull.length > 1) return { k: "multi", types: nonNull };
    if (nonNull.length === 1) {
      const t = nonNull[0]!;
      return t === "object" && this.isRecordObject(loc) ? { k: "record" } : { k: "typed", type: t };
    }
    if (types.length === 1) return { k: "literal", value: null }; // `type: "null"`
    // No type: JSON Schema's reading (object keywords constrain objects only), or the obvious OpenAPI one.
    if (this.ctx.options.jsonSchema === "exact") {
      if (has(loc, "properties") || has(loc, "additionalProperties")) return { k: "untyped", of: "object" };
      if (has(loc, "items")) return { k: "untyped", of: "array" };
    }
    if (has(loc, "properties")) return { k: "record" };
    if (has(loc, "additionalProperties")) return this.isRecordObject(loc) ? { k: "record" } : { k: "typed", type: "object" };
    if (has(loc, "items")) return { k: "typed", type: "array" };
    return { k: "any" };
  }

  // ---------------------------------------------------------------------------------------------------------------
  // Checks: what a schema says that its type cannot

  /**
   * The checks of the schema at `loc` that its shape does not express (NamedType.checks): applicators (`not`, `if`,
   * `oneOf`/`anyOf`/`allOf` the shape did not take in), object and array keywords beyond a record's or list's
   * shape, deep-equality `enum`/`const`, and keywords written beside a `$ref`, `oneOf`/`anyOf` or `allOf: [x]`.
   */
  private checksOf(loc: Loc, shape: Shape, hint: string, inline = false): ValueCheck[] {
    if (loc.value === false) return [{ kind: "never" }];
    const s = loc.value;
    if (!isObject(s)) return [];
    // OpenAPI 3.0: whatever is written beside a $ref is ignored (as the shape ignores it).
    if (this.ctx.version !== "3.1" && has(loc, "$ref")) return [];
    const out: ValueCheck[] = [];
    const sub = (at: Loc, suffix: string): TypeExpr => this.typeOnly(at, `${hint}${suffix}`);
    const at = (key: string): Loc | undefined => child(loc, key);

    if (has(loc, "const") && isStructured(s["const"])) out.push({ kind: "equals", values: [s["const"] as JsonData] });
    const e = s["enum"];
    if (Array.isArray(e) && (e.length === 0 || e.some(isStructured))) out.push({ kind: "equals", values: e as JsonData[] });

    const not = at("not");
    if (not) out.push({ kind: "not", type: sub(not, "Not") });
    const cond = at("if");
    if (cond) {
      const then = at("then");
      const otherwise = at("else");
      if (then || otherwise) {
        out.push({
          kind: "conditional",
          if: sub(cond, "If"),
          ...(then ? { then: sub(then, "Then") } : {}),
          ...(otherwise ? { else: sub(otherwise, "Else") } : {}),
        });
      }
    }

    // allOf parts the shape did not take in: all of them, or (for a record) the parts that say more than properties.
    const allOfLoc = at("allOf");
    if (allOfLoc && !(shape.k === "unwrap" && shape.via === "allOf")) {
      for (const [i, part] of items(allOfLoc).entries()) {
        // The record takes them in (for an untyped schema, the record its union holds: the parts say no type).
        if ((shape.k === "record" || shape.k === "untyped") && this.recordAbsorbs(part)) continue;
        out.push({ kind: "matches", type: sub(part, `AllOf${i + 1}`) });
      }
    } else if (allOfLoc && shape.k === "unwrap") {
      // `allOf: [x]` taken as x: the other parts must still hold unless they only annotate or constrain scalars.
      for (const [i, part] of items(allOfLoc).entries()) {
        const taken = [shape.inner, ...(shape.layered ?? [])].some((t) => t.pointer === part.pointer && t.file === part.file);
        if (taken || !isObject(part.value)) continue;
        if (Object.keys(part.value).every((k) => k.startsWith("x-") || ANNOTATIONS.has(k))) continue;
        out.push({ kind: "matches", type: sub(part, `AllOf${i + 1}`) });
      }
    }
    // A 3.1 `$ref` beside properties made a record of the target's properties and the schema's own: whatever else
    // the target says (its own checks) must hold as well.
    const refTarget = shape.k === "record" && this.ctx.version === "3.1" ? this.ctx.resolveRef(loc) : undefined;
    if (refTarget && !this.recordAbsorbs(refTarget)) {
      const target = this.lowerTarget(refTarget, `${hint}Ref`);
      out.push({ kind: "matches", type: target.nullable && !isNullType(target.type) ? { kind: "union", of: [target.type, NULL_LITERAL] } : target.type });
    }
    for (const key of ["oneOf", "anyOf"] as const) {
      const list = at(key);
      if (!list) continue;
      const firstKey = has(loc, "oneOf") ? "oneOf" : "anyOf";
      const nullFromUnion = shape.k === "literal" && shape.value === null && !has(loc, "const") && !has(loc, "enum") && !has(loc, "type");
      // An inline union (no discriminator) only says "one of these": a oneOf whose variants may overlap is checked too.
      const unionTakes = shape.k === "union" && (!inline || key === "anyOf" || has(loc, "discriminator") || this.disjoint(shape.variants, hint));
      const taken = key === firstKey && (unionTakes || (shape.k === "unwrap" && shape.via === key) || nullFromUnion);
      if (taken) continue;
      const atMostOne = key === "oneOf" && shape.k === "union" && key === firstKey;
      out.push({ kind: key, of: items(list).map((v, i) => this.typeOnly(v, variantHint(v, hint, i))), ...(atMostOne ? { atMostOne } : {}) });
    }

    const object = this.objectCheck(loc, shape, hint);
    if (object) out.push(object);
    const array = this.arrayCheck(loc, shape, hint);
    if (array) out.push(array);
    for (const of of ["properties", "items"] as const) {
      const unevaluated = this.unevaluatedCheck(loc, of, hint);
      if (unevaluated) out.push(unevaluated);
    }

    // Keywords beside a $ref (3.1), a oneOf/anyOf or `allOf: [x]` that the shape did not take in: the rest of the
    // schema is a type the value must match as well.
    const besides = shape.k === "union" || (shape.k === "unwrap" && shape.via !== "rest") || (shape.k === "ref" && this.ctx.version === "3.1");
    if (besides) {
      const facetsTaken = shape.k !== "union";
      const keep = (k: string): boolean =>
        !k.startsWith("x-") && !ANNOTATIONS.has(k) && !STRUCTURAL.has(k) && !CHECK_KEYWORDS.has(k) && !(facetsTaken && SCALAR_FACETS.has(k));
      const restKeys = Object.keys(s).filter(keep);
      const alternatives = shape.k === "union" ? shape.variants : shape.k === "unwrap" ? [shape.inner] : shape.k === "ref" ? [shape.target] : [];
      if (restKeys.length > 0 && !this.typeImplied(loc, restKeys, alternatives)) {
        out.push({ kind: "matches", type: this.typeOnly(restOf(loc, keep), `${hint}Rest`) });
      }
    }
    return out;
  }

  /** Whether no value can match two of these variants: each admits JSON kinds no other one does. */
  private disjoint(variants: readonly Loc[], hint: string): boolean {
    const seen = new Set<string>();
    for (const [i, v] of variants.entries()) {
      const kinds = jsonKindsOf(this.ctx, this.typeOnly(v, variantHint(v, hint, i)));
      if (!kinds) return false;
      for (const k of kinds) {
        // integer and number are both "number" here, and overlap.
        if (seen.has(k)) return false;
        seen.add(k);
      }
    }
    return true;
  }

  /** A rest of only `type` that every alternative declares already adds nothing (`{type: object, oneOf: [A, B]}`). */
  private typeImplied(loc: Loc, restKeys: readonly string[], alternatives: readonly Loc[]): boolean {
    if (restKeys.length !== 1 || restKeys[0] !== "type") return false;
    const wanted = this.typesOf(loc).filter((t) => t !== "null");
    if (wanted.length !== 1) return false;
    return alternatives.length > 0 && alternatives.every((a) => {
      const final = this.ctx.deref(a);
      const types = this.typesOf(final).filter((t) => t !== "null");
      if (types.length === 1 && (types[0] === wanted[0] || (wanted[0] === "number" && types[0] === "integer"))) return true;
      return wanted[0] === "object" && this.isRecordLike(final);
    });
  }

  /** Whether a record takes in everything an allOf part says (its properties, required, additionalProperties). */
  private recordAbsorbs(part: Loc, depth = 0): boolean {
    if (!isObject(part.value) || depth > 16) return false;
    if (this.separateAdditional.has(`${part.file.path}${part.pointer}`)) return false;
    for (const k of Object.keys(part.value)) {
      if (k.startsWith("x-") || ANNOTATIONS.has(k) || STRUCTURAL.has(k) || RECORD_KEYWORDS.has(k)) continue;
      return false;
    }
    const target = this.ctx.resolveRef(part);
    if (target && !this.recordAbsorbs(target, depth + 1)) return false;
    return items(child(part, "allOf")).every((p) => this.recordAbsorbs(p, depth + 1));
  }

  private objectCheck(loc: Loc, shape: Shape, hint: string): ObjectCheck | undefined {
    const c: { -readonly [K in keyof ObjectCheck]: ObjectCheck[K] } = { kind: "object" };
    const minProperties = this.count(loc, "minProperties");
    if (minProperties !== undefined && minProperties > 0) c.minProperties = minProperties;
    const maxProperties = this.count(loc, "maxProperties");
    if (maxProperties !== undefined) c.maxProperties = maxProperties;
    if (shape.k !== "record" && !(shape.k === "untyped" && shape.of === "object" && this.untypedRecord(loc))) {
      const required = items(child(loc, "required")).map((r) => r.value).filter((r): r is string => typeof r === "string");
      if (required.length > 0) c.required = required;
    }
    const names = child(loc, "propertyNames");
    if (names) c.propertyNames = this.typeOnly(names, `${hint}PropertyName`);
    let dropped = false;
    const patterns = entries(child(loc, "patternProperties")).flatMap(([pattern, p]) => {
      const checked = unicodePattern(pattern);
      if ("error" in checked) {
        // Degrade, never refuse: without the pattern no key can be said to match it, so neither it nor the
        // additionalProperties beside it (which applies to the keys it does not match) is checked.
        this.ctx.warn(p, `patternProperties key ${JSON.stringify(pattern)} is not a JavaScript regular expression in any reading specforge knows (${checked.error}): it is not checked, nor is additionalProperties beside it`);
        dropped = true;
        return [];
      }
      const slow = backtrackingReason(checked.source);
      if (slow) this.ctx.warn(p, slow);
      return [{ pattern: checked.source, type: this.typeOnly(p, `${hint}Pattern`) }];
    });
    if (patterns.length > 0) c.patternProperties = patterns;
    if (patterns.length > 0 || this.ownSeparateAdditional.has(`${loc.file.path}${loc.pointer}`)) {
      const ap = child(loc, "additionalProperties");
      if (ap && ap.value !== true && !dropped) c.additional = { known: entries(child(loc, "properties")).map(([k]) => k), type: this.typeOnly(ap, `${hint}Value`) };
    }
    const dependentRequired: { key: string; required: string[] }[] = [];
    const dependentSchemas: { key: string; type: TypeExpr }[] = [];
    for (const [key, d] of [...entries(child(loc, "dependentRequired")), ...entries(child(loc, "dependencies"))]) {
      if (Array.isArray(d.value)) dependentRequired.push({ key, required: d.value.filter((r): r is string => typeof r === "string") });
      else dependentSchemas.push({ key, type: this.typeOnly(d, `${hint}${pascalCase(key)}Dependency`) });
    }
    for (const [key, d] of entries(child(loc, "dependentSchemas"))) dependentSchemas.push({ key, type: this.typeOnly(d, `${hint}${pascalCase(key)}Dependency`) });
    if (dependentRequired.length > 0) c.dependentRequired = dependentRequired;
    if (dependentSchemas.length > 0) c.dependentSchemas = dependentSchemas;
    return Object.keys(c).length > 1 ? c : undefined;
  }

  private arrayCheck(loc: Loc, shape: Shape, hint: string): ArrayCheck | undefined {
    const c: { -readonly [K in keyof ArrayCheck]: ArrayCheck[K] } = { kind: "array" };
    const listShape = (shape.k === "typed" && shape.type === "array") || (shape.k === "multi" && shape.types.includes("array")) ||
      (shape.k === "untyped" && shape.of === "array");
    if (!listShape) {
      const f = listFacetsOf(this.ctx, loc);
      if (f?.minItems !== undefined && f.minItems > 0) c.minItems = f.minItems;
      if (f?.maxItems !== undefined) c.maxItems = f.maxItems;
      if (f?.uniqueItems) c.uniqueItems = true;
    }
    const itemsLoc = child(loc, "items");
    const prefixLoc = child(loc, "prefixItems") ?? (itemsLoc && Array.isArray(itemsLoc.value) ? itemsLoc : undefined);
    if (prefixLoc) {
      const prefix = items(prefixLoc).map((p, i) => this.typeOnly(p, `${hint}Item${i + 1}`));
      const restLoc = prefixLoc === itemsLoc ? child(loc, "additionalItems") : itemsLoc;
      if (restLoc?.value === false) c.maxItems = Math.min(c.maxItems ?? prefix.length, prefix.length);
      else if (restLoc && restLoc.value !== true) c.rest = this.typeOnly(restLoc, `${hint}Item`);
      if (prefix.length > 0) c.prefix = prefix;
    }
    const contains = child(loc, "contains");
    if (contains) {
      const min = this.count(loc, "minContains") ?? 1;
      const max = this.count(loc, "maxContains");
      c.contains = { type: this.typeOnly(contains, `${hint}Contains`), min, ...(max !== undefined ? { max } : {}) };
    }
    return Object.keys(c).length > 1 ? c : undefined;
  }

  /**
   * `unevaluatedProperties` / `unevaluatedItems` of the schema at `loc`: what the schema evaluates (Evaluated, from the
   * schema as written) and what the rest must match. None when the keyword is absent, allows anything, or everything
   * is evaluated anyway (`additionalProperties` or `items` beside it).
   */
  private unevaluatedCheck(loc: Loc, of: "properties" | "items", hint: string): ValueCheck | undefined {
    const keyword = of === "properties" ? "unevaluatedProperties" : "unevaluatedItems";
    const at = child(loc, keyword);
    if (!at || at.value === true) return undefined;
    let evaluated: Evaluated;
    try {
      evaluated = this.evaluatedBy(loc, of, hint, { nodes: 0, path: new Set() }, false);
    } catch (e) {
      if (!(e instanceof TooManyEvaluations)) throw e;
      this.ctx.warn(at, `schema keyword "${keyword}" is not checked: it depends on more than ${MAX_EVALUATED_NODES} in-place subschema applications, so the generated type and validator accept more than the schema allows`);
      return undefined;
    }
    if (evaluated.all) return undefined;
    const allowed = at.value === false ? false : this.typeOnly(at, `${hint}Unevaluated${of === "properties" ? "Property" : "Item"}`);
    if (allowed !== false && allowed.kind === "scalar" && allowed.scalar === "any") return undefined;
    return { kind: "unevaluated", of, allowed, evaluated };
  }

  /**
   * What the schema at `loc` evaluates of an object's properties (an array's items), assuming it holds (see
   * Evaluated). `nested`: a subschema, whose own unevaluated keyword evaluates everything. `path`: the schemas being
   * read, so an in-place `$ref` cycle (a schema that applies itself) ends.
   */
  private evaluatedBy(loc: Loc, of: "properties" | "items", hint: string, state: { nodes: number; path: Set<string> }, nested: boolean): Evaluated {
    if (++state.nodes > MAX_EVALUATED_NODES) throw new TooManyEvaluations();
    if (!isObject(loc.value)) return {};
    const key = `${loc.file.path}${loc.pointer}`;
    if (state.path.has(key)) return {};
    if (nested && has(loc, of === "properties" ? "unevaluatedProperties" : "unevaluatedItems")) return { all: true };
    state.path.add(key);
    try {
      const acc: MutableEvaluated = { all: false, properties: [], patterns: [], prefix: 0, contains: [], when: [] };
      const target = this.ctx.resolveRef(loc);
      if (target) {
        mergeEvaluated(acc, this.evaluatedBy(target, of, this.namedLocationName(target) ?? `${hint}Ref`, state, true));
        // OpenAPI 3.0: whatever is written beside a $ref is ignored.
        if (this.ctx.version !== "3.1") return finishEvaluated(acc);
      }
      if (of === "properties") {
        for (const [name] of entries(child(loc, "properties"))) if (!acc.properties.includes(name)) acc.properties.push(name);
        for (const [pattern, p] of entries(child(loc, "patternProperties"))) {
          const checked = unicodePattern(pattern);
          if ("error" in checked) this.ctx.fail(p, `patternProperties key ${JSON.stringify(pattern)} is not a valid regular expression: ${checked.error}`);
          if (!acc.patterns.includes(checked.source)) acc.patterns.push(checked.source);
        }
        if (has(loc, "additionalProperties")) acc.all = true;
      } else {
        const itemsLoc = child(loc, "items");
        const prefixLoc = child(loc, "prefixItems") ?? (itemsLoc && Array.isArray(itemsLoc.value) ? itemsLoc : undefined);
        if (prefixLoc) acc.prefix = Math.max(acc.prefix, items(prefixLoc).length);
        if (prefixLoc === itemsLoc ? has(loc, "additionalItems") : itemsLoc !== undefined) acc.all = true;
        const contains = child(loc, "contains");
        if (contains) acc.contains.push(this.typeOnly(contains, `${hint}Contains`));
      }
      for (const [i, part] of items(child(loc, "allOf")).entries()) mergeEvaluated(acc, this.evaluatedBy(part, of, `${hint}AllOf${i + 1}`, state, true));
      const when = (type: TypeExpr, then: Evaluated, otherwise?: Evaluated): void => {
        const other = otherwise && !isEmptyEvaluated(otherwise) ? otherwise : undefined;
        if (isEmptyEvaluated(then) && !other) return;
        // A subschema that allows anything holds for every value: what it evaluates always counts.
        if (type.kind === "scalar" && type.scalar === "any") mergeEvaluated(acc, then);
        else acc.when.push({ kind: "matches", type, then, ...(other ? { else: other } : {}) });
      };
      for (const list of ["anyOf", "oneOf"] as const) {
        for (const [i, branch] of items(child(loc, list)).entries()) {
          const then = this.evaluatedBy(branch, of, variantHint(branch, hint, i), state, true);
          if (!isEmptyEvaluated(then)) when(this.typeOnly(branch, variantHint(branch, hint, i)), then);
        }
      }
      const cond = child(loc, "if");
      if (cond) {
        const thenLoc = child(loc, "then");
        const elseLoc = child(loc, "else");
        const then: MutableEvaluated = { all: false, properties: [], patterns: [], prefix: 0, contains: [], when: [] };
        mergeEvaluated(then, this.evaluatedBy(cond, of, `${hint}If`, state, true));
        if (thenLoc) mergeEvaluated(then, this.evaluatedBy(thenLoc, of, `${hint}Then`, state, true));
        const otherwise = elseLoc ? this.evaluatedBy(elseLoc, of, `${hint}Else`, state, true) : undefined;
        const thenDone = finishEvaluated(then);
        if (!isEmptyEvaluated(thenDone) || (otherwise && !isEmptyEvaluated(otherwise))) when(this.typeOnly(cond, `${hint}If`), thenDone, otherwise);
      }
      if (of === "properties") {
        for (const [name, d] of entries(child(loc, "dependentSchemas"))) {
          const then = this.evaluatedBy(d, of, `${hint}${pascalCase(name)}Dependency`, state, true);
          if (!isEmptyEvaluated(then)) acc.when.push({ kind: "present", key: name, then });
        }
      }
      return finishEvaluated(acc);
    } finally {
      state.path.delete(key);
    }
  }

  /** A non-negative integer keyword. */
  private count(loc: Loc, key: string): number | undefined {
    const c = child(loc, key);
    if (!c) return undefined;
    if (typeof c.value !== "number" || !Number.isInteger(c.value) || c.value < 0) return this.ctx.fail(c, `${key} must be a non-negative integer`);
    return c.value;
  }

  /** Whether the schema or an allOf part of it (through `$ref`s and nested allOf) declares a `type`. */
  private typedSomewhere(loc: Loc, depth = 0): boolean {
    if (has(loc, "type")) return true;
    if (depth > 32) return false;
    const target = this.ctx.resolveRef(loc);
    if (target && this.typedSomewhere(target, depth + 1)) return true;
    return items(child(loc, "allOf")).some((p) => this.typedSomewhere(p, depth + 1));
  }

  /** An untyped object schema read exactly whose object part is a record (own properties, or allOf parts'). */
  private untypedRecord(loc: Loc): boolean {
    return this.isRecordObject(loc) || has(loc, "allOf");
  }

  /** An object schema that is a record (has properties, or forbids extra keys) rather than a map. */
  private isRecordObject(loc: Loc): boolean {
    // Beside patternProperties, additionalProperties is a check on the keys no pattern matches (objectCheck).
    return has(loc, "properties") || (child(loc, "additionalProperties")?.value === false && !has(loc, "patternProperties"));
  }

  /** Whether a `$ref` target (followed through further refs) would lower to a record, for allOf inheritance. */
  private isRecordLike(loc: Loc, depth = 0): boolean {
    const final = this.ctx.deref(loc);
    // shapeOf asks this of allOf parts, and a part may lead back here (A: allOf [$ref B], B: allOf [$ref A]): a schema
    // already being asked about is not known to be a record (the cycle itself is reported by rejectCycles).
    const key = `${final.file.path}${final.pointer}`;
    if (this.askingRecordLike.has(key)) return false;
    this.askingRecordLike.add(key);
    try {
      const shape = this.shapeOf(final);
      if (shape.k === "unwrap" && !shape.layered?.length && depth < 32) return this.isRecordLike(shape.inner, depth + 1);
      return shape.k === "record";
    } finally {
      this.askingRecordLike.delete(key);
    }
  }

  private typesOf(loc: Loc): string[] {
    const t = child(loc, "type");
    if (!t) return [];
    const list = Array.isArray(t.value) ? t.value : [t.value];
    for (const v of list) if (typeof v !== "string" || !JSON_TYPES.has(v)) this.ctx.fail(t, `unknown schema type ${JSON.stringify(v)}`);
    return list as string[];
  }

  /** One JSON type of the schema at `loc` (a schema with a type array is lowered once per type). */
  private lowerTyped(loc: Loc, type: string, hint: string): TypeExpr {
    switch (type) {
      case "object": {
        if (this.isRecordObject(loc)) return this.refTo(this.ensureNamed(loc, hint, true));
        const ap = has(loc, "patternProperties") ? undefined : child(loc, "additionalProperties");
        const value = !ap || ap.value === true ? ANY : this.typeOnly(ap, `${hint}Value`);
        return { kind: "map", key: STRING, value };
      }
      case "array": {
        // A tuple (`prefixItems`, or `items: [...]`) is a list of anything here; its items are checked (arrayCheck).
        const itemsLoc = has(loc, "prefixItems") ? undefined : child(loc, "items");
        const of = itemsLoc && !Array.isArray(itemsLoc.value) ? this.typeOnly(itemsLoc, `${hint}Item`) : ANY;
        const facets = listFacetsOf(this.ctx, loc);
        return { kind: "list", of, ...(facets ? { facets } : {}) };
      }
      case "null":
        return NULL_LITERAL;
      default:
        return this.scalarFor(loc, type);
    }
  }

  private scalarFor(loc: Loc, type: string): ScalarType {
    const format = str(loc, "format");
    switch (type) {
      case "string":
        switch (format) {
          case "date": return { kind: "scalar", scalar: "date" };
          case "date-time": return { kind: "scalar", scalar: "dateTime" };
          case "time": return { kind: "scalar", scalar: "time" };
          case "duration": return { kind: "scalar", scalar: "duration" };
          case "byte": case "binary": return { kind: "scalar", scalar: "bytes" };
          case "uri": return { kind: "scalar", scalar: "anyURI" };
          default: return STRING;
        }
      case "integer":
        // Without a format a JSON integer has no fixed width: a double that must be whole (validators check it).
        if (format === "int32") return { kind: "scalar", scalar: "int32" };
        if (format === "int64") return { kind: "scalar", scalar: "int64" };
        return { kind: "scalar", scalar: "double", builtin: "integer" };
      case "number":
        return { kind: "scalar", scalar: format === "float" ? "float" : "double" };
      case "boolean":
        return { kind: "scalar", scalar: "boolean" };
      default:
        return ANY;
    }
  }

  private anyOrNull(loc: Loc): TypeExpr {
    return this.typesOf(loc).includes("null") ? NULL_LITERAL : ANY;
  }

  /** A `$ref` target: named locations become a reference, anything else is lowered in place. */
  private lowerTarget(target: Loc, hint: string): Lowered {
    const name = this.namedLocationName(target);
    if (name !== undefined) {
      const id = this.ensureNamed(target, name, false);
      return { type: this.refTo(id), nullable: this.ctx.namedNullable.get(id) ?? false };
    }
    // A target that declares a type of its own (an object, enum or discriminated union met before) is already
    // registered, possibly still being built: referring to it is what makes recursion through it terminate.
    const known = this.ctx.typeId(target);
    if (this.ctx.named.has(known)) return { type: this.refTo(known), nullable: this.ctx.namedNullable.get(known) ?? false };
    const key = `${target.file.path}${target.pointer}`;
    if (this.expanding.has(key)) return this.ctx.fail(target, "recursive $ref cycle through schemas that are neither components nor objects");
    this.expanding.add(key);
    try {
      return this.lower(target, hint);
    } finally {
      this.expanding.delete(key);
    }
  }

  /**
   * Schemas that are declared under a name: components, `$defs`/`definitions`, whole non-entry files, and the
   * top-level entries of a non-entry file that is not itself an OpenAPI document (a file of definitions, such as
   * DigitalOcean's `definitions.yml#/apiAgent`: the key is the schema's name there, as a component's is).
   */
  private namedLocationName(loc: Loc): string | undefined {
    if (/^#\/(?:components\/schemas|\$defs|definitions)\/[^/]+$/.test(loc.pointer)) return segmentsOf(loc.pointer).at(-1);
    if (loc.file === this.ctx.files.files[0]) return undefined;
    if (loc.pointer === "#") return str(loc, "title") ?? pascalCase(path.basename(loc.file.path).replace(/\.[^.]*$/, ""));
    const root = loc.file.value;
    if (/^#\/[^/]+$/.test(loc.pointer) && isObject(root) && !has({ ...loc, value: root }, "openapi")) return segmentsOf(loc.pointer)[0];
    return undefined;
  }

  /**
   * Facets that can apply to a value of `type`. In JSON Schema string keywords (minLength, maxLength, pattern) apply
   * to strings only and number keywords to numbers only: beside a `$ref` to an object, an array or an enum of
   * numbers they are no-ops (3.1 allows such siblings), and keeping them would give a check that narrows to nothing.
   * `target`: the schema `type` comes from, to tell an object still being built (recursion) from an unknown type.
   */
  private applicable(type: TypeExpr, facets: Facets | undefined, target: Loc): Facets | undefined {
    if (!facets) return undefined;
    const kinds = jsonKindsOf(this.ctx, type) ?? (this.isRecordLike(target) ? new Set(["object"]) : undefined);
    if (!kinds) return facets;
    const f: { -readonly [K in keyof Facets]: Facets[K] } = { ...facets };
    if (!kinds.has("string")) for (const k of ["minLength", "maxLength", "patterns", "length"] as const) delete f[k];
    if (!kinds.has("number")) for (const k of ["minInclusive", "maxInclusive", "minExclusive", "maxExclusive", "multipleOf"] as const) delete f[k];
    if (!kinds.has("string") && !kinds.has("number")) delete f.format;
    return Object.keys(f).length > 0 ? f : undefined;
  }

  /** Scalar constraints written beside a 3.1 `$ref` (`maxLength`, `pattern`, `minimum`...): they apply as well. */
  private refSiblingFacets(loc: Loc): Facets | undefined {
    return this.ctx.version === "3.1" ? facetsOf(this.ctx, loc) : undefined;
  }

  private refTo(id: TypeId): TypeExpr {
    return { kind: "ref", id };
  }

  // ---------------------------------------------------------------------------------------------------------------
  // Nullability

  private nullableOf(loc: Loc, seen = new Set<string>()): boolean {
    const s = loc.value;
    if (!isObject(s)) return false;
    if (s["nullable"] === true) return true; // OpenAPI 3.0
    const t = s["type"];
    if (t === "null" || (Array.isArray(t) && t.includes("null"))) return true; // 3.1 type arrays
    if (Array.isArray(s["enum"]) && s["enum"].includes(null)) return true;
    if (has(loc, "const") && s["const"] === null) return true;
    const union = child(loc, "oneOf") ?? child(loc, "anyOf");
    if (union && items(union).some((v) => this.isNullSchema(v) || this.nullableOf(v, seen))) return true;
    const key = `${loc.file.path}${loc.pointer}`;
    if (seen.has(key)) return false;
    seen.add(key);
    const target = this.ctx.resolveRef(loc);
    if (target) return this.nullableOf(target, seen);
    const { typed } = allOfParts(loc);
    return typed.length === 1 && this.nullableOf(typed[0]!, seen);
  }

  private isNullSchema(loc: Loc): boolean {
    const s = loc.value;
    if (!isObject(s)) return false;
    const t = s["type"];
    if (t === "null" || (Array.isArray(t) && t.length === 1 && t[0] === "null")) return true;
    return Array.isArray(s["enum"]) && s["enum"].length > 0 && s["enum"].every((v) => v === null);
  }
}

/** Thrown when an unevaluated keyword depends on more than MAX_EVALUATED_NODES subschema applications. */
class TooManyEvaluations extends Error {}

interface MutableEvaluated {
  all: boolean;
  properties: string[];
  patterns: string[];
  prefix: number;
  contains: TypeExpr[];
  when: EvaluatedWhen[];
}

/** Add what `e` evaluates to `acc` (an allOf part or `$ref` target: it holds whenever the schema does). */
function mergeEvaluated(acc: MutableEvaluated, e: Evaluated): void {
  if (e.all) acc.all = true;
  for (const p of e.properties ?? []) if (!acc.properties.includes(p)) acc.properties.push(p);
  for (const p of e.patterns ?? []) if (!acc.patterns.includes(p)) acc.patterns.push(p);
  acc.prefix = Math.max(acc.prefix, e.prefix ?? 0);
  acc.contains.push(...(e.contains ?? []));
  acc.when.push(...(e.when ?? []));
}

/** The Evaluated without its empty parts (everything else is moot when it evaluates all). */
function finishEvaluated(acc: MutableEvaluated): Evaluated {
  if (acc.all) return { all: true };
  return {
    ...(acc.properties.length > 0 ? { properties: acc.properties } : {}),
    ...(acc.patterns.length > 0 ? { patterns: acc.patterns } : {}),
    ...(acc.prefix > 0 ? { prefix: acc.prefix } : {}),
    ...(acc.contains.length > 0 ? { contains: acc.contains } : {}),
    ...(acc.when.length > 0 ? { when: acc.when } : {}),
  };
}

function isEmptyEvaluated(e: Evaluated): boolean {
  return !e.all && !e.properties && !e.patterns && !e.prefix && !e.contains && !e.when;
}

/** Keywords that describe a schema without constraining its values (`nullable` alone has no effect in 3.0.3). */
const ANNOTATIONS = new Set([
  "description", "title", "example", "examples", "deprecated", "readOnly", "writeOnly", "default", "externalDocs", "xml", "$comment", "nullable",
]);
/** Scalar constraints an allOf part can layer over another schema as facets. */
const SCALAR_FACETS = new Set(["minLength", "maxLength", "pattern", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf", "format"]);

/**
 * The `allOf` parts of a schema that matter: parts with nothing but annotations are left out, parts with nothing but
 * scalar constraints (`layered`) are kept apart from the parts that say what the value is (`typed`).
 */
function allOfParts(loc: Loc): { typed: Loc[]; layered: Loc[] } {
  const typed: Loc[] = [];
  const layered: Loc[] = [];
  for (const part of items(child(loc, "allOf"))) {
    const keys = isObject(part.value) ? Object.keys(part.value).filter((k) => !k.startsWith("x-") && !ANNOTATIONS.has(k)) : undefined;
    if (keys === undefined) typed.push(part);
    else if (keys.length === 0) continue;
    else if (keys.every((k) => SCALAR_FACETS.has(k))) layered.push(part);
    else typed.push(part);
  }
  return { typed, layered };
}

/** Keywords that make an allOf part an object's part (so the allOf is a record of the parts' properties). */
const OBJECT_PART_KEYWORDS = ["properties", "additionalProperties", "required"] as const;

/** An array or object JSON value (compared by deep equality, not as a TypeScript literal). */
function isStructured(v: unknown): boolean {
  return v !== null && typeof v === "object";
}

/**
 * The schema at `loc` with only the keywords `keep` accepts: a view located under the schema (its own pointer, so
 * its type id is its own), used for what must hold beside a shape that took the other keywords.
 */
function restOf(loc: Loc, keep: (key: string) => boolean): Loc {
  const value = isObject(loc.value) ? Object.fromEntries(Object.entries(loc.value).filter(([k]) => keep(k))) : {};
  return { file: loc.file, pointer: childPointer(loc.pointer, "$rest"), value: value as JsonObject };
}

function variantHint(v: Loc, parent: string, i: number): string {
  const title = str(v, "title");
  return `${parent}${title !== undefined ? pascalCase(title) : `Variant${i + 1}`}`;
}

function examplesField(examples: readonly Example[] | undefined): { examples?: readonly Example[] } {
  return examples ? { examples } : {};
}

function isNullType(t: TypeExpr): boolean {
  return t.kind === "literal" && t.value === null;
}

/** A property declaration with nothing but annotations (`{}`, `{description: ...}`): it allows any value. */
function onlyAnnotates(d: Loc): boolean {
  return isObject(d.value) && Object.keys(d.value).every((k) => k.startsWith("x-") || ANNOTATIONS.has(k));
}

/**
 * What the declarations of a merged property say beside its type: the last description and default, and readOnly,
 * writeOnly, deprecated when any of them says so.
 */
function annotationsOf(decls: readonly Loc[], field: Field): Partial<Field> {
  const doc = decls.map((d) => str(d, "description")).filter((x) => x !== undefined).at(-1);
  const dflt = decls.map((d) => child(d, "default")).filter((x) => x !== undefined).at(-1);
  const flag = (k: string) => decls.some((d) => bool(d, k) === true);
  const json = field.wire.json!;
  return {
    ...(doc !== undefined ? { doc } : {}),
    ...(dflt ? { default: JSON.stringify(dflt.value) } : {}),
    ...(flag("deprecated") ? { deprecated: true } : {}),
    wire: {
      ...field.wire,
      json: { ...json, ...(flag("readOnly") ? { readOnly: true } : {}), ...(flag("writeOnly") ? { writeOnly: true } : {}) },
    },
  };
}

/** Whether an enum value is of the JSON type the schema declares (values of arrays/objects are not judged here). */
function fitsType(value: string | number | boolean | null, type: string): boolean {
  switch (type) {
    case "string": return typeof value === "string";
    case "integer": return typeof value === "number" && Number.isInteger(value);
    case "number": return typeof value === "number";
    case "boolean": return typeof value === "boolean";
    default: return true;
  }
}

/**
 * AutoRest's `x-ms-enum: {modelAsString: true}`: the enum lists the values known today, and the service may send
 * others (Azure's "extensible enums"). Such a schema is its declared type (a string), its values only documentation:
 * checking them would refuse real answers, and a discriminator tag outside them is no contradiction.
 */
function isOpenEnum(loc: Loc): boolean {
  const ext = isObject(loc.value) ? loc.value["x-ms-enum"] : undefined;
  return isObject(ext) && ext["modelAsString"] === true;
}
