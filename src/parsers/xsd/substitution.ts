/**
 * Substitution groups (XSD 1.0 Structures §2.2.2.2, §3.3.6): where a content model names a head element, any element
 * declared (in any schema document of the set) with that head as its substitutionGroup, directly or through other
 * members, may stand in its place, unless the head blocks it. Which members may substitute is decided here, on the
 * schema documents; lower-complex.ts turns the reference into a choice between the head and those members.
 */
import { type XmlElement, attr } from "../xml/dom.js";
import { XSD_NS, builtinScalar } from "./builtins.js";
import type { Ctx } from "./context.js";
import { xsdChild } from "./context.js";
import { type Decl, type SchemaDoc, type SchemaSet, key } from "./resolve.js";

/** Direct members of each head (by the head's key), built once per schema set, in declaration order. */
const directMembers = new WeakMap<SchemaSet, Map<string, Decl[]>>();

function membersByHead(set: SchemaSet): Map<string, Decl[]> {
  let map = directMembers.get(set);
  if (map) return map;
  map = new Map();
  for (const d of set.all("element")) {
    if (attr(d.el, "substitutionGroup") === undefined) continue;
    let head: Decl;
    try {
      head = set.resolve("element", d.schema, d.el, "substitutionGroup");
    } catch {
      continue; // an unknown head is reported where the member itself is lowered
    }
    const k = key(head.name);
    const list = map.get(k);
    if (list) list.push(d);
    else map.set(k, [d]);
  }
  directMembers.set(set, map);
  return map;
}

/** The substitutions (derivations) a `block`/`final`-like attribute value names: "e", "r", "s" for substitution. */
function tokens(raw: string | undefined): Set<string> {
  const out = new Set<string>();
  if (raw === undefined) return out;
  for (const t of raw.trim().split(/\s+/)) {
    if (t === "#all") ["e", "r", "s"].forEach((x) => out.add(x));
    else if (t === "extension") out.add("e");
    else if (t === "restriction") out.add("r");
    else if (t === "substitution") out.add("s");
  }
  return out;
}

/** An element's {disallowed substitutions}: its `block`, else the schema's blockDefault. */
function disallowed(d: Decl): Set<string> {
  return tokens(attr(d.el, "block") ?? attr(d.schema.el, "blockDefault"));
}

/** A type definition as the derivation walk sees it: a declaring element (named or anonymous) or a builtin by key. */
type TypeDef = { readonly schema: SchemaDoc; readonly el: XmlElement } | { readonly builtin: string };

const ANY_TYPE: TypeDef = { builtin: `{${XSD_NS}}anyType` };
const ANY_SIMPLE: TypeDef = { builtin: `{${XSD_NS}}anySimpleType` };

function sameType(a: TypeDef, b: TypeDef): boolean {
  if ("builtin" in a || "builtin" in b) return "builtin" in a && "builtin" in b && a.builtin === b.builtin;
  return a.el === b.el;
}

function typeByName(ctx: Ctx, schema: SchemaDoc, at: XmlElement, raw: string): TypeDef {
  const q = ctx.set.qname(schema, at, raw);
  if (builtinScalar(q.ns, q.local)) return { builtin: key(q) };
  const d = ctx.set.lookupAt("type", q, at);
  if (!d) throw new Error(`unknown type ${key(q)}`);
  return { schema: d.schema, el: d.el };
}

/** The {type definition} of a global element declaration (an element without one takes its head's). */
function typeOfElement(ctx: Ctx, d: Decl, depth = 0): TypeDef {
  const type = attr(d.el, "type");
  if (type !== undefined) return typeByName(ctx, d.schema, d.el, type);
  const inline = xsdChild(d.el, "complexType") ?? xsdChild(d.el, "simpleType");
  if (inline) return { schema: d.schema, el: inline };
  if (attr(d.el, "substitutionGroup") !== undefined && depth < 32) {
    return typeOfElement(ctx, ctx.set.resolve("element", d.schema, d.el, "substitutionGroup"), depth + 1);
  }
  return ANY_TYPE;
}

