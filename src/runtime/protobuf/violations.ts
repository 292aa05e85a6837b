/**
 * protovalidate's `buf.validate.Violations` message, written by hand with the protobuf primitives (the runtime has
 * no generated code of its own): what servers send as an error detail when a request breaks its rules. Field paths
 * carry the element names and subscripts specforge knows (`field_name`, `index`, `string_key`, `int_key`,
 * `bool_key`); field numbers and types are left out.
 */
import type { ValidationIssue } from "../validation.js";
import { pbFinish, pbFork, pbJoin, pbWriteBool, pbWriteInt64, pbWriteString, pbWriter, pbWriteTag, pbWriteUint64, type PbWriter } from "./writer.js";

/** Violations { repeated Violation violations = 1; } for the issues that carry a protovalidate field path. */
export function encodeViolations(issues: readonly ValidationIssue[]): Uint8Array {
  const w = pbWriter();
  for (const issue of issues) {
    if (issue.field === undefined) continue;
    pbWriteTag(w, 10);
    const at = pbFork(w);
    // Violation: rule_id = 2, message = 3, for_key = 4, field = 5 (FieldPath).
    pbWriteTag(w, 18);
    pbWriteString(w, issue.rule);
    pbWriteTag(w, 26);
    pbWriteString(w, issue.message);
    if (issue.forKey) {
      pbWriteTag(w, 32);
      pbWriteBool(w, true);
    }
    if (issue.field !== "") {
      pbWriteTag(w, 42);
      const path = pbFork(w);
      for (const element of pathElements(issue.field)) writeElement(w, element);
      pbJoin(w, path);
    }
    pbJoin(w, at);
  }
  return pbFinish(w);
}

type Subscript = { index: bigint } | { string: string } | { int: bigint } | { bool: boolean };
interface Element {
  name: string;
  subscript?: Subscript;
}

/** "a.b[2].c[\"k\"]" -> elements; extension names in brackets ("[pkg.ext]") are names. */
export function pathElements(path: string): Element[] {
  const out: Element[] = [];
  let i = 0;
  while (i < path.length) {
    if (path[i] === ".") i++;
    let name = "";
    // At the start of an element a bracket is an extension's name; after a name it is a subscript.
    if (path[i] === "[") {
      const end = path.indexOf("]", i);
      name = path.slice(i, end + 1);
      i = end + 1;
    } else {
      while (i < path.length && path[i] !== "." && path[i] !== "[") name += path[i++];
    }
    const element: Element = { name };
    if (path[i] === "[") {
      let end: number;
      let sub: Subscript;
      if (path[i + 1] === '"') {
        let j = i + 2;
        while (path[j] !== '"') j += path[j] === "\\" ? 2 : 1;
        sub = { string: JSON.parse(path.slice(i + 1, j + 1)) as string };
        end = j + 1;
      } else {
        end = path.indexOf("]", i);
        const text = path.slice(i + 1, end);
        sub = text === "true" || text === "false" ? { bool: text === "true" } : { index: BigInt(text) };
      }
      element.subscript = sub;
      i = end + 1;
    }
    out.push(element);
  }
  return out;
}

function writeElement(w: PbWriter, e: Element): void {
  // FieldPathElement: field_name = 2, index = 6, bool_key = 7, int_key = 8, string_key = 10.
  pbWriteTag(w, 10);
  const at = pbFork(w);
  pbWriteTag(w, 18);
  pbWriteString(w, e.name);
  const s = e.subscript;
  if (s !== undefined) {
    if ("string" in s) {
      pbWriteTag(w, 82);
      pbWriteString(w, s.string);
    } else if ("bool" in s) {
      pbWriteTag(w, 56);
      pbWriteBool(w, s.bool);
    } else if ("index" in s && s.index >= 0n) {
      // A list index or a non-negative integer key: index (uint64) is what a list has; keys are kept as int_key.
      pbWriteTag(w, 48);
      pbWriteUint64(w, s.index);
    } else if ("index" in s) {
      pbWriteTag(w, 64);
      pbWriteInt64(w, s.index);
    }
  }
  pbJoin(w, at);
}
