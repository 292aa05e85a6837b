/**
 * Valid values from a schema: a deterministic generator (same seed, same value) of in-memory values of the IR's
 * types, shaped as the generated types declare them (property names from the naming rules, proto oneofs as
 * `{ case, value }`, 64-bit integers and dates as the generation options say, bytes as Uint8Array) and meant to pass
 * the generated validators: formats, patterns (a string built from the regex), length and numeric bounds,
 * multipleOf, enums, literals, unions (discriminator tags set), xsi:type families (`$type`), XSD choices (one
 * branch), proto oneofs, maps and repeated fields; recursion stops at `maxDepth` (optional fields left out, lists
 * empty, the non-recursive alternative of a union preferred).
 *
 * What a type's shape does not say (JSON Schema `not`, `if`, `allOf` parts kept as checks, proto `@range` notes) is
 * not modelled: `validValue` draws again (deterministically) until the caller's validator accepts, and gives up
 * after a bounded number of tries. Used by `specforge mock` and meant for a future MSW plugin: it needs only the IR.
 */
import type { EnumType, Facets, Field, Group, IrDocument, Member, NamedType, RecordType, ScalarType, TypeExpr, TypeId } from "../ir/model.js";
import { fieldPropertyName, oneofPropertyName } from "../naming/property-name.js";
import { keepsOrder, keyClaimer, orderedProperty, type OrderedProperty } from "../emitters/types/properties.js";
import { fieldRange, type RangeSpec } from "../emitters/protobuf/validate/range.js";
import { isDateRef } from "../emitters/types/context.js";
import { stringForPattern, type Random } from "./regex.js";
import { extensionChain } from "../ir/extension-chain.js";

export interface ValueOptions {
  /** How 64-bit integers are held (the `int64` generation option; OpenAPI default "number", others "bigint"). */
  readonly int64?: "bigint" | "string" | "number";
  /** How date-times are held (the `dates` generation option). */
  readonly dates?: "string" | "Date";
  /** Nesting of named types beyond which optional content is left out. Default 4. */
  readonly maxDepth?: number;
  /**
   * Values (fields, list items, map entries, nested records) one value may hold; past it the generator behaves as
   * past `maxDepth` (optional content left out, lists as short as allowed), and a cycle of required fields stops
   * once twice over it. Bounds the breadth the depth bound does not: a message with many optional message-typed
   * fields would otherwise grow as breadth^depth. Default 1000.
   */
  readonly maxNodes?: number;
}

/** The property holding a record's xsi:type name in its family (see the types emitter). */
const XSI_TYPE_PROPERTY = "$type";

