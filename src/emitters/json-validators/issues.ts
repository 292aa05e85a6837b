import { stringLiteral } from "../../codegen/escape.js";
import { js, type Code, type Lines } from "./code.js";
import type { Check, LeafChecks } from "./leaf-checks.js";

/** `issues.push({ path, rule, message })` for generated validate functions. */
export function pushIssue(out: Lines, indent: string, path: Code, rule: string, message: string, prefix = ""): void {
  const pathPart: Code = path === "path" ? "path" : js`path: ${path}`;
  out.add(indent, prefix, js`issues.push({ ${pathPart}, rule: ${stringLiteral(rule)}, message: ${stringLiteral(message)} });`);
}

/** Report each failed check: the type check first; constraints only when the type is right. */
export function reportLeaf(out: Lines, indent: string, c: LeafChecks, path: Code): void {
  if (!c.type) {
    for (const r of c.rules) reportCheck(out, indent, r, path);
    return;
  }
  if (c.rules.length === 0) {
    reportCheck(out, indent, c.type, path);
    return;
  }
  out.add(indent, "if (!(", c.type.ok, ")) {");
  pushIssue(out, `${indent}  `, path, c.type.rule, c.type.message);
  if (c.rules.length === 1) {
    out.add(indent, "} else if (!(", c.rules[0]!.ok, ")) {");
    pushIssue(out, `${indent}  `, path, c.rules[0]!.rule, c.rules[0]!.message);
    out.add(indent, "}");
    return;
  }
  out.add(indent, "} else {");
  for (const r of c.rules) reportCheck(out, `${indent}  `, r, path);
  out.add(indent, "}");
}

export function reportCheck(out: Lines, indent: string, c: Check, path: Code): void {
  out.add(indent, "if (!(", c.ok, ")) {");
  pushIssue(out, `${indent}  `, path, c.rule, c.message);
  out.add(indent, "}");
}

/** A JSON pointer segment for a fixed key, escaped at generation time ("~" -> "~0", "/" -> "~1"). */
export function childPath(path: Code, key: string): Code {
  return js`${path} + ${pathSegment(key)}`;
}

/** `"/key"` as a string literal: the JSON pointer segment of a fixed key. */
export function pathSegment(key: string): string {
  return stringLiteral(`/${key.replace(/~/g, "~0").replace(/\//g, "~1")}`);
}
