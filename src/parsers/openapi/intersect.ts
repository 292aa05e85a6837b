/**
 * `allOf` as intersection: a property declared in several parts of an `allOf` (a base's `id: {type: string}` and an
 * extension's `id: {type: string, format: uuid}`) is ONE property whose value must satisfy every declaration.
 *
 * The declarations are lowered one by one (each into a type expression plus facets) and met pairwise here:
 *  - the same type, or `any` beside anything: the other one;
 *  - scalars of one JSON type: the narrower kind (integer within number, int32 within int64, date-time within
 *    string); of different JSON types (string and integer): nothing;
 *  - a literal (`const`) or an enum beside another type: the values the other type admits (a new enum when that is
 *    a strict subset of both), nothing when none is left;
 *  - aliases are unfolded (the alias is kept when the other side adds only facets);
 *  - arrays and maps meet their items/values; two records meet property by property into a new record; a map of
 *    anything beside a record is the record; a union keeps the members that meet the other side;
 *  - facets: the tighter bound of each kind, every pattern.
 * What admits no value is a `Never` (the caller warns and declares an empty enum, TypeScript `never`). What the IR
 * cannot express exactly (two different formats, a named union beside a record) keeps one side and is reported as a
 * loss, which the caller turns into a located warning.
 */
import type { EnumType, EnumValue, Facets, Field, NamedType, RecordType, ScalarKind, ScalarType, TypeExpr } from "../../ir/model.js";
import type { LowerContext } from "./context.js";
import type { Loc } from "./files.js";

/** A type expression with the facets that ride on it where it is used (a field's, a parameter's). */
export interface Typed {
  readonly type: TypeExpr;
  readonly facets?: Facets | undefined;
}

/** The declarations admit no value at all; `reason` says why. */
export class Never {
  constructor(readonly reason: string) {}
}

const NUMBER_RANK: Partial<Record<ScalarKind, number>> = { int32: 0, int64: 1, integer: 2, float: 4, double: 5, decimal: 5 };
const STRING_KINDS = new Set<ScalarKind>(["string", "date", "dateTime", "time", "duration", "anyURI", "bytes", "QName"]);

export type JsonKind = "string" | "number" | "boolean" | "array" | "object" | "null";

export class Intersection {
  /** Constraints kept in a weaker form than the schema's (reported as warnings). */
  readonly losses: string[] = [];
  /** Constraints that contradict each other without making the whole value impossible (reported as warnings). */
  readonly contradictions: string[] = [];
  /** The ids of the types this intersection declared, in order. */
  readonly declared: string[] = [];
  private count = 0;

  /**
   * `at`: the declaration new types are located at; `idPrefix`: unique to the property being merged (new types get
   * `${idPrefix}&n` ids); `hint`: the source name of new types.
   */
  constructor(
    private readonly ctx: LowerContext,
    private readonly at: Loc,
    private readonly idPrefix: string,
    private readonly hint: string,
  ) {}

  meet(x: Typed, y: Typed): Typed | Never {
    const t = this.meetType(x.type, y.type);
    if (t instanceof Never) return t;
    const facets = this.meetFacets(this.meetFacets(x.facets, y.facets), t.facets);
    return { type: t.type, ...(facets ? { facets } : {}) };
  }

  /** A type no value has: an enum without values (TypeScript `never`; validators reject everything). */
  never(reason: string): TypeExpr {
    return this.declare((head) => ({
      kind: "enum",
      ...head,
      doc: `No value is valid: the declarations of this property in allOf contradict each other (${reason}).`,
      base: { kind: "scalar", scalar: "any" },
      values: [],
    }));
  }

  // ---------------------------------------------------------------------------------------------------------------