/** A seeded PRNG (mulberry32) from a seed string. */
export function seededRandom(seed: string | number): Random {
  let h = 1779033703 ^ String(seed).length;
  for (const c of String(seed)) {
    h = Math.imul(h ^ c.charCodeAt(0), 3432918353);
    h = (h << 13) | (h >>> 19);
  }
  let a = h >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export class ValueGenerator {
  private readonly types = new Map<TypeId, NamedType>();
  private readonly subtypes = new Map<TypeId, TypeId[]>();
  private readonly int64: "bigint" | "string" | "number";
  private readonly dates: "string" | "Date";
  private readonly maxDepth: number;
  private readonly maxNodes: number;
  /** Values drawn so far for the current value (see maxNodes). */
  private spent = 0;
  private random: Random = Math.random;

  constructor(readonly doc: IrDocument, options: ValueOptions = {}) {
    for (const t of doc.types) this.types.set(t.id, t);
    for (const t of doc.types) {
      // xsi:type families (XSD): a reference to a record with subtypes means any member of its family.
      if (t.kind === "record" && t.base && (doc.format === "wsdl" || doc.format === "xsd")) {
        const list = this.subtypes.get(t.base!.id) ?? [];
        list.push(t.id);
        this.subtypes.set(t.base!.id, list);
      }
    }
    this.int64 = options.int64 ?? (doc.format === "openapi" ? "number" : "bigint");
    this.dates = options.dates ?? "string";
    this.maxDepth = options.maxDepth ?? 4;
    this.maxNodes = options.maxNodes ?? 1000;
  }

  /** A value of the named type `id` drawn with `seed`. */
  value(id: TypeId, seed: string | number): unknown {
    this.random = seededRandom(`${seed}\0${id}`);
    this.spent = 0;
    return this.named(id, 0, false);
  }

  /** A value of a type expression (a parameter, a body) drawn with `seed`. */
  valueOf(type: TypeExpr, seed: string | number, facets?: Facets, nullable = false): unknown {
    this.random = seededRandom(`${seed}\0${JSON.stringify(type)}`);
    this.spent = 0;
    if (nullable && this.random() < 0.05) return null;
    return this.expr(type, facets, 0);
  }

  /**
   * A value `accept` takes: draws with seed, seed+"/1", seed+"/2"... up to `tries` times; undefined when none passed
   * (the type has constraints the generator does not model, or none at all can be met).
   */
  validValue(draw: (seed: string) => unknown, accept: (value: unknown) => boolean, seed: string | number, tries = 25): { value: unknown } | undefined {
    for (let i = 0; i < tries; i++) {
      const value = draw(i === 0 ? String(seed) : `${seed}/${i}`);
      if (accept(value)) return { value };
    }
    return undefined;
  }

  /** Past the depth bound or the node budget: optional content is left out, lists are as short as allowed. */
  private deep(depth: number): boolean {
    return depth >= this.maxDepth || this.spent >= this.maxNodes;
  }

  private pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.random() * items.length)]!;
  }

  private int(lo: number, hi: number): number {
    return lo + Math.floor(this.random() * (hi - lo + 1));
  }

  private named(id: TypeId, depth: number, allowNull: boolean): unknown {
    const t = this.types.get(id);
    if (!t) return {};
    // A cycle of required fields has no finite value: stop at twice the depth bound (branching required fields make
    // anything deeper exponential), and the validator then says what is missing.
    // Past the node budget, only required content is still drawn, and a required cycle stops at once.
    if (depth > this.maxDepth * 2 + 2 || (depth > this.maxDepth && this.spent > this.maxNodes * 2)) return t.kind === "record" ? {} : null;
    if (allowNull && t.nullable && this.random() < 0.05) return null;
    switch (t.kind) {
      case "record": {
        const concrete = this.concrete(t, depth);
        return this.record(concrete, depth);
      }
      case "enum":
        return this.enumValue(t);
      case "alias":
        return this.expr(t.target, t.facets, depth + 1);
      case "union": {
        const variants = t.variants.length > 0 ? t.variants : [];
        if (variants.length === 0) return null;
        const shallow = this.deep(depth) ? variants.filter((v) => !this.recursive(v.type, id)) : variants;
        const v = this.pick(shallow.length > 0 ? shallow : variants);
        const value = this.expr(v.type, undefined, depth + 1);
        if (t.discriminator.kind === "property" && v.tag !== undefined && isPlainObject(value)) {
          return { ...value, [t.discriminator.property]: v.tag };
        }
        return value;
      }
    }
  }

  /** A reference to a record with subtypes stands for its whole family: pick a non-abstract member. */
  private concrete(t: RecordType, depth: number): RecordType {
    const family: RecordType[] = [];
    const walk = (r: RecordType, seen: Set<string>) => {
      if (seen.has(r.id)) return;
      seen.add(r.id);
      if (!r.abstract) family.push(r);
      for (const sub of this.subtypes.get(r.id) ?? []) {
        const s = this.types.get(sub);
        if (s?.kind === "record") walk(s, seen);
      }
    };
    walk(t, new Set());
    if (family.length === 0 || (this.deep(depth) && !t.abstract)) return t;
    return this.pick(family);
  }

  private familyRoot(t: RecordType): TypeId | undefined {
    let root: TypeId | undefined;
    const seen = new Set<string>();
    for (let r: NamedType | undefined = t; r && r.kind === "record" && !seen.has(r.id); r = r.base ? this.types.get(r.base.id) : undefined) {
      seen.add(r.id);
      if ((this.subtypes.get(r.id)?.length ?? 0) > 0) root = r.id;
    }
    return root;
  }

  private record(t: RecordType, depth: number): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    const family = this.doc.format === "wsdl" || this.doc.format === "xsd" ? this.familyRoot(t) : undefined;
    const claim = keyClaimer(new Set(family ? [XSI_TYPE_PROPERTY] : []));
    if (family) out[XSI_TYPE_PROPERTY] = t.name;
    const chain = extensionChain(t, (id) => this.types.get(id));
    for (const r of chain) this.members(r.members, { min: 1, max: 1 }, out, claim, depth, true, r.id === PROTO_VALUE);
    if (this.doc.format === "proto") this.wellKnown(t, out);
    return out;
  }

  /**
   * Members flattened as recordProperties does (so keys are claimed in the same order), filling `out`. `present`
   * false: the enclosing group is absent, members only claim their keys.
   */
  private members(members: readonly Member[], outer: { min: number; max: number | "unbounded" }, out: Record<string, unknown>, claim: (k: string) => string, depth: number, present: boolean, oneofRequired = false): void {
    for (const m of members) {
      if (m.kind === "any") {
        const key = claim("$any");
        const occurs = multiply(outer, m.occurs);
        if (present && occurs.min >= 1) {
          // Elements from another vocabulary: as few as allowed, in a namespace the wildcard admits.
          const listed = m.namespace.split(/\s+/).find((n) => n !== "" && !n.startsWith("##"));
          const ns = m.namespace === "##local" ? "" : listed ?? "urn:specforge:mock";
          const items = (out[key] as unknown[] | undefined) ?? [];
          for (let i = 0; i < occurs.min; i++) items.push({ ns, name: `extra${i + 1}`, value: "x" });
          out[key] = items;
        }
        continue;
      }
      if (m.kind === "field") {
        const key = claim(fieldPropertyName(m));
        if (present) this.field(m, multiply(outer, m.occurs), out, key, depth);
        continue;
      }
      if (m.oneofName !== undefined) {
        const key = claim(oneofPropertyName(m));
        if (present) this.oneof(m, out, key, depth, oneofRequired);
        continue;
      }
      if (keepsOrder(m, outer)) {
        // A repeating choice kept in document order: `{ kind, value }` items following the content model.
        const p = orderedProperty(m, multiply(outer, m.occurs));
        const key = claim(p.name);
        if (present && (p.minItems >= 1 || (!this.deep(depth) && this.random() < 0.6))) {
          const items: unknown[] = [];
          this.orderedItems({ ...m, occurs: p.occurs }, p, items, depth, true);
          if (items.length > 0) out[key] = items;
        }
        continue;
      }
      if (m.compositor === "choice") {
        // One branch per occurrence: the others only claim their keys.
        const occurs = multiply(outer, { min: 0, max: m.occurs.max });
        const wanted = present && (m.occurs.min >= 1 && outer.min >= 1 || (!this.deep(depth) && this.random() < 0.5));
        const branch = wanted && m.members.length > 0 ? this.choiceBranch(m, depth) : -1;
        m.members.forEach((member, i) => {
          const required = { min: i === branch ? Math.max(1, m.occurs.min) : 0, max: occurs.max };
          this.members([member], i === branch ? required : occurs, out, claim, depth, present && i === branch);
        });
        continue;
      }
      const occurs = multiply(outer, m.occurs);
      const groupPresent = present && (m.occurs.min >= 1 || (!this.deep(depth) && this.random() < 0.5));
      this.members(m.members, groupPresent ? { min: Math.max(1, occurs.min), max: occurs.max } : occurs, out, claim, depth, groupPresent);
    }
  }

  /** Items of one ordered group member (its occurrences), as the content model allows: few when deep. */
  private orderedItems(m: Member, p: OrderedProperty, out: unknown[], depth: number, top = false): void {
    const max = m.occurs.max === "unbounded" ? m.occurs.min + 2 : Math.min(m.occurs.max, m.occurs.min + 2);
    // The group itself occurs at least once when chosen (its property is there).
    const min = top ? Math.max(1, m.occurs.min) : m.occurs.min;
    const count = this.deep(depth) ? min : this.int(min, Math.max(min, max));
    for (let n = 0; n < count; n++) {
      if (m.kind === "field") {
        const kind = p.items.find((i) => i.member === m)!.kind;
        out.push({ kind, value: this.fieldValue(m, depth) });
      } else if (m.kind === "any") {
        const kind = p.items.find((i) => i.member === m)!.kind;
        const listed = m.namespace.split(/\s+/).find((x) => x !== "" && !x.startsWith("##"));
        const ns = m.namespace === "##local" ? "" : listed ?? "urn:specforge:mock";
        out.push({ kind, value: { ns, name: `extra${out.length + 1}`, value: "x" } });
      } else if (m.compositor === "choice") {
        if (m.members.length > 0) this.orderedItems(m.members[this.choiceBranch(m, depth)]!, p, out, depth);
      } else for (const x of m.members) this.orderedItems(x, p, out, depth);
    }
  }

  private choiceBranch(g: Group, depth: number): number {
    const candidates = g.members.map((_, i) => i).filter((i) => !this.deep(depth) || !this.memberRecursive(g.members[i]!));
    return candidates.length > 0 ? this.pick(candidates) : 0;
  }

  private memberRecursive(m: Member): boolean {
    return m.kind === "field" ? m.type.kind === "ref" : m.kind === "group";
  }

  private field(f: Field, occurs: { min: number; max: number | "unbounded" }, out: Record<string, unknown>, key: string, depth: number): void {
    const proto = f.wire.proto;
    const list = occurs.max === "unbounded" || occurs.max > 1;
    // proto3 implicit-presence scalars are always there; a message field never has implicit presence.
    const required = occurs.min >= 1 || proto?.label === "required" || (proto?.label === "implicit" && !this.isRecord(f.type));
    if (!required && (this.deep(depth) || this.random() < 0.4)) return;
    if (list) {
      const max = occurs.max === "unbounded" ? occurs.min + 2 : Math.min(occurs.max, occurs.min + 2);
      const count = this.deep(depth) ? occurs.min : this.int(occurs.min, Math.max(occurs.min, max));
      out[key] = Array.from({ length: count }, () => this.fieldValue(f, depth));
      return;
    }
    if (f.nullable && !required && this.random() < 0.1) {
      out[key] = null;
      return;
    }
    out[key] = this.fieldValue(f, depth);
  }

  private isRecord(t: TypeExpr): boolean {
    return t.kind === "ref" && this.types.get(t.id)?.kind === "record";
  }

  private fieldValue(f: Field, depth: number): unknown {
    if (f.fixed !== undefined) return this.fromText(f.type, f.fixed);
    const range = f.wire.proto ? rangeOf(f) : undefined;
    if (range && range.alternatives.length > 0) {
      const alt = this.pick(range.alternatives);
      return this.expr(f.type, { ...f.facets, minInclusive: String(alt.min), maxInclusive: String(alt.max) }, depth + 1);
    }
    return this.expr(f.type, f.facets, depth + 1);
  }

  /**
   * What the proto JSON mapping of the well-known types asks beyond their fields (the binary form takes any value):
   * Timestamp within 0001..9999 with nanos in [0, 1e9); Duration's nanos of the sign of its seconds; Any packing a
   * message of the document (registered with the generated codecs) as its empty encoding, or nothing at all.
   */
  private wellKnown(t: RecordType, out: Record<string, unknown>): void {
    if (t.id === PROTO_TIMESTAMP || t.id === PROTO_DURATION) {
      const seconds = out["seconds"];
      const sign = seconds === undefined ? 0 : Math.sign(Number(seconds));
      if (typeof out["nanos"] === "number") {
        const nanos = Math.min(Math.abs(out["nanos"]), 999_999_999);
        out["nanos"] = t.id === PROTO_DURATION && sign < 0 ? -nanos : nanos;
      }
      if (t.id === PROTO_TIMESTAMP && sign < 0) out["seconds"] = typeof seconds === "bigint" ? -seconds : typeof seconds === "string" ? seconds.replace(/^-/, "") : Math.abs(Number(seconds));
    }
    if (t.id === PROTO_ANY) {
      const packable = this.packable();
      const target = packable.length > 0 && this.random() < 0.8 ? this.pick(packable) : undefined;
      out["typeUrl"] = target === undefined ? "" : `type.googleapis.com/${target.id.slice("proto:.".length)}`;
      out["value"] = new Uint8Array(0);
    }
  }

  private packableTypes: RecordType[] | undefined;

  /** Messages whose empty encoding is a valid message with a JSON form: no required fields, not Value. */
  private packable(): RecordType[] {
    return (this.packableTypes ??= this.doc.types.filter((x): x is RecordType => x.kind === "record" && x.id.startsWith("proto:.") && x.id !== PROTO_VALUE && !x.members.some((m) => m.kind === "field" && m.wire.proto?.label === "required")));
  }

  /** An XSD `fixed` value (text) as the in-memory value of its type. */
  private fromText(type: TypeExpr, text: string): unknown {
    const scalar = this.scalarOf(type);
    if (!scalar) return text;
    return this.scalarFromText(scalar, text);
  }

  private scalarOf(type: TypeExpr): ScalarType | undefined {
    for (let t: TypeExpr | undefined = type, i = 0; t && i < 20; i++) {
      if (t.kind === "scalar") return t;
      if (t.kind !== "ref") return undefined;
      const named = this.types.get(t.id);
      t = named?.kind === "alias" ? named.target : undefined;
    }
    return undefined;
  }

  private oneof(g: Group, out: Record<string, unknown>, key: string, depth: number, required = false): void {
    const fields = g.members.filter((m): m is Field => m.kind === "field");
    if (fields.length === 0 || (!required && ((this.deep(depth) && fields.every((f) => f.type.kind === "ref")) || this.random() < 0.2))) return;
    const shallow = this.deep(depth) ? fields.filter((x) => x.type.kind !== "ref") : fields;
    const f = this.pick(shallow.length > 0 ? shallow : fields);
    out[key] = { case: fieldPropertyName(f), value: this.expr(f.type, f.facets, depth + 1) };
  }

  private enumValue(t: EnumType): unknown {
    if (t.values.length === 0) return null;
    return this.pick(t.values).value;
  }

  /** Whether `type` can lead back to `id` (one level: a reference to it or to a record that holds it). */
  private recursive(type: TypeExpr, id: TypeId): boolean {
    const seen = new Set<string>();
    const visit = (t: TypeExpr): boolean => {
      switch (t.kind) {
        case "ref": {
          if (t.id === id) return true;
          if (seen.has(t.id)) return false;
          seen.add(t.id);
          const n = this.types.get(t.id);
          if (!n) return false;
          if (n.kind === "alias") return visit(n.target);
          if (n.kind === "union") return n.variants.some((v) => visit(v.type));
          if (n.kind === "record") return n.members.some((m) => m.kind === "field" && (m.occurs.min >= 1) && visit(m.type));
          return false;
        }
        case "list": return false;
        case "map": return false;
        case "union": return t.of.some(visit);
        default: return false;
      }
    };
    return visit(type);
  }

  expr(t: TypeExpr, facets: Facets | undefined, depth: number): unknown {
    this.spent++;
    switch (t.kind) {
      case "scalar":
        return this.scalar(t, facets);
      case "literal":
        return t.value;
      case "ref": {
        // google.protobuf.Timestamp under `dates: "Date"`: a Date with a millisecond part.
        if (isDateRef(t.id, this.dates)) {
          return new Date(Date.UTC(2020 + this.int(0, 5), this.int(0, 11), this.int(1, 28), this.int(0, 23), this.int(0, 59), this.int(0, 59), this.int(0, 999)));
        }
        const named = this.types.get(t.id);
        if (named?.kind === "alias" && facets) return this.expr(named.target, mergeFacets(named.facets, facets), depth + 1);
        return this.named(t.id, depth, false);
      }
      case "list": {
        const f = { ...t.facets, ...pickList(facets) };
        const min = f.minItems ?? 0;
        const cap = f.maxItems ?? min + 2;
        const count = this.deep(depth) ? min : this.int(min, Math.max(min, Math.min(cap, min + 2)));
        const items: unknown[] = [];
        const keys = new Set<string>();
        for (let i = 0, tries = 0; items.length < count && tries < count * 10 + 10; tries++) {
          const item = this.expr(t.of, undefined, depth + 1);
          if (f.uniqueItems) {
            const k = stableKey(item);
            if (keys.has(k)) continue;
            keys.add(k);
          }
          items.push(item);
          i++;
        }
        return items;
      }
      case "map": {
        const out: Record<string, unknown> = {};
        const count = this.deep(depth) ? 0 : this.int(0, 2);
        for (let i = 0; i < count; i++) {
          const key = this.mapKey(t.key);
          out[key] = this.expr(t.value, undefined, depth + 1);
        }
        return out;
      }
      case "union": {
        const options = this.deep(depth) ? t.of.filter((o) => o.kind !== "ref" && o.kind !== "list") : t.of;
        const o = this.pick(options.length > 0 ? options : t.of);
        return this.expr(o, facets, depth + 1);
      }
    }
  }

  private mapKey(key: TypeExpr): string {
    const s = this.scalarOf(key);
    if (!s) {
      const v = this.expr(key, undefined, this.maxDepth);
      return typeof v === "string" ? v : String(v);
    }
    if (s.scalar === "boolean") return this.random() < 0.5 ? "true" : "false";
    if (s.scalar === "string") return `key${this.int(0, 999)}`;
    if (/int|fixed/.test(s.scalar)) return String(this.int(UNSIGNED.has(s.scalar) ? 0 : -50, 1000));
    return String(this.scalar(s, undefined));
  }

  private scalarFromText(s: ScalarType, text: string): unknown {
    switch (this.representation(s)) {
      case "number": case "integer": return Number(text);
      case "bigint": return BigInt(text);
      case "boolean": return text === "true" || text === "1";
      case "bytes": return new TextEncoder().encode(text);
      case "date": return new Date(text);
      default: return text;
    }
  }

  private representation(s: ScalarType): "string" | "boolean" | "number" | "integer" | "bigint" | "int64-string" | "date" | "bytes" | "any" {
    if (INT64.has(s.scalar)) return this.int64 === "bigint" ? "bigint" : this.int64 === "string" ? "int64-string" : "integer";
    if (INT32.has(s.scalar)) return "integer";
    switch (s.scalar) {
      case "double": case "float": return s.builtin === "integer" ? "integer" : "number";
      case "integer": return "bigint";
      case "boolean": return "boolean";
      case "bytes": return "bytes";
      case "any": return "any";
      case "dateTime": return this.dates === "Date" ? "date" : "string";
      default: return "string";
    }
  }

  private scalar(s: ScalarType, facets: Facets | undefined): unknown {
    const rep = this.representation(s);
    if (facets?.enumeration && facets.enumeration.length > 0) {
      return this.scalarFromText(s, this.pick(facets.enumeration));
    }
    switch (rep) {
      case "boolean": return this.random() < 0.5;
      case "bytes": return Uint8Array.from({ length: this.int(facets?.minLength ?? facets?.length ?? 0, facets?.length ?? Math.min(facets?.maxLength ?? 8, (facets?.minLength ?? 0) + 8)) }, () => this.int(0, 255));
      case "date": return new Date(Date.UTC(2020 + this.int(0, 5), this.int(0, 11), this.int(1, 28), this.int(0, 23), this.int(0, 59), this.int(0, 59)));
      case "any": return this.anyValue(facets);
      case "number": return this.number(facets, false, s);
      case "integer": return this.number(facets, true, s);
      case "bigint": {
        const n = this.number(facets, true, s);
        return BigInt(n);
      }
      case "int64-string": return String(this.int(UNSIGNED.has(s.scalar) ? 0 : -1000, 100000));
      case "string": return this.string(s, facets);
    }
  }

  private anyValue(facets: Facets | undefined): unknown {
    if (facets && (facets.format !== undefined || facets.patterns || facets.minLength !== undefined || facets.maxLength !== undefined)) {
      return this.string({ kind: "scalar", scalar: "string" }, facets);
    }
    if (facets && (facets.minInclusive ?? facets.maxInclusive ?? facets.minExclusive ?? facets.maxExclusive ?? facets.multipleOf) !== undefined) {
      return this.number(facets, false, { kind: "scalar", scalar: "double" });
    }
    return this.pick(["any", 1, true]);
  }

  private number(f: Facets | undefined, integer: boolean, s: ScalarType): number {
    let lo = f?.minInclusive !== undefined ? Number(f.minInclusive) : f?.minExclusive !== undefined ? Number(f.minExclusive) : undefined;
    let hi = f?.maxInclusive !== undefined ? Number(f.maxInclusive) : f?.maxExclusive !== undefined ? Number(f.maxExclusive) : undefined;
    const loOpen = f?.minInclusive === undefined && f?.minExclusive !== undefined;
    const hiOpen = f?.maxInclusive === undefined && f?.maxExclusive !== undefined;
    const unsigned = UNSIGNED.has(s.scalar);
    if (unsigned) lo = Math.max(lo ?? 0, 0);
    if (INT32.has(s.scalar) && !unsigned) {
      lo = Math.max(lo ?? -2147483648, -2147483648);
      hi = Math.min(hi ?? 2147483647, 2147483647);
    }
    if (lo === undefined && hi === undefined) [lo, hi] = [0, 1000];
    else if (lo === undefined) lo = hi! - 1000;
    else if (hi === undefined) hi = lo + 1000;
    // Keep draws small and readable: near zero when the range holds it, else within 1000 of the lower bound.
    if (hi! - lo! > 1000) {
      if (lo! <= 0 && hi! >= 0) [lo, hi] = [Math.max(lo!, -10), Math.min(hi!, 1000)];
      else hi = lo! + 1000;
    }
    const step = f?.multipleOf !== undefined ? Number(f.multipleOf) : integer ? 1 : undefined;
    if (step !== undefined && step > 0) {
      let kLo = Math.ceil(lo! / step);
      let kHi = Math.floor(hi! / step);
      if (loOpen && kLo * step <= lo!) kLo++;
      if (hiOpen && kHi * step >= hi!) kHi--;
      if (integer && step < 1) {
        kLo = Math.ceil(lo! / 1);
        kHi = Math.floor(hi! / 1);
        return this.int(kLo, Math.max(kLo, kHi));
      }
      const k = this.int(kLo, Math.max(kLo, kHi));
      const v = k * step;
      return Number.isInteger(step) ? v : Number(v.toPrecision(15));
    }
    let v = lo! + this.random() * (hi! - lo!);
    v = Math.round(v * 100) / 100;
    if (loOpen && v <= lo!) v = lo! + (hi! - lo!) / 2;
    if (hiOpen && v >= hi!) v = lo! + (hi! - lo!) / 2;
    return v;
  }

  private string(s: ScalarType, f: Facets | undefined): string {
    const format = f?.format ?? SCALAR_FORMATS.get(s.scalar);
    let text: string | undefined;
    const patterns = f?.patterns ?? [];
    if (patterns.length > 0) {
      for (let i = 0; i < 10 && text === undefined; i++) {
        const candidate = stringForPattern(patterns[0]!, this.random);
        if (candidate !== undefined && fitsLength(candidate, f)) text = candidate;
      }
    }
    if (text === undefined && format !== undefined) text = this.formatted(format, s);
    if (text === undefined && s.scalar === "decimal") text = String(this.number(f, f?.fractionDigits === 0, { kind: "scalar", scalar: "double" }));
    if (text === undefined && s.scalar === "QName") text = `q${this.int(0, 99)}`;
    if (text === undefined) {
      const min = Math.max(f?.minLength ?? 0, f?.length ?? 0);
      const max = f?.length ?? f?.maxLength ?? min + 10;
      const len = this.int(min, Math.max(min, Math.min(max, min + 10)));
      const alphabet = "abcdefghijklmnopqrstuvwxyz";
      text = Array.from({ length: len }, () => alphabet[this.int(0, alphabet.length - 1)]).join("");
      if (len === 0 && min === 0 && max > 0 && this.random() < 0.8) text = alphabet[this.int(0, 25)]!;
    }
    return text;
  }

  private formatted(format: string, s: ScalarType): string | undefined {
    const pad = (n: number, w = 2) => String(n).padStart(w, "0");
    const date = () => `${2020 + this.int(0, 5)}-${pad(this.int(1, 12))}-${pad(this.int(1, 28))}`;
    const time = () => `${pad(this.int(0, 23))}:${pad(this.int(0, 59))}:${pad(this.int(0, 59))}`;
    const hex = (n: number) => Array.from({ length: n }, () => "0123456789abcdef"[this.int(0, 15)]).join("");
    switch (format) {
      case "date": return date();
      case "date-time": return `${date()}T${time()}Z`;
      case "time": return `${time()}Z`;
      case "duration": return `P${this.int(1, 9)}DT${this.int(1, 23)}H`;
      case "uri": case "url": case "iri": return `https://example.com/${this.pick(["a", "items", "x1"])}/${this.int(1, 999)}`;
      case "uri-reference": case "iri-reference": return `/path/${this.int(1, 999)}`;
      case "uri-template": return `/items/{id}`;
      case "email": case "idn-email": return `user${this.int(1, 999)}@example.com`;
      case "uuid": return `${hex(8)}-${hex(4)}-4${hex(3)}-8${hex(3)}-${hex(12)}`;
      case "hostname": case "idn-hostname": return `host${this.int(1, 99)}.example.com`;
      case "ipv4": return `10.${this.int(0, 255)}.${this.int(0, 255)}.${this.int(1, 254)}`;
      case "ipv6": return `2001:db8::${hex(4)}`;
      case "json-pointer": return `/a/${this.int(0, 9)}`;
      case "relative-json-pointer": return `0/a`;
      case "regex": return "^[a-z]+$";
      case "byte": return Buffer.from(hex(6)).toString("base64");
      case "binary": return hex(8);
      case "password": return `pw${hex(6)}`;
      default:
        return s.scalar === "anyURI" ? `https://example.com/${this.int(1, 999)}` : undefined;
    }
  }
}

