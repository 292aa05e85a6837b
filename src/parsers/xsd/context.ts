/**
 * State shared by the XSD lowering passes: the output lists (kept in declaration order), origins, anonymous type
 * ids, reference resolution to IR type expressions, and facts read off declarations (base chains, scalar roots).
 */
import type { ElementDecl, NamedType, Occurs, Origin, QName, ScalarType, TypeExpr } from "../../ir/model.js";
import { originPath } from "../host.js";
import { type XmlElement, attr, childrenNs, firstChild, normalizeDoc, specError, textContent, xpath } from "../xml/dom.js";
import { XSD_NS, builtinScalar } from "./builtins.js";
import { type Decl, type SchemaDoc, type SchemaSet, key, unknown } from "./resolve.js";

export const typeId = (q: QName): string => `xsd:${key(q)}`;
export const elementId = (q: QName): string => `xsd-element:${key(q)}`;

/** Where a type is being lowered: its schema, id path ("Parent.child") and source name ("ParentChild"). */
export interface Scope {
  readonly schema: SchemaDoc;
  readonly path: string;
  readonly name: string;
  /** Counter for synthesized member names ($any, $any2, ...) within one record. */
  readonly counters: { any: number };
}

export const xsdChildren = (el: XmlElement, local?: string): XmlElement[] => childrenNs(el, XSD_NS, local);
export const xsdChild = (el: XmlElement, local: string): XmlElement | undefined => firstChild(el, XSD_NS, local);

