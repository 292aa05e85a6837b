import { xmlNotesOf } from "./undeclared.js";
import type { ValidationIssue } from "../validation.js";
import { pointerJoin } from "../validation.js";
import { linearPattern } from "../linear-pattern.js";
import { isXsdOpenItem, isXsdRecord, xsdIssue } from "./checks.js";

/**
 * The structural walk of the generated XSD validators, driven by one table per record type: occurrence, nillable,
 * array and open-content rules are the same code for every record, so the generated validate.ts holds the rules
 * (one line per property) and the value checks (`check<Type>` functions, runtime primitives) instead of a copy of
 * this walk per property.
 */

type Issues = ValidationIssue[];

/** Checks one (non-null) value, pushing issues; true when it had the right type. */
export type XsdValueCheck = (value: unknown, path: string, issues: Issues) => boolean;

/** Which namespaces an xsd:any admits: every one, the listed ones ("" = unqualified), or all but the listed ones. */
export type XsdWildcardNamespaces =
  | { readonly any: true }
  | { readonly allowed: readonly string[] }
  | { readonly excluded: readonly string[] };

/**
 * An xsd:any's rule: its namespace constraint as written and as a test, and for a strict wildcard the global
 * elements its items are validated against (by "{ns}local"; an item of no declaration is not looked into).
 */
export interface XsdWildcardRule {
  readonly namespace: string;
  readonly namespaces: XsdWildcardNamespaces;
  readonly elements?: (clarkName: string) => XsdElementRule | undefined;
}

/** A global element as a strict wildcard's items are checked: the value check of its type, and nillable. */
export interface XsdElementRule {
  readonly nillable: boolean;
  readonly check?: XsdValueCheck;
}

/**
 * The global elements of a generated validate.ts from `["{ns}local", nillable (0/1), check]` lines (the check by the
 * name the file's lookup resolves, "" for none).
 */
export function xsdElementRules(lines: readonly (readonly [name: string, nillable: number, check: string])[], lookup: (check: string) => XsdValueCheck): ReadonlyMap<string, XsdElementRule> {
  const map = new Map<string, XsdElementRule>();
  for (const [name, nillable, check] of lines) map.set(name, { nillable: nillable !== 0, ...(check ? { check: lookup(check) } : {}) });
  return map;
}

/** A strict wildcard's item: valid against the global element it names, when the rule knows one. */
function checkDeclared(wildcard: XsdWildcardRule, item: { readonly ns: string; readonly name: string; readonly value: unknown }, path: string, issues: Issues): void {
  const decl = wildcard.elements?.("{" + item.ns + "}" + item.name);
  if (decl === undefined) return;
  if (item.value === null) {
    if (!decl.nillable) xsdIssue(issues, path, "nullable", `${item.name} is not nillable`);
  } else if (item.value !== undefined) decl.check?.(item.value, path, issues);
}

/** One property of a record, in schema order. */
export interface XsdPropertyRule {
  /** The property of the TypeScript value. */
  readonly key: string;
  /** The element or attribute name messages use, when it differs from the key. */
  readonly name?: string;
  /** minOccurs (default 0: optional). */
  readonly min?: number;
  /** maxOccurs of a repeated property (default unbounded). */
  readonly max?: number;
  /** A repeated element: the value is an array. */
  readonly list?: boolean;
  /** xsi:nil is allowed: null stands for it (for a list, null items). */
  readonly nillable?: boolean;
  /** Checks each present value (none for xsd:anyType). */
  readonly check?: XsdValueCheck;
  /** Open content (xsd:any): an array of { ns, name, value } whose namespaces follow the wildcard. */
  readonly wildcard?: XsdWildcardRule;
  /** A repeating group kept in document order: an array of `{ kind, value }` items (see XsdOrderedGroup). */
  readonly ordered?: XsdOrderedGroup;
  /** xsd:anyAttribute's attributes ("local" or "{ns}local" -> value), whose namespaces follow its constraint. */
  readonly attributes?: XsdWildcardRule;
}

/** The items of a group kept in document order, and the order its content model allows. */
export interface XsdOrderedGroup {
  /** Item kinds in schema order: each kind's value check (none: xsd:anyType), nillable, or wildcard. */
  readonly items: readonly XsdOrderedItem[];
  /**
   * The content model as a pattern over the items' kinds, the n-th kind of `items` being the character U+E000 + n
   * (matched in linear time, see linear-pattern.ts); absent when too large to check.
   */
  readonly model?: string;
  /** The content model as the schema writes it, for messages: "(a | b)*". */
  readonly describe: string;
}

export interface XsdOrderedItem {
  readonly kind: string;
  readonly check?: XsdValueCheck;
  readonly nillable?: boolean;
  readonly wildcard?: XsdWildcardRule;
}

/** The rules of one record type. */
export interface XsdRecordRules {
  /** The XSD type name (messages, and the `$type` value of a type in an xsi:type family). */
  readonly name: string;
  /** In an xsi:type family: `$type` must name this type ("required"), or may be left out at the family root. */
  readonly xsiType?: "required" | "optional";
  readonly properties: readonly XsdPropertyRule[];
}