  private meetType(a: TypeExpr, b: TypeExpr): Typed | Never {
    if (sameExpr(a, b)) return { type: a };
    if (isAny(a)) return { type: b };
    if (isAny(b)) return { type: a };
    const na = this.named(a);
    const nb = this.named(b);
    if (na?.kind === "alias") return this.viaAlias(a, na.target, na.facets, b);
    if (nb?.kind === "alias") return this.viaAlias(b, nb.target, nb.facets, a);
    if (a.kind === "literal") return this.admits(b, a.value) ? { type: a } : new Never(`${JSON.stringify(a.value)} is not ${this.describe(b)}`);
    if (b.kind === "literal") return this.admits(a, b.value) ? { type: b } : new Never(`${JSON.stringify(b.value)} is not ${this.describe(a)}`);
    if (na?.kind === "enum") return this.meetEnum(a, na, b, nb);
    if (nb?.kind === "enum") return this.meetEnum(b, nb, a, na);
    if (a.kind === "union") return this.meetUnion(a.of, b);
    if (b.kind === "union") return this.meetUnion(b.of, a);
    const ka = jsonKindsOf(this.ctx, a);
    const kb = jsonKindsOf(this.ctx, b);
    if (ka && kb && ![...ka].some((k) => kb.has(k))) return new Never(`${this.describe(a)} and ${this.describe(b)}`);
    if (a.kind === "scalar" && b.kind === "scalar") return this.meetScalar(a, b);
    if (a.kind === "list" && b.kind === "list") {
      const of = this.meetType(a.of, b.of);
      if (of instanceof Never) return new Never(`array items: ${of.reason}`);
      const facets = this.meetFacets(a.facets, b.facets);
      return { type: { kind: "list", of: this.withFacets(of), ...(facets ? { facets } : {}) } };
    }
    if (a.kind === "map" && b.kind === "map") {
      const value = this.meetType(a.value, b.value);
      if (value instanceof Never) return new Never(`additional property values: ${value.reason}`);
      return { type: { kind: "map", key: a.key, value: this.withFacets(value) } };
    }
    if (a.kind === "map" && nb?.kind === "record") return this.mapAndRecord(a.value, b);
    if (b.kind === "map" && na?.kind === "record") return this.mapAndRecord(b.value, a);
    if (na?.kind === "record" && nb?.kind === "record") return this.meetRecords(na, nb);
    this.losses.push(`${this.describe(a)} and ${this.describe(b)} cannot be combined into one type: only ${this.describe(b)} is checked`);
    return { type: b };
  }

  private viaAlias(ref: TypeExpr, target: TypeExpr, facets: Facets | undefined, other: TypeExpr): Typed | Never {
    const r = this.meetType(target, other);
    if (r instanceof Never) return r;
    // The other side adds nothing but facets: keep the alias (its own facets are checked through it).
    if (sameExpr(r.type, target)) return { type: ref, ...(r.facets ? { facets: r.facets } : {}) };
    const merged = this.meetFacets(facets, r.facets);
    return { type: r.type, ...(merged ? { facets: merged } : {}) };
  }

  private meetScalar(a: ScalarType, b: ScalarType): Typed | Never {
    if (a.scalar === b.scalar) return { type: a.builtin !== undefined ? a : b };
    if (STRING_KINDS.has(a.scalar) && STRING_KINDS.has(b.scalar)) {
      if (a.scalar === "string") return { type: b };
      if (b.scalar === "string") return { type: a };
      this.losses.push(`${this.describe(a)} and ${this.describe(b)} both apply: only ${this.describe(b)} is checked`);
      return { type: b };
    }
    const ra = rank(a);
    const rb = rank(b);
    if (ra !== undefined && rb !== undefined) return { type: ra <= rb ? a : b };
    return new Never(`${this.describe(a)} and ${this.describe(b)}`);
  }

  /** An enum beside another type: the enum's values the other admits. */
  private meetEnum(ref: TypeExpr, e: EnumType, other: TypeExpr, otherNamed: NamedType | undefined): Typed | Never {
    const kept = e.values.filter((v) => this.admits(other, v.value));
    if (kept.length === 0) return new Never(`none of the values ${e.values.map((v) => JSON.stringify(v.value)).join(", ")} is ${this.describe(other)}`);
    if (kept.length === e.values.length) return { type: ref };
    if (otherNamed?.kind === "enum" && otherNamed.values.length === kept.length) return { type: other };
    if (kept.length === 1) return { type: { kind: "literal", value: kept[0]!.value } };
    const values: EnumValue[] = kept.map((v) => ({ ...v }));
    return { type: this.declare((head) => ({ kind: "enum", ...head, base: e.base, values })) };
  }

  private meetUnion(members: readonly TypeExpr[], other: TypeExpr): Typed | Never {
    const met: TypeExpr[] = [];
    const reasons: string[] = [];
    for (const m of members) {
      const r = this.meetType(m, other);
      if (r instanceof Never) reasons.push(r.reason);
      else if (!met.some((x) => sameExpr(x, r.type))) met.push(this.withFacets(r));
    }
    if (met.length === 0) return new Never(reasons.join("; "));
    return { type: met.length === 1 ? met[0]! : { kind: "union", of: met } };
  }

  private mapAndRecord(value: TypeExpr, record: TypeExpr): Typed {
    if (!isAny(value)) this.losses.push(`the value type of additionalProperties (${this.describe(value)}) is not combined with ${this.describe(record)}'s properties`);
    return { type: record };
  }