export function capitalize(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

export class Ctx {
  private readonly slots: (NamedType | undefined)[] = [];
  readonly elements: ElementDecl[] = [];
  private readonly usedIds = new Set<string>();
  /** Keyed by the declaring element, or by a string for types synthesized from an attribute (SOAP-ENC array ranks). */
  private readonly anon = new Map<XmlElement | string, { id: string; name: string; local: string }>();
  /** Model groups / attribute groups being inlined right now, to reject circular references. */
  readonly inlining: string[] = [];

  constructor(
    readonly set: SchemaSet,
    readonly entry: string,
  ) {
    // Named types own their ids; anonymous ones are fitted around them.
    for (const d of set.all("type")) this.usedIds.add(typeId(d.name));
  }

  get types(): NamedType[] {
    return this.slots.filter((t): t is NamedType => t !== undefined);
  }

  /** Lower one independent piece (a declaration, a particle); its error is recorded and the piece left out. */
  recover<T>(work: () => T): T | undefined {
    return this.set.diagnostics.recover(work);
  }

  /**
   * Record a located warning (Diagnostics.warn): the construct at `el` is kept in a degraded form (a wider type, a
   * looser check) instead of refusing the schema.
   */
  warn(el: XmlElement, detail: string): void {
    this.set.diagnostics.warn(specError(el, detail));
  }

  /** Set when a derivation cycle was found: lowering would not terminate, so it must not start. */
  cyclic = false;
  private readonly reportedCycles = new Set<string>();

  /** Reserves the next position in the type list, so a type precedes the anonymous types nested in it. */
  reserve(): number {
    this.slots.push(undefined);
    return this.slots.length - 1;
  }

  fill(slot: number, t: NamedType): void {
    this.slots[slot] = t;
  }

  origin(el: XmlElement, construct: string): Origin {
    return { file: originPath(this.entry, el.file), line: el.line, column: el.column, pointer: xpath(el), construct };
  }

  doc(el: XmlElement): string | undefined {
    const parts: string[] = [];
    for (const ann of xsdChildren(el, "annotation")) {
      for (const d of xsdChildren(ann, "documentation")) {
        const t = normalizeDoc(textContent(d));
        if (t !== undefined) parts.push(t);
      }
    }
    return parts.length ? parts.join("\n\n") : undefined;
  }

  /**
   * The id and name of an anonymous type, chosen once per declaring element (so a type inside a model group that
   * is referenced from several places is lowered once). `#2`, `#3` keep ids unique; '#' cannot occur in an NCName.
   */
  anonymous(el: XmlElement | string, ns: string, path: string, name: string): { id: string; name: string; local: string; fresh: boolean } {
    const known = this.anon.get(el);
    if (known) return { ...known, fresh: false };
    let local = path;
    for (let n = 2; this.usedIds.has(typeId({ ns, local })); n++) local = `${path}#${n}`;
    const entry = { id: typeId({ ns, local }), name, local };
    this.usedIds.add(entry.id);
    this.anon.set(el, entry);
    return { ...entry, fresh: true };
  }

  occurs(el: XmlElement): Occurs {
    const num = (name: string, dflt: number): number => {
      const v = attr(el, name);
      if (v === undefined) return dflt;
      if (!/^\s*\d+\s*$/.test(v)) throw specError(el, `invalid ${name} '${v}'`);
      return Number(v);
    };
    const min = num("minOccurs", 1);
    const maxRaw = attr(el, "maxOccurs");
    const max = maxRaw?.trim() === "unbounded" ? "unbounded" : num("maxOccurs", 1);
    if (max !== "unbounded" && max < min) throw specError(el, `maxOccurs ${max} is less than minOccurs ${min}`);
    return { min, max };
  }

  /** The TypeExpr for a QName-valued attribute naming a type (builtin or declared). */
  typeRef(schema: SchemaDoc, el: XmlElement, attrName: string): TypeExpr {
    return this.typeByName(schema, el, attr(el, attrName) ?? "");
  }

  typeByName(schema: SchemaDoc, el: XmlElement, raw: string): TypeExpr {
    const q = this.set.qname(schema, el, raw);
    const b = builtinScalar(q.ns, q.local);
    if (b) return b;
    const d = this.set.lookupAt("type", q, el);
    if (!d) throw unknown(el, "type", raw, q, this.set.missingNote(q.ns));
    return { kind: "ref", id: typeId(d.name) };
  }

  /**
   * A reference to a type that XSD lets be missing until an instance needs it (XSD 1.0 Part 1 §5.3; W3C suite
   * saxonData Missing): an element's or attribute's type=, a list's itemType, a union's memberTypes. A missing one is
   * a located warning and `fallback` (anyType, anySimpleType) stands for it (degrade, never refuse). A base= is not
   * one of these: a type derived from a missing base is an error (missing004, missing005).
   */
  typeByNameOrMissing(schema: SchemaDoc, el: XmlElement, raw: string, fallback: TypeExpr, as: string): TypeExpr {
    const q = this.set.qname(schema, el, raw);
    const b = builtinScalar(q.ns, q.local);
    if (b) return b;
    const d = this.set.lookupAt("type", q, el);
    if (d) return { kind: "ref", id: typeId(d.name) };
    this.warn(el, `unknown type '${raw.trim()}' (${key(q)}): a missing component, ${as}${this.set.missingNote(q.ns)}`);
    return fallback;
  }

  /** The type declaration a QName names, or undefined for builtins; unknown names are errors. */
  typeDecl(schema: SchemaDoc, el: XmlElement, raw: string): Decl | undefined {
    const q = this.set.qname(schema, el, raw);
    if (builtinScalar(q.ns, q.local)) return undefined;
    const d = this.set.lookupAt("type", q, el);
    if (!d) throw unknown(el, "type", raw, q, this.set.missingNote(q.ns));
    return d;
  }

  /** The base a type derives from (complexContent/simpleContent/simpleType restriction or extension), if named. */
  baseOf(d: Decl): { raw: string; at: XmlElement } | undefined {
    let holder: XmlElement | undefined = d.el;
    if (d.el.name.local === "complexType") {
      holder = xsdChild(d.el, "complexContent") ?? xsdChild(d.el, "simpleContent");
      if (!holder) return undefined;
    }
    const der = xsdChild(holder, "extension") ?? xsdChild(holder, "restriction");
    const raw = der && attr(der, "base");
    return der && raw !== undefined ? { raw, at: der } : undefined;
  }

  /** Rejects circular derivation (A extends B extends A), which would make lowering and emitters loop. */
  checkDerivation(d: Decl): void {
    const seen: string[] = [key(d.name)];
    for (let cur: Decl | undefined = d; cur; ) {
      const b = this.baseOf(cur);
      if (!b) return;
      const next = this.typeDecl(cur.schema, b.at, b.raw);
      if (!next) return;
      const k = key(next.name);
      if (seen.includes(k)) {
        this.cyclic = true;
        // One error per cycle, from the first of its members met; the others (and types deriving from them) are quiet.
        const cycle = seen.slice(seen.indexOf(k));
        if (cycle.some((c) => this.reportedCycles.has(c))) return;
        for (const c of cycle) this.reportedCycles.add(c);
        throw specError(d.el, `circular type derivation: ${[...seen, k].join(" -> ")}`);
      }
      seen.push(k);
      cur = next;
    }
  }

  /**
   * Rejects a simple type whose definition reaches itself through union members or list items (st = union(int, st2),
   * st2 = union(st)): XSD forbids circular simple types, and emitters would recurse for ever on one.
   */
  checkSimpleCycle(d: Decl): void {
    if (d.el.name.local !== "simpleType") return;
    const start = key(d.name);
    const path: string[] = [start];
    /** How each step of `path` was taken: "union" (a member type), "list" (the item type), "restriction" (the base). */
    const steps: string[] = [];
    const visited = new Set<string>();
    const refs = (schema: SchemaDoc, el: XmlElement): { raw: string; at: XmlElement }[] => {
      const out: { raw: string; at: XmlElement }[] = [];
      for (const c of xsdChildren(el)) {
        const local = c.name.local;
        if (local === "list" && attr(c, "itemType") !== undefined) out.push({ raw: attr(c, "itemType")!, at: c });
        if (local === "union") for (const m of (attr(c, "memberTypes") ?? "").split(/\s+/).filter(Boolean)) out.push({ raw: m, at: c });
        if (local === "restriction" && attr(c, "base") !== undefined) out.push({ raw: attr(c, "base")!, at: c });
        if (local === "list" || local === "union" || local === "restriction" || local === "simpleType") out.push(...refs(schema, c));
      }
      return out;
    };
    const walk = (cur: Decl): void => {
      for (const r of refs(cur.schema, cur.el)) {
        // A missing item or member type is reported (or degraded) where the type is lowered.
        const q = this.set.qname(cur.schema, r.at, r.raw);
        const next = builtinScalar(q.ns, q.local) ? undefined : this.set.lookupAt("type", q, r.at);
        if (!next || next.el.name.local !== "simpleType") continue;
        const k = key(next.name);
        if (k === start) {
          if (path.some((c) => this.reportedCycles.has(c))) return;
          for (const c of path) this.reportedCycles.add(c);
          this.cyclic = true;
          // XSD 1.0 Second Edition names the rule (libxml2 refuses these schemas too: "The union type definition is
          // circular"); the W3C suite's msData stE110 still expects the older "valid".
          const rule = [...steps, r.at.name.local].includes("union")
            ? "a union must not have itself among its member types at any depth (XSD 1.0 Part 1 §3.14.3, src-simple-type.4)"
            : "every simple type must derive from anySimpleType (XSD 1.0 Part 1 §3.14.6, st-props-correct.2)";
          throw specError(d.el, `circular simple type definition: ${[...path, k].join(" -> ")}: ${rule}`);
        }
        if (visited.has(k)) continue;
        visited.add(k);
        path.push(k);
        steps.push(r.at.name.local);
        walk(next);
        path.pop();
        steps.pop();
      }
    };
    walk(d);
  }

  /** The scalar a simple type finally restricts, or undefined for lists, unions and complex types. */
  scalarRoot(schema: SchemaDoc, el: XmlElement, raw: string): ScalarType | undefined {
    const q = this.set.qname(schema, el, raw);
    const b = builtinScalar(q.ns, q.local);
    if (b) return b;
    const d = this.typeDecl(schema, el, raw);
    return d ? this.scalarOfSimple(d.schema, d.el) : undefined;
  }

  /** The scalar root of the items of a list type (through restrictions of it), or undefined when not a list. */
  listItemScalar(schema: SchemaDoc, el: XmlElement, raw: string | undefined, inline: XmlElement | undefined, depth = 0): ScalarType | undefined {
    if (depth > 50) return undefined;
    let d: { schema: SchemaDoc; el: XmlElement } | undefined = inline ? { schema, el: inline } : undefined;
    if (raw !== undefined) {
      const q = this.set.qname(schema, el, raw);
      if (builtinScalar(q.ns, q.local)) return undefined;
      d = this.set.lookupAt("type", q, el); // a missing one is reported (or degraded) where it is lowered
    }
    if (!d || d.el.name.local !== "simpleType") return undefined;
    const list = xsdChild(d.el, "list");
    if (list) {
      const item = attr(list, "itemType");
      if (item !== undefined) {
        const q = this.set.qname(d.schema, list, item);
        if (!builtinScalar(q.ns, q.local) && this.set.lookupAt("type", q, list) === undefined) return undefined;
        return this.scalarRoot(d.schema, list, item);
      }
      const inner = xsdChild(list, "simpleType");
      return inner ? this.scalarOfSimple(d.schema, inner) : undefined;
    }
    const r = xsdChild(d.el, "restriction");
    return r ? this.listItemScalar(d.schema, r, attr(r, "base"), xsdChild(r, "simpleType"), depth + 1) : undefined;
  }

  /** Same for an (anonymous or named) xsd:simpleType element. Derivation cycles were rejected beforehand. */
  scalarOfSimple(schema: SchemaDoc, simpleType: XmlElement): ScalarType | undefined {
    if (simpleType.name.local !== "simpleType") return undefined;
    const r = xsdChild(simpleType, "restriction");
    if (!r) return undefined;
    const base = attr(r, "base");
    if (base !== undefined) return this.scalarRoot(schema, r, base);
    const inline = xsdChild(r, "simpleType");
    return inline ? this.scalarOfSimple(schema, inline) : undefined;
  }
}
