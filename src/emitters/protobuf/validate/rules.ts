/**
 * Validation options in the IR (ProtoRuleOption, as written) merged into one rules tree per field, oneof and
 * message, with the meaning protovalidate's buf/validate/validate.proto gives them. protoc-gen-validate's older
 * `(validate.rules)` is read into the same tree (its rule names are protovalidate's, bar a few renamed here).
 */
import { SpecError } from "../../../errors.js";
import type { ProtoOptionValue, ProtoRuleOption } from "../../../ir/model.js";

/** A scalar as written (ident, number text or string). */
export type RuleScalar = Extract<ProtoOptionValue, { kind: "ident" | "number" | "string" }>;
export type RuleValue = RuleScalar | RuleTree | readonly RuleValue[];
/** A message of rules: field name -> value; repeated fields hold arrays. */
export interface RuleTree {
  readonly [name: string]: RuleValue;
}

/** Fields of validate.proto's rule messages that are repeated (appended to, never replaced). */
const REPEATED = new Set(["in", "not_in", "example", "cel", "cel_expression", "fields", "oneof"]);

export interface FieldRules {
  readonly tree: RuleTree;
  /** Where the first option was written, for errors and warnings. */
  readonly at: ProtoRuleOption;
}

function isTree(v: RuleValue | undefined): v is RuleTree {
  // Scalars carry a string `kind`; no rule message of validate.proto has a field named "kind".
  return typeof v === "object" && v !== null && !Array.isArray(v) && typeof (v as { kind?: unknown }).kind !== "string";
}

/** Options of one extension merged into a tree (`extensions` lists the accepted names, first one wins the slot). */
export function mergeRules(options: readonly ProtoRuleOption[] | undefined, extension: string): FieldRules | undefined {
  const own = (options ?? []).filter((o) => o.extension === extension);
  if (own.length === 0) return undefined;
  const root: Record<string, RuleValue> = {};
  for (const o of own) setPath(root, o.path, toRule(o.value, o), o);
  return { tree: root, at: own[0]! };
}

function toRule(v: ProtoOptionValue, at: ProtoRuleOption): RuleValue {
  switch (v.kind) {
    case "message": {
      const out: Record<string, RuleValue> = {};
      for (const e of v.fields) setPath(out, [e.name], toRule(e.value, at), at);
      return out;
    }
    case "list":
      return v.items.map((i) => toRule(i, at));
    default:
      return v;
  }
}

function setPath(root: Record<string, RuleValue>, path: readonly string[], value: RuleValue, at: ProtoRuleOption): void {
  if (path.length === 0) {
    if (!isTree(value)) throw new SpecError(at.file, at.line, at.column, "expected a message value for this validation option");
    for (const [k, v] of Object.entries(value)) setPath(root, [k], v, at);
    return;
  }
  const [head, ...rest] = path as [string, ...string[]];
  if (rest.length > 0) {
    const existing = root[head];
    const child: Record<string, RuleValue> = isTree(existing) ? { ...existing } : {};
    setPath(child, rest, value, at);
    root[head] = child;
    return;
  }
  if (REPEATED.has(head)) {
    const prior = root[head];
    const list = Array.isArray(prior) ? prior : [];
    root[head] = [...list, ...(Array.isArray(value) ? value : [value])];
    return;
  }
  const existing = root[head];
  if (isTree(existing) && isTree(value)) {
    const merged: Record<string, RuleValue> = { ...existing };
    for (const [k, v] of Object.entries(value)) setPath(merged, [k], v, at);
    root[head] = merged;
    return;
  }
  root[head] = value;
}

/** protoc-gen-validate's field rules in protovalidate's terms. */
export function fromPgv(tree: RuleTree): RuleTree {
  const out: Record<string, RuleValue> = {};
  for (const [kind, rules] of Object.entries(tree)) {
    if (kind === "message") {
      if (isTree(rules)) {
        if (bool(rules["required"])) out["required"] = ident("true");
        if (bool(rules["skip"])) out["ignore"] = ident("IGNORE_ALWAYS");
      }
      continue;
    }
    if (!isTree(rules)) continue;
    const copy: Record<string, RuleValue> = {};
    for (const [k, v] of Object.entries(rules)) {
      if (k === "ignore_empty") {
        if (bool(v)) out["ignore"] = ident("IGNORE_IF_ZERO_VALUE");
      } else if (k === "required" && (kind === "timestamp" || kind === "duration" || kind === "any")) {
        if (bool(v)) out["required"] = ident("true");
      } else if ((k === "items" || k === "keys" || k === "values") && isTree(v)) copy[k] = fromPgv(v);
      else if (k !== "no_sparse") copy[k] = v;
    }
    out[kind] = copy;
  }
  return out;
}

const ident = (text: string): RuleScalar => ({ kind: "ident", text });

export function bool(v: RuleValue | undefined): boolean {
  const s = scalarOf(v);
  return s?.kind === "ident" && s.text === "true";
}

export function asTree(v: RuleValue | undefined): RuleTree | undefined {
  return isTree(v) ? v : undefined;
}

export function asList(v: RuleValue | undefined): readonly RuleValue[] {
  return Array.isArray(v) ? v : v === undefined ? [] : [v];
}

export function scalarOf(v: RuleValue | undefined): RuleScalar | undefined {
  return v !== undefined && !Array.isArray(v) && !isTree(v) ? (v as RuleScalar) : undefined;
}

/** The field's rules: protovalidate's `(buf.validate.field)`, else protoc-gen-validate's `(validate.rules)`. */
export function fieldRules(options: readonly ProtoRuleOption[] | undefined): FieldRules | undefined {
  const pv = mergeRules(options, "buf.validate.field");
  if (pv) return pv;
  const pgv = mergeRules(options, "validate.rules");
  return pgv ? { tree: fromPgv(pgv.tree), at: pgv.at } : undefined;
}

/** `ignore` as one of protovalidate's three behaviours. */
export function ignoreOf(tree: RuleTree | undefined): "unspecified" | "if_zero" | "always" {
  const v = scalarOf(tree?.["ignore"]);
  const text = v?.kind === "ident" || v?.kind === "number" ? v.text : "";
  if (text === "IGNORE_ALWAYS" || text === "3") return "always";
  if (text === "IGNORE_IF_ZERO_VALUE" || text === "IGNORE_IF_UNPOPULATED" || text === "IGNORE_IF_DEFAULT_VALUE" || text === "1" || text === "2") return "if_zero";
  return "unspecified";
}