  /** Two records: every property of both; a property of both meets its two declarations. */
  private meetRecords(a: RecordType, b: RecordType): Typed | Never {
    const fa = this.fieldsOf(a);
    const fb = this.fieldsOf(b);
    if (!fa || !fb) {
      this.losses.push(`${a.name} and ${b.name} (recursive) are not combined: only ${b.name} is checked`);
      return { type: { kind: "ref", id: b.id } };
    }
    const keyOf = (f: Field) => f.wire.json?.key ?? f.name;
    const members: Field[] = [];
    const byKey = new Map(fb.map((f) => [keyOf(f), f]));
    for (const f of fa) {
      const g = byKey.get(keyOf(f));
      if (!g) {
        members.push(f);
        continue;
      }
      byKey.delete(keyOf(f));
      const r = this.meet({ type: f.type, facets: f.facets }, { type: g.type, facets: g.facets });
      const required = Math.max(f.occurs.min, g.occurs.min);
      if (r instanceof Never) this.contradictions.push(`property "${keyOf(f)}" of ${a.name} and ${b.name}: ${r.reason}`);
      const met: Typed = r instanceof Never ? { type: this.never(r.reason) } : r;
      const { facets: _facets, ...rest } = g;
      members.push({
        ...rest,
        type: met.type,
        ...(met.facets ? { facets: met.facets } : {}),
        occurs: { min: required, max: 1 },
        nullable: f.nullable && g.nullable,
        ...(g.doc === undefined && f.doc !== undefined ? { doc: f.doc } : {}),
      });
    }
    members.push(...byKey.values());
    const apA = a.additionalProperties;
    const apB = b.additionalProperties;
    let additional: RecordType["additionalProperties"];
    if (apA === false || apB === false) {
      const other = apA === false ? fb : fa;
      const allowed = new Set((apA === false ? fa : fb).map(keyOf));
      if (other.some((f) => !allowed.has(keyOf(f)))) {
        this.losses.push(`${apA === false ? a.name : b.name} forbids other properties, ${apA === false ? b.name : a.name} declares more: the combined type lists them all`);
      }
      additional = false;
    } else if (apA && apB) {
      const r = this.meetType(apA, apB);
      additional = r instanceof Never ? false : this.withFacets(r);
    } else additional = apA ?? apB;
    return {
      type: this.declare((head) => ({
        kind: "record",
        ...head,
        members,
        ...(additional !== undefined ? { additionalProperties: additional } : {}),
      })),
    };
  }

  /** A record's fields with inherited ones first; undefined while one of them is still being built (recursion). */
  private fieldsOf(r: RecordType): Field[] | undefined {
    const chain: RecordType[] = [];
    const seen = new Set<string>();
    for (let cur: RecordType | undefined = r; cur && !seen.has(cur.id); ) {
      seen.add(cur.id);
      chain.unshift(cur);
      if (!cur.base) break;
      const base = this.ctx.named.get(cur.base.id);
      if (!base) return undefined;
      cur = base.kind === "record" ? base : undefined;
    }
    return chain.flatMap((c) => c.members.filter((m): m is Field => m.kind === "field"));
  }

