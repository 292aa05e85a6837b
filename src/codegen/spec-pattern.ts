/**
 * The one place that decides how generated code matches a spec-supplied pattern (OpenAPI `pattern`, XSD
 * `xs:pattern` after translation): a plain RegExp where backtracking provably stays linear (backtrackSafe in
 * src/runtime/linear-pattern.ts states the rule), else the runtime's linear-time matcher (`linearPattern`). A
 * pattern with lookaround or a backreference cannot be matched in linear time in general; it keeps its RegExp
 * and the plan says why, for a comment (and warning) in generated code.
 */
import { backtrackSafe, linearSupport, parsePattern } from "../runtime/linear-pattern.js";

export type PatternPlan =
  | { readonly kind: "regexp" }
  | { readonly kind: "linear" }
  | { readonly kind: "backtracking"; readonly reason: string };

export function patternPlan(source: string, flags: "" | "u"): PatternPlan {
  const parsed = parsePattern(source, flags);
  if ("unsupported" in parsed) return { kind: "backtracking", reason: parsed.unsupported };
  if (backtrackSafe(parsed.node)) return { kind: "regexp" };
  const support = linearSupport(source, flags);
  return support.ok ? { kind: "linear" } : { kind: "backtracking", reason: support.reason };
}