/** One derivation step up from a declared type: its method ("e" or "r") and base type definition. */
function baseStep(ctx: Ctx, t: { schema: SchemaDoc; el: XmlElement }): { method: string; base: TypeDef } {
  if (t.el.name.local === "simpleType") {
    const r = xsdChild(t.el, "restriction");
    if (r) {
      const raw = attr(r, "base");
      if (raw !== undefined) return { method: "r", base: typeByName(ctx, t.schema, r, raw) };
      const inner = xsdChild(r, "simpleType");
      if (inner) return { method: "r", base: { schema: t.schema, el: inner } };
    }
    // A list or union is derived from anySimpleType (by restriction, as far as blocking is concerned).
    return { method: "r", base: ANY_SIMPLE };
  }
  const holder = xsdChild(t.el, "complexContent") ?? xsdChild(t.el, "simpleContent");
  const der = holder && (xsdChild(holder, "extension") ?? xsdChild(holder, "restriction"));
  const raw = der && attr(der, "base");
  if (!der || raw === undefined) return { method: "r", base: ANY_TYPE }; // a restriction of anyType
  return { method: der.name.local === "extension" ? "e" : "r", base: typeByName(ctx, t.schema, der, raw) };
}

/**
 * Whether `member` may substitute for `head` (Substitution Group OK (Transitive), clause 2.3): the derivation
 * methods from the head's type to the member's type must not be among the head's {disallowed substitutions}, its
 * type's {prohibited substitutions} (a complex type's `block` or blockDefault), nor those of any type in between.
 * A member whose type is not derived from the head's type is not a member (a schema error; left out).
 */
function derivationAllowed(ctx: Ctx, member: Decl, head: Decl, headBlock: Set<string>): boolean {
  let target: TypeDef;
  let cur: TypeDef;
  try {
    target = typeOfElement(ctx, head);
    cur = typeOfElement(ctx, member);
  } catch {
    return false;
  }
  const methods = new Set<string>();
  const prohibited = new Set(headBlock);
  const typeBlock = (t: TypeDef): void => {
    if ("builtin" in t || t.el.name.local !== "complexType") return;
    for (const x of tokens(attr(t.el, "block") ?? attr(t.schema.el, "blockDefault"))) prohibited.add(x);
  };
  typeBlock(target);
  for (let depth = 0; !sameType(cur, target); depth++) {
    if (depth > 64) return false;
    if ("builtin" in cur) {
      // Builtins derive from builtins by restriction (their hierarchy is not modelled here): a builtin head type
      // accepts a builtin member type; a declared head type cannot be the base of a builtin.
      if (!("builtin" in target)) return false;
      methods.add("r");
      break;
    }
    let step: { method: string; base: TypeDef };
    try {
      step = baseStep(ctx, cur);
    } catch {
      return false;
    }
    methods.add(step.method);
    if (!sameType(step.base, target)) typeBlock(step.base);
    if (sameType(step.base, ANY_TYPE) && !sameType(step.base, target)) return false;
    cur = step.base;
  }
  for (const m of methods) if (prohibited.has(m)) return false;
  return true;
}

/**
 * The element declarations that may appear where a content model names `head`, besides the head itself: every
 * member of its substitution group, transitively, that is not abstract and that the head does not block, in
 * declaration order. Empty when the head blocks substitution or has no members.
 */
export function substitutesFor(ctx: Ctx, head: Decl): Decl[] {
  const block = disallowed(head);
  if (block.has("s")) return [];
  const byHead = membersByHead(ctx.set);
  const out: Decl[] = [];
  const seen = new Set<string>([key(head.name)]);
  const queue = [head];
  for (let i = 0; i < queue.length; i++) {
    for (const m of byHead.get(key(queue[i]!.name)) ?? []) {
      const k = key(m.name);
      if (seen.has(k)) continue;
      seen.add(k);
      queue.push(m);
      if (attr(m.el, "abstract") !== "true" && derivationAllowed(ctx, m, head, block)) out.push(m);
    }
  }
  const order = new Map(ctx.set.all("element").map((d, i) => [d.el, i]));
  return out.sort((a, b) => (order.get(a.el) ?? 0) - (order.get(b.el) ?? 0));
}