  /** Facets of both: the tighter of each bound, every pattern. */
  meetFacets(a: Facets | undefined, b: Facets | undefined): Facets | undefined {
    if (!a) return b;
    if (!b) return a;
    const f: { -readonly [K in keyof Facets]: Facets[K] } = { ...a };
    const max = (x: number | undefined, y: number | undefined) => (x === undefined ? y : y === undefined ? x : Math.max(x, y));
    const min = (x: number | undefined, y: number | undefined) => (x === undefined ? y : y === undefined ? x : Math.min(x, y));
    const hi = (x: string | undefined, y: string | undefined) => (x === undefined ? y : y === undefined ? x : Number(y) > Number(x) ? y : x);
    const lo = (x: string | undefined, y: string | undefined) => (x === undefined ? y : y === undefined ? x : Number(y) < Number(x) ? y : x);
    const set = <K extends keyof Facets>(k: K, v: Facets[K]) => {
      if (v === undefined) delete f[k];
      else f[k] = v;
    };
    set("minLength", max(a.minLength, b.minLength));
    set("maxLength", min(a.maxLength, b.maxLength));
    set("minItems", max(a.minItems, b.minItems));
    set("maxItems", min(a.maxItems, b.maxItems));
    set("minInclusive", hi(a.minInclusive, b.minInclusive));
    set("minExclusive", hi(a.minExclusive, b.minExclusive));
    set("maxInclusive", lo(a.maxInclusive, b.maxInclusive));
    set("maxExclusive", lo(a.maxExclusive, b.maxExclusive));
    if (a.patterns || b.patterns) set("patterns", [...new Set([...(a.patterns ?? []), ...(b.patterns ?? [])])]);
    if (a.uncheckedPatterns || b.uncheckedPatterns) set("uncheckedPatterns", [...new Set([...(a.uncheckedPatterns ?? []), ...(b.uncheckedPatterns ?? [])])]);
    if (a.uniqueItems || b.uniqueItems) set("uniqueItems", true);
    if (a.format !== undefined && b.format !== undefined && a.format !== b.format) {
      this.losses.push(`formats "${a.format}" and "${b.format}" both apply: only "${b.format}" is checked`);
    }
    set("format", b.format ?? a.format);
    if (a.multipleOf !== undefined && b.multipleOf !== undefined && a.multipleOf !== b.multipleOf) {
      const x = Number(a.multipleOf);
      const y = Number(b.multipleOf);
      if (Number.isInteger(x / y)) set("multipleOf", a.multipleOf);
      else if (Number.isInteger(y / x)) set("multipleOf", b.multipleOf);
      else this.losses.push(`multipleOf ${a.multipleOf} and ${b.multipleOf} both apply: only multipleOf ${b.multipleOf} is checked`);
    } else set("multipleOf", b.multipleOf ?? a.multipleOf);
    if (a.enumeration && b.enumeration) set("enumeration", a.enumeration.filter((v) => b.enumeration!.includes(v)));
    else set("enumeration", b.enumeration ?? a.enumeration);
    for (const k of ["length", "totalDigits", "fractionDigits", "whiteSpace"] as const) if (b[k] !== undefined) set(k, b[k] as never);
    if (f.minLength !== undefined && f.maxLength !== undefined && f.minLength > f.maxLength) {
      this.contradictions.push(`minLength ${f.minLength} is above maxLength ${f.maxLength}: no string is valid`);
    }
    if (f.minItems !== undefined && f.maxItems !== undefined && f.minItems > f.maxItems) {
      this.contradictions.push(`minItems ${f.minItems} is above maxItems ${f.maxItems}: no array is valid`);
    }
    const lower = f.minInclusive ?? f.minExclusive;
    const upper = f.maxInclusive ?? f.maxExclusive;
    if (lower !== undefined && upper !== undefined && Number(lower) > Number(upper)) {
      this.contradictions.push(`the minimum ${lower} is above the maximum ${upper}: no number is valid`);
    }
    return f;
  }

  // ---------------------------------------------------------------------------------------------------------------

  /** A met type whose facets must travel inside a type expression (array items, map values): an alias keeps them. */
  private withFacets(t: Typed): TypeExpr {
    if (!t.facets) return t.type;
    const facets = t.facets;
    return this.declare((head) => ({ kind: "alias", ...head, target: t.type, facets }));
  }

  private declare(make: (head: Omit<EnumType, "kind" | "base" | "values">) => NamedType): TypeExpr {
    let id: string;
    do id = `${this.idPrefix}&${++this.count}`;
    while (this.ctx.named.has(id));
    const scope = this.ctx.scopeOf(this.at.file);
    const head = {
      id,
      name: this.ctx.names.claim(scope, this.hint),
      scope,
      anonymous: true,
      origin: this.ctx.origin(this.at, `openapi schema ${this.at.pointer} (met with its other allOf declarations)`),
    };
    this.ctx.named.set(id, make(head));
    this.declared.push(id);
    return { kind: "ref", id };
  }

  private named(t: TypeExpr): NamedType | undefined {
    return t.kind === "ref" ? (this.ctx.named.get(t.id) ?? undefined) : undefined;
  }

  /** Whether a value of the literal/enum kind is admitted by type `t` (its facets aside). */
  private admits(t: TypeExpr, value: string | number | boolean | null, depth = 0): boolean {
    if (depth > 32) return true;
    switch (t.kind) {
      case "literal":
        return t.value === value;
      case "union":
        return t.of.some((m) => this.admits(m, value, depth + 1));
      case "list":
      case "map":
        return false;
      case "scalar":
        if (t.scalar === "any") return true;
        if (STRING_KINDS.has(t.scalar) || t.scalar === "decimal") return typeof value === "string";
        if (t.scalar === "boolean") return typeof value === "boolean";
        if (typeof value !== "number") return false;
        return t.scalar === "float" || t.scalar === "double" ? t.builtin !== "integer" || Number.isInteger(value) : Number.isInteger(value);
      case "ref": {
        const n = this.named(t);
        if (!n) return true;
        if (n.kind === "enum") return n.values.some((v) => v.value === value);
        if (n.kind === "alias") return this.admits(n.target, value, depth + 1);
        if (n.kind === "union") return n.variants.some((v) => this.admits(v.type, value, depth + 1));
        return false;
      }
    }
  }