const PROTO_ANY = "proto:.google.protobuf.Any";
const PROTO_VALUE = "proto:.google.protobuf.Value";
const PROTO_TIMESTAMP = "proto:.google.protobuf.Timestamp";
const PROTO_DURATION = "proto:.google.protobuf.Duration";

const INT64: ReadonlySet<string> = new Set(["int64", "uint64", "sint64", "fixed64", "sfixed64"]);
const INT32: ReadonlySet<string> = new Set(["int32", "uint32", "sint32", "fixed32", "sfixed32"]);
const UNSIGNED: ReadonlySet<string> = new Set(["uint32", "fixed32", "uint64", "fixed64"]);
const SCALAR_FORMATS: ReadonlyMap<string, string> = new Map([["date", "date"], ["dateTime", "date-time"], ["time", "time"], ["anyURI", "uri"], ["duration", "duration"]]);

/** A proto field's `@range` doc convention (what the generated validator checks); a malformed one is ignored here. */
function rangeOf(f: Field): RangeSpec | undefined {
  try {
    return fieldRange(f);
  } catch {
    return undefined;
  }
}

function fitsLength(text: string, f: Facets | undefined): boolean {
  const n = [...text].length;
  const min = Math.max(f?.minLength ?? 0, f?.length ?? 0);
  const max = f?.length ?? f?.maxLength;
  return n >= min && (max === undefined || n <= max);
}

