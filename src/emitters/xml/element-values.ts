import { stringLiteral } from "../../codegen/escape.js";
import type { Printable } from "../../codegen/generated-file.js";
import type { TypeExpr } from "../../ir/model.js";
import { code, type XmlContext } from "./context.js";
import { familyRootOf } from "./record-layout.js";
import { isSimple, lexicalOf, valueOf } from "./simple-values.js";

/**
 * One element holding one (non-null) value of any type: the statement that writes it and the expression that reads
 * it. Simple types are text, records go through their write/read functions (the `Any` dispatcher for a family),
 * xsd:anyType goes through the generic open-content code.
 */

export const OPEN_TYPES = "xmlOpenTypes";

export function writeElement(v: Printable, ns: string, local: string, t: TypeExpr, x: XmlContext, where: string): Printable {
  return code`${writeElementCall(v, ns, local, t, x, where)};`;
}

/** The call writing the element, as an expression (for arrow functions). */
export function writeElementCall(v: Printable, ns: string, local: string, t: TypeExpr, x: XmlContext, where: string): Printable {
  const name = stringLiteral(local);
  if (isSimple(t, x)) return code`w.simpleElement(${ns}, ${name}, ${lexicalOf(v, t, x)})`;
  if (t.kind === "ref") {
    const family = x.names.family(t.id);
    if (family) return code`write${family}(w, ${ns}, ${name}, ${v})`;
    return code`write${x.names.type(t.id)}(w, ${ns}, ${name}, ${v}, false)`;
  }
  return code`${x.rt("encodeAnyValue")}(w, ${ns}, ${name}, ${v}, ${OPEN_TYPES}, ${stringLiteral(where)})`;
}

export function readElement(node: string, path: Printable, t: TypeExpr, x: XmlContext): Printable {
  if (isSimple(t, x)) return valueOf(`${node}.text`, path, t, x);
  if (t.kind === "ref") {
    const family = x.names.family(t.id);
    if (family) return code`read${family}(${node}, ${path})`;
    const target = x.type(t.id);
    const root = target.kind === "record" && familyRootOf(target, x.types) === t.id;
    return code`read${x.names.type(t.id)}(${node}, ${path}${root ? ", false" : ""})`;
  }
  return code`${x.rt("decodeAnyValue")}(${node}, ${path}, ${OPEN_TYPES})`;
}

/** A JSON pointer segment as a string literal ("/name", with ~ and / escaped). */
export function segment(key: string): string {
  return stringLiteral(`/${key.replace(/~/g, "~0").replace(/\//g, "~1")}`);
}