  private describe(t: TypeExpr): string {
    switch (t.kind) {
      case "literal":
        return JSON.stringify(t.value);
      case "list":
        return "an array";
      case "map":
        return "an object";
      case "union":
        return t.of.map((m) => this.describe(m)).join(" or ");
      case "scalar":
        return t.scalar === "any" ? "anything" : t.builtin === "integer" ? "an integer" : `a ${t.scalar}`;
      case "ref": {
        const n = this.named(t);
        if (!n) return "a type being declared";
        if (n.kind === "record") return `an object (${n.name})`;
        if (n.kind === "enum") return `one of ${n.values.map((v) => JSON.stringify(v.value)).join(", ")}`;
        return n.name;
      }
    }
  }
}

function rank(t: ScalarType): number | undefined {
  if (t.builtin === "integer") return 3;
  return NUMBER_RANK[t.scalar];
}

function isAny(t: TypeExpr): boolean {
  return t.kind === "scalar" && t.scalar === "any";
}

export function sameExpr(a: TypeExpr, b: TypeExpr): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** The type ids an expression refers to directly. */
export function refsOf(t: TypeExpr, out: string[] = []): string[] {
  switch (t.kind) {
    case "ref":
      out.push(t.id);
      break;
    case "list":
      refsOf(t.of, out);
      break;
    case "map":
      refsOf(t.key, out);
      refsOf(t.value, out);
      break;
    case "union":
      for (const m of t.of) refsOf(m, out);
      break;
    default:
  }
  return out;
}

/** The type ids a named type's body refers to. */
export function namedTypeRefs(t: NamedType): string[] {
  const out: string[] = [];
  switch (t.kind) {
    case "record":
      if (t.base) out.push(t.base.id);
      for (const m of t.members) if (m.kind === "field") refsOf(m.type, out);
      if (t.additionalProperties) refsOf(t.additionalProperties, out);
      break;
    case "alias":
      refsOf(t.target, out);
      break;
    case "union":
      for (const v of t.variants) refsOf(v.type, out);
      break;
    case "enum":
  }
  // Checks refer to types too (the parts of an allOf, a `not`, the branches an unevaluated check tests).
  if (t.checks) checkRefs(t.checks, out);
  return out;
}

/** Every `{kind: "ref", id}` inside checks (their type expressions sit at several depths). */
function checkRefs(node: unknown, out: string[]): void {
  if (Array.isArray(node)) {
    for (const x of node) checkRefs(x, out);
    return;
  }
  if (node === null || typeof node !== "object") return;
  const o = node as Record<string, unknown>;
  if (o["kind"] === "ref" && typeof o["id"] === "string") {
    out.push(o["id"]);
    return;
  }
  for (const v of Object.values(o)) checkRefs(v, out);
}

/** The JSON types a type admits; undefined when unknown (a type still being built, anything). */
export function jsonKindsOf(ctx: LowerContext, t: TypeExpr, depth = 0): Set<JsonKind> | undefined {
  if (depth > 32) return undefined;
  switch (t.kind) {
    case "literal":
      return new Set([t.value === null ? "null" : (typeof t.value as JsonKind)]);
    case "list":
      return new Set(["array"]);
    case "map":
      return new Set(["object"]);
    case "scalar":
      if (t.scalar === "any") return undefined;
      if (t.scalar === "boolean") return new Set(["boolean"]);
      return new Set([STRING_KINDS.has(t.scalar) || t.scalar === "decimal" ? "string" : "number"]);
    case "union": {
      const out = new Set<JsonKind>();
      for (const m of t.of) {
        const k = jsonKindsOf(ctx, m, depth + 1);
        if (!k) return undefined;
        for (const x of k) out.add(x);
      }
      return out;
    }
    case "ref": {
      const n = ctx.named.get(t.id);
      if (!n) return undefined;
      if (n.kind === "record") return new Set(["object"]);
      if (n.kind === "alias") return jsonKindsOf(ctx, n.target, depth + 1);
      if (n.kind === "enum") return new Set(n.values.map((v) => (v.value === null ? "null" : (typeof v.value as JsonKind))));
      return jsonKindsOf(ctx, { kind: "union", of: n.variants.map((v) => v.type) }, depth + 1);
    }
  }
}