function multiply(a: { min: number; max: number | "unbounded" }, b: { min: number; max: number | "unbounded" }): { min: number; max: number | "unbounded" } {
  const max = a.max === "unbounded" || b.max === "unbounded" ? "unbounded" : a.max * b.max;
  return { min: a.min * b.min, max: a.max === 0 || b.max === 0 ? 0 : max };
}

function mergeFacets(a: Facets | undefined, b: Facets | undefined): Facets | undefined {
  if (!a) return b;
  if (!b) return a;
  return { ...a, ...b, ...(a.patterns || b.patterns ? { patterns: [...(a.patterns ?? []), ...(b.patterns ?? [])] } : {}) };
}

function pickList(f: Facets | undefined): Facets {
  if (!f) return {};
  return {
    ...(f.minItems !== undefined ? { minItems: f.minItems } : {}),
    ...(f.maxItems !== undefined ? { maxItems: f.maxItems } : {}),
    ...(f.uniqueItems ? { uniqueItems: true } : {}),
  };
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v) && !(v instanceof Uint8Array) && !(v instanceof Date);
}

function stableKey(v: unknown): string {
  return JSON.stringify(v, (_k, x: unknown) => (typeof x === "bigint" ? `${x}n` : x instanceof Uint8Array ? [...x] : x));
}
