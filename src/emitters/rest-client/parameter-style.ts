import { stringLiteral } from "../../codegen/escape.js";
import type { HttpParameter, ScalarKind, TypeExpr, TypeId } from "../../ir/model.js";
import { parameterSerialization, parameterShape } from "../../ir/parameter-shape.js";
import { fieldPropertyName } from "../../naming/property-name.js";
import { lookupType, type TypesContext } from "../types/context.js";
import { recordProperties } from "../types/properties.js";

/**
 * What the REST client and server emitters need to know about a parameter's serialization: its style and explode
 * (defaults applied), how its value is handled (`scalar` and `scalar-list` get straight-line code, everything else
 * a coercion plan read by the runtime's restCoerce), and the plan itself as source text.
 */
export interface ParameterPlan {
  readonly style: string;
  readonly explode: boolean;
  /** `json`: described by `content` with a JSON media type, the value travels as JSON text. */
  readonly kind: "scalar" | "scalar-list" | "structured" | "json";
  /** "p", "a", "o" letters: what the value can be (the runtime's `shapes` argument). */
  readonly shapes: string;
}

export function parameterPlan(p: HttpParameter, tctx: TypesContext): ParameterPlan {
  const { style, explode } = parameterSerialization(p);
  const info = parameterShape(p.type, (id) => tctx.types.get(id));
  const shapes = ["primitive", "array", "object"].filter((s) => info.shapes.has(s as never)).map((s) => s[0]).join("");
  const json = p.content !== undefined && /json/i.test(p.content);
  // Other `content` media types (text/plain) carry the value's text as it is: a scalar.
  const kind = json ? "json" : p.content !== undefined || isScalar(p.type, tctx) ? "scalar"
    : p.type.kind === "list" && isScalar(p.type.of, tctx) ? "scalar-list" : "structured";
  return { style, explode, kind, shapes: shapes === "" ? "p" : shapes };
}

/** A single scalar (through aliases and enums): one text, one coercion. */
function isScalar(t: TypeExpr, tctx: TypesContext): boolean {
  if (t.kind === "scalar") return true;
  if (t.kind !== "ref") return false;
  const named = lookupType(tctx, t.id);
  return named.kind === "enum" || (named.kind === "alias" && isScalar(named.target, tctx));
}

const INTEGER_KINDS: ReadonlySet<ScalarKind> = new Set([
  "int32", "int64", "uint32", "uint64", "sint32", "sint64", "fixed32", "fixed64", "sfixed32", "sfixed64", "integer",
]);
const NUMBER_KINDS: ReadonlySet<ScalarKind> = new Set(["float", "double", "decimal"]);

/** A RestPlan before printing: an atom (`"integer"`) or a structure. */
type PlanNode =
  | string
  | { readonly list: PlanNode }
  | { readonly fields: readonly (readonly [string, PlanNode])[]; readonly rest?: PlanNode }
  | { readonly anyOf: readonly PlanNode[] };

/**
 * The runtime's RestPlan for a type, as a TypeScript expression: `"integer"`, `{ list: "string" }`,
 * `{ fields: [["gt", "integer"]], rest: "string" }`, `{ anyOf: [...] }`, on one line when it fits in 120 columns
 * and otherwise one field or alternative per line, indented from `indent` (the indentation of the line the plan
 * starts on). Keys go through stringLiteral; a type met again inside itself is "any" (the validator, when there
 * is one, checks the rest).
 */
export function planSource(t: TypeExpr, tctx: TypesContext, indent = "  "): string {
  return printPlan(planTree(t, tctx, new Set()), indent);
}

function planTree(t: TypeExpr, tctx: TypesContext, seen: ReadonlySet<TypeId>): PlanNode {
  switch (t.kind) {
    case "scalar":
      if (t.scalar === "any") return `"any"`;
      if (INTEGER_KINDS.has(t.scalar) || t.builtin === "integer") return `"integer"`;
      if (NUMBER_KINDS.has(t.scalar)) return `"number"`;
      return t.scalar === "boolean" ? `"boolean"` : `"string"`;
    case "literal":
      return typeof t.value === "number" ? `"number"` : typeof t.value === "boolean" ? `"boolean"` : `"string"`;
    case "list":
      return { list: planTree(t.of, tctx, seen) };
    case "map":
      return { fields: [], rest: planTree(t.value, tctx, seen) };
    case "union":
      return { anyOf: t.of.map((m) => planTree(m, tctx, seen)) };
    case "ref": {
      if (seen.has(t.id)) return `"any"`;
      const inner = new Set(seen).add(t.id);
      const named = lookupType(tctx, t.id);
      switch (named.kind) {
        case "enum":
          return planTree(named.base, tctx, inner);
        case "alias":
          return planTree(named.target, tctx, inner);
        case "union":
          return { anyOf: named.variants.map((v) => planTree(v.type, tctx, inner)) };
        case "record": {
          const fields = recordProperties(named, tctx).flatMap((prop) => {
            if (prop.kind !== "field") return [];
            const many = prop.occurs.max === "unbounded" || prop.occurs.max > 1;
            const plan = planTree(prop.field.type, tctx, inner);
            return [[stringLiteral(fieldPropertyName(prop.field)), many ? { list: plan } : plan] as const];
          });
          const rest = named.additionalProperties ? planTree(named.additionalProperties, tctx, inner) : undefined;
          return rest === undefined ? { fields } : { fields, rest };
        }
      }
    }
  }
}

const WIDTH = 120;

function inlinePlan(node: PlanNode): string {
  if (typeof node === "string") return node;
  if ("list" in node) return `{ list: ${inlinePlan(node.list)} }`;
  if ("anyOf" in node) return `{ anyOf: [${node.anyOf.map(inlinePlan).join(", ")}] }`;
  const fields = node.fields.map(([key, plan]) => `[${key}, ${inlinePlan(plan)}]`).join(", ");
  return `{ fields: [${fields}]${node.rest === undefined ? "" : `, rest: ${inlinePlan(node.rest)}`} }`;
}

function printPlan(node: PlanNode, indent: string): string {
  const inline = inlinePlan(node);
  if (typeof node === "string" || indent.length + inline.length <= WIDTH) return inline;
  if ("list" in node) return `{ list: ${printPlan(node.list, indent)} }`;
  const inner = `${indent}    `;
  if ("anyOf" in node) {
    return `{\n${indent}  anyOf: [\n${node.anyOf.map((p) => `${inner}${printPlan(p, inner)},\n`).join("")}${indent}  ],\n${indent}}`;
  }
  const fields = node.fields.map(([key, plan]) => `${inner}[${key}, ${printPlan(plan, inner)}],\n`).join("");
  const rest = node.rest === undefined ? "" : `${indent}  rest: ${printPlan(node.rest, `${indent}  `)},\n`;
  return `{\n${indent}  fields: [\n${fields}${indent}  ],\n${rest}${indent}}`;
}

/** The property names of an object parameter's record (for form-exploded objects), or undefined for a free-form map. */
export function objectKeys(t: TypeExpr, tctx: TypesContext): string[] | undefined {
  if (t.kind !== "ref") return undefined;
  const named = lookupType(tctx, t.id);
  if (named.kind === "alias") return objectKeys(named.target, tctx);
  if (named.kind !== "record" || named.additionalProperties) return undefined;
  return recordProperties(named, tctx).flatMap((prop) => (prop.kind === "field" ? [fieldPropertyName(prop.field)] : []));
}