/** Flags of an XsdPropertySpec. */
export const XSD_PROPERTY_REQUIRED = 1;
export const XSD_PROPERTY_LIST = 2;
export const XSD_PROPERTY_NILLABLE = 4;

/**
 * The common property rule as a generated validate.ts writes it: `[key, flags, check]`, flags being
 * XSD_PROPERTY_REQUIRED (minOccurs 1) + XSD_PROPERTY_LIST + XSD_PROPERTY_NILLABLE, and `check` the name of the value
 * check ("" or absent: none), resolved through the file's lookup when the table is built. Data rather than object
 * literals naming functions: tsc gives every such literal a type and symbols of its own and reduces the table to a
 * union of them, which was most of the time it spent on a large validate.ts; a tuple of strings and numbers is one
 * type for every line.
 */
export type XsdPropertySpec = readonly [key: string, flags: number, check?: string];

/**
 * The rules of a record from its generated table: `[key, flags, check]` lines (XsdPropertySpec) or, for what they
 * cannot say (a wildcard, minOccurs above 1, a bounded list, a wire name other than the key), XsdPropertyRule objects.
 */
export function xsdRecordRules(
  name: string,
  properties: readonly (XsdPropertySpec | XsdPropertyRule)[],
  lookup: (check: string) => XsdValueCheck,
  xsiType?: "required" | "optional",
): XsdRecordRules {
  const rules = properties.map((p): XsdPropertyRule => {
    if (!Array.isArray(p)) return p as XsdPropertyRule;
    const [key, flags, check] = p as XsdPropertySpec;
    return {
      key,
      ...((flags & XSD_PROPERTY_REQUIRED) !== 0 ? { min: 1 } : {}),
      list: (flags & XSD_PROPERTY_LIST) !== 0,
      nillable: (flags & XSD_PROPERTY_NILLABLE) !== 0,
      ...(check ? { check: lookup(check) } : {}),
    };
  });
  return { name, ...(xsiType !== undefined ? { xsiType } : {}), properties: rules };
}

/**
 * A record value against its rules: false (with an issue) when it is not an object, otherwise the `$type` rule and
 * every property rule in order; true when it was an object (so the caller can go on to xsd:choice rules).
 */
export function checkXsdRecord(value: unknown, rules: XsdRecordRules, path: string, issues: Issues): value is { readonly [key: string]: unknown } {
  if (!isXsdRecord(value)) {
    xsdIssue(issues, path, "type", `expected an object (${rules.name})`);
    return false;
  }
  if (rules.xsiType !== undefined && value.$type !== rules.name && (rules.xsiType === "required" || value.$type !== undefined)) {
    xsdIssue(issues, path + "/$type", "type", `must be "${rules.name}"`);
  }
  for (const rule of rules.properties) {
    const v = value[rule.key];
    const p = pointerJoin(path, rule.key);
    if (rule.ordered) checkOrdered(v, rule, rule.ordered, p, issues);
    else if (rule.wildcard) checkWildcard(v, rule, p, issues);
    else if (rule.attributes) checkAttributes(v, rule.attributes, p, issues);
    else if (rule.list) checkList(v, rule, p, issues);
    else checkSingle(v, rule, p, issues);
  }
  // What the decoder read past without a declaration (undeclared.ts): present only on values it noted something on.
  const notes = xmlNotesOf(value);
  if (notes !== undefined) for (const n of notes) xsdIssue(issues, path + n.path, n.rule, n.message);
  return true;
}

function checkSingle(v: unknown, rule: XsdPropertyRule, path: string, issues: Issues): void {
  const name = rule.name ?? rule.key;
  if (v === undefined) {
    if ((rule.min ?? 0) >= 1) xsdIssue(issues, path, "required", `${name} is required`);
    return;
  }
  if (v === null) {
    if (!rule.nillable) xsdIssue(issues, path, "nullable", `${name} is not nillable`);
    return;
  }
  rule.check?.(v, path, issues);
}

function checkList(v: unknown, rule: XsdPropertyRule, path: string, issues: Issues): void {
  const name = rule.name ?? rule.key;
  const min = rule.min ?? 0;
  if (v === undefined) {
    if (min >= 1) xsdIssue(issues, path, "required", `${name} is required`);
    return;
  }
  if (v === null || !Array.isArray(v)) {
    xsdIssue(issues, path, v === null ? "nullable" : "type", `${name} must be an array`);
    return;
  }
  if (v.length < min) xsdIssue(issues, path, "minOccurs", `at least ${min} ${name}`);
  if (rule.max !== undefined && v.length > rule.max) xsdIssue(issues, path, "maxOccurs", `at most ${rule.max} ${name}`);
  for (let i = 0; i < v.length; i++) {
    const item: unknown = v[i];
    if (item === null) {
      if (!rule.nillable) xsdIssue(issues, path + "/" + i, "nullable", `${name} is not nillable`);
      continue;
    }
    rule.check?.(item, path + "/" + i, issues);
  }
}

function checkWildcard(v: unknown, rule: XsdPropertyRule, path: string, issues: Issues): void {
  const min = rule.min ?? 0;
  if (v !== undefined) {
    if (!Array.isArray(v)) xsdIssue(issues, path, "type", "open content must be an array");
    else {
      if (rule.max !== undefined && v.length > rule.max) xsdIssue(issues, path, "maxOccurs", `at most ${rule.max} elements`);
      const wildcard = rule.wildcard!;
      v.forEach((item: unknown, i: number) => {
        if (!isXsdOpenItem(item)) xsdIssue(issues, path + "/" + i, "type", "expected { ns, name, value }");
        else if (!admits(wildcard.namespaces, item.ns)) {
          xsdIssue(issues, path + "/" + i + "/ns", "namespace", `namespace not allowed here (xsd:any namespace="${wildcard.namespace}")`);
        } else if (wildcard.elements !== undefined) checkDeclared(wildcard, item, path + "/" + i + "/value", issues);
      });
    }
  }
  if (min >= 1 && (v === undefined || (Array.isArray(v) && v.length < min))) xsdIssue(issues, path, "minOccurs", `at least ${min} elements`);
}

function checkAttributes(v: unknown, wildcard: XsdWildcardRule, path: string, issues: Issues): void {
  if (v === undefined) return;
  if (typeof v !== "object" || v === null || Array.isArray(v)) {
    xsdIssue(issues, path, "type", "expected an object of attribute values");
    return;
  }
  for (const [name, value] of Object.entries(v)) {
    const at = pointerJoin(path, name);
    if (typeof value !== "string") xsdIssue(issues, at, "type", "expected a string");
    const close = name.startsWith("{") ? name.indexOf("}") : -1;
    const ns = close < 0 ? "" : name.slice(1, close);
    if (!admits(wildcard.namespaces, ns)) xsdIssue(issues, at, "namespace", `namespace not allowed here (xsd:anyAttribute namespace="${wildcard.namespace}")`);
  }
}

/** The first item of each kind, by kind (built on first use per group). */
const kindIndexes = new WeakMap<XsdOrderedGroup, Map<string, number>>();

function checkOrdered(v: unknown, rule: XsdPropertyRule, group: XsdOrderedGroup, path: string, issues: Issues): void {
  const name = rule.name ?? rule.key;
  const min = rule.min ?? 0;
  if (v === undefined) {
    if (min >= 1) xsdIssue(issues, path, "required", `${name} is required`);
    return;
  }
  if (!Array.isArray(v)) {
    xsdIssue(issues, path, v === null ? "nullable" : "type", `${name} must be an array of { kind, value }`);
    return;
  }
  let index = kindIndexes.get(group);
  if (index === undefined) {
    index = new Map();
    group.items.forEach((item, i) => index!.set(item.kind, i));
    kindIndexes.set(group, index);
  }
  let word = "";
  let known = true;
  for (let i = 0; i < v.length; i++) {
    const item: unknown = v[i];
    const at = path + "/" + i;
    if (!isXsdRecord(item)) {
      xsdIssue(issues, at, "type", "expected { kind, value }");
      known = false;
      continue;
    }
    const k = typeof item.kind === "string" ? index.get(item.kind) : undefined;
    if (k === undefined) {
      xsdIssue(issues, at + "/kind", "type", `must be one of ${group.items.map((x) => x.kind).join(", ")}`);
      known = false;
      continue;
    }
    word += String.fromCharCode(0xe000 + k);
    const spec = group.items[k]!;
    const value = item.value;
    if (spec.wildcard) {
      if (!isXsdOpenItem(value)) xsdIssue(issues, at + "/value", "type", "expected { ns, name, value }");
      else if (!admits(spec.wildcard.namespaces, value.ns)) {
        xsdIssue(issues, at + "/value/ns", "namespace", `namespace not allowed here (xsd:any namespace="${spec.wildcard.namespace}")`);
      } else if (spec.wildcard.elements !== undefined) checkDeclared(spec.wildcard, value, at + "/value/value", issues);
    } else if (value === null) {
      if (!spec.nillable) xsdIssue(issues, at + "/value", "nullable", `${spec.kind} is not nillable`);
    } else if (value === undefined) xsdIssue(issues, at + "/value", "required", "value is required");
    else spec.check?.(value, at + "/value", issues);
  }
  if (v.length < min) xsdIssue(issues, path, "minOccurs", `at least ${min} elements (${group.describe})`);
  else if (known && group.model !== undefined && !linearPattern(group.model, "u").test(word)) {
    xsdIssue(issues, path, "content", `the elements do not follow the content model ${group.describe}`);
  }
}

function admits(rule: XsdWildcardNamespaces, ns: string): boolean {
  if ("allowed" in rule) return rule.allowed.includes(ns);
  if ("excluded" in rule) return !rule.excluded.includes(ns);
  return true;
}

/** What `validate<Type>(value)` returns: every issue of one check, from the root ("" is the value itself). */
export function runXsdCheck(value: unknown, check: XsdValueCheck): ValidationIssue[] {
  const issues: Issues = [];
  check(value, "", issues);
  return issues;
}
