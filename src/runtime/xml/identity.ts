import { XmlDecodeError } from "./errors.js";
import { isNil, resolveQName, xsiType, type XmlElementNode } from "./node.js";

/**
 * XSD identity constraints (xs:unique, xs:key, xs:keyref; XSD 1.0 3.11.4) over a decoded document's element tree,
 * as a generated xml.ts lists them: `[ns, element, kind, "{ns}name", "{ns}refer" or "", selector, fields]`, the
 * XPaths compiled by the generator into alternatives of steps ("//" first for `.//`, ".", "*", "{ns}*",
 * "{ns}local", a field's last step "@" + a name test). A constraint applies to every element of the declaring
 * element's name. Field values compare in their value space (XSD 1.0 3.11.4: values of different primitive types
 * are never equal): `types` gives it per element and attribute name ("{ns}local", "@{ns}local"; an xsi:type naming
 * an XSD builtin wins), and the value is made canonical in it (decimals, floating point, booleans); a name of no
 * known space compares its whitespace-collapsed text.
 */
export type XmlIdentityConstraint = readonly [
  ns: string,
  local: string,
  kind: string,
  name: string,
  refer: string,
  selector: readonly (readonly string[])[],
  fields: readonly (readonly (readonly string[])[])[],
];

/** Throws an XmlDecodeError naming the first constraint the document breaks. */
export function checkXmlIdentity(root: XmlElementNode, constraints: readonly XmlIdentityConstraint[], types: ReadonlyMap<string, string> = new Map()): void {
  if (constraints.length === 0) return;
  spaces = types;
  const byElement = new Map<string, XmlIdentityConstraint[]>();
  for (const c of constraints) {
    const k = "{" + c[0] + "}" + c[1];
    const list = byElement.get(k);
    if (list === undefined) byElement.set(k, [c]);
    else list.push(c);
  }
  const byName = new Map<string, XmlIdentityConstraint>();
  for (const c of constraints) if (!byName.has(c[3])) byName.set(c[3], c);
  // Iterative preorder walk (documents may nest deeply), with the element path for messages.
  const stack: [XmlElementNode, string][] = [[root, "/" + root.local]];
  while (stack.length > 0) {
    const [node, where] = stack.pop()!;
    const own = byElement.get("{" + node.ns + "}" + node.local);
    if (own !== undefined) for (const c of own) checkOne(node, where, c, byElement, byName);
    for (let i = node.children.length - 1; i >= 0; i--) stack.push([node.children[i]!, where + "/" + node.children[i]!.local]);
  }
}

function fail(where: string, c: XmlIdentityConstraint, message: string): never {
  throw new XmlDecodeError("", `${where}: xsd:${c[2]} ${c[3]}: ${message}`);
}

/** The key-sequences of one constraint at one element: every selected node with all its fields (checked per kind). */
function table(node: XmlElementNode, where: string, c: XmlIdentityConstraint): Set<string> {
  const keys = new Set<string>();
  for (const target of select(node, c[5])) {
    const values: string[] = [];
    for (const field of c[6]) {
      const found = evaluate(target, field);
      if (found.length > 1) fail(where, c, `a field selects ${found.length} nodes of <${target.local}>, at most one is allowed`);
      const v = found[0];
      if (v === undefined || v === null) {
        if (c[2] === "key") fail(where, c, v === null ? `a key field of <${target.local}> is nil` : `<${target.local}> lacks a key field`);
        values.length = 0;
        break;
      }
      values.push(v);
    }
    if (values.length !== c[6].length) continue;
    const k = JSON.stringify(values);
    if (c[2] !== "keyref" && keys.has(k)) fail(where, c, `duplicate value ${shown(values)}`);
    keys.add(k);
  }
  return keys;
}

function checkOne(
  node: XmlElementNode,
  where: string,
  c: XmlIdentityConstraint,
  byElement: ReadonlyMap<string, readonly XmlIdentityConstraint[]>,
  byName: ReadonlyMap<string, XmlIdentityConstraint>,
): void {
  const keys = table(node, where, c);
  if (c[2] !== "keyref") return;
  const referred = byName.get(c[4]);
  if (referred === undefined || referred[2] === "keyref") return;
  // The referenced key's values at this element: its tables here and below (XSD 1.0 3.11.5, node tables).
  const known = new Set<string>();
  const stack: XmlElementNode[] = [node];
  while (stack.length > 0) {
    const n = stack.pop()!;
    if (n.ns === referred[0] && n.local === referred[1] && byElement.has("{" + n.ns + "}" + n.local)) {
      for (const k of table(n, where, referred)) known.add(k);
    }
    for (const child of n.children) stack.push(child);
  }
  for (const k of keys) if (!known.has(k)) fail(where, c, `no ${referred[3]} has the value ${shown(JSON.parse(k) as string[])}`);
}

function matches(n: XmlElementNode, test: string): boolean {
  if (test === "*") return true;
  const close = test.indexOf("}");
  const ns = test.slice(1, close);
  const local = test.slice(close + 1);
  return n.ns === ns && (local === "*" || n.local === local);
}

/** The element nodes a selector selects from `node`, in document order without repeats. */
function select(node: XmlElementNode, alternatives: readonly (readonly string[])[]): XmlElementNode[] {
  const out = new Set<XmlElementNode>();
  for (const steps of alternatives) for (const n of walk(node, steps)) out.add(n);
  return [...out];
}

function walk(node: XmlElementNode, steps: readonly string[]): XmlElementNode[] {
  let set: XmlElementNode[] = [node];
  let i = 0;
  if (steps[0] === "//") {
    set = descendantsOrSelf(node);
    i = 1;
  }
  for (; i < steps.length; i++) {
    const s = steps[i]!;
    if (s === "." || s.startsWith("@")) continue;
    const next: XmlElementNode[] = [];
    for (const n of set) for (const child of n.children) if (matches(child, s)) next.push(child);
    set = next;
  }
  return set;
}

function descendantsOrSelf(node: XmlElementNode): XmlElementNode[] {
  const out: XmlElementNode[] = [];
  const stack = [node];
  while (stack.length > 0) {
    const n = stack.pop()!;
    out.push(n);
    for (let i = n.children.length - 1; i >= 0; i--) stack.push(n.children[i]!);
  }
  return out;
}

/** A field's values at a selected node: text per element or attribute found, null for a nil element. */
function evaluate(target: XmlElementNode, alternatives: readonly (readonly string[])[]): (string | null)[] {
  const out: (string | null)[] = [];
  // A node-set: a node selected by several alternatives counts once.
  const seen = new Set<object>();
  for (const steps of alternatives) {
    const last = steps[steps.length - 1]!;
    const nodes = walk(target, steps);
    if (last.startsWith("@")) {
      const test = last.slice(1);
      for (const n of nodes) {
        for (const a of n.attrs) {
          if (seen.has(a)) continue;
          if (test === "*" ? a.ns !== "http://www.w3.org/2001/XMLSchema-instance" : matches({ ns: a.ns, local: a.local } as XmlElementNode, test)) {
            seen.add(a);
            out.push(keyValue(spaces.get("@{" + a.ns + "}" + a.local) ?? "string", a.value, n));
          }
        }
      }
      continue;
    }
    for (const n of nodes) {
      if (seen.has(n)) continue;
      seen.add(n);
      if (n.children.length > 0) throw new XmlDecodeError("", `identity constraint field <${n.local}> has element content, a field must select a simple value`);
      if (isNil(n)) {
        out.push(null);
        continue;
      }
      const t = xsiType(n);
      const space = (t !== undefined && t.ns === XSD ? builtinSpace(t.local) : undefined) ?? (t !== undefined && t.ns !== XSD ? "{" + t.ns + "}" + t.local : undefined) ?? spaces.get("{" + n.ns + "}" + n.local) ?? "string";
      // xsd:anyType content with no xsi:type has no simple value to compare: never equal to another.
      out.push(space === "any" ? `any ${++untyped}` : keyValue(space, n.text, n));
    }
  }
  return out;
}

function collapse(s: string): string {
  return s.replace(/[ \t\r\n]+/g, " ").trim();
}

/** Numbers the values of xsd:anyType fields (each its own value). */
let untyped = 0;

/** The value spaces of the document being checked (set by checkXmlIdentity, which runs to the end synchronously). */
let spaces: ReadonlyMap<string, string> = /* @__PURE__ */ new Map();

const XSD = "http://www.w3.org/2001/XMLSchema";
const DECIMAL_BUILTINS = /* @__PURE__ */ new Set(["decimal", "integer", "nonPositiveInteger", "negativeInteger", "long", "int", "short", "byte", "nonNegativeInteger", "unsignedLong", "unsignedInt", "unsignedShort", "unsignedByte", "positiveInteger"]);
const STRING_BUILTINS = /* @__PURE__ */ new Set(["token", "language", "Name", "NCName", "NMTOKEN", "ID", "IDREF", "ENTITY"]);

/** The value space of an xsi:type naming an XSD builtin. */
function builtinSpace(local: string): string | undefined {
  if (DECIMAL_BUILTINS.has(local)) return "decimal";
  if (local === "string" || local === "normalizedString") return "string";
  if (STRING_BUILTINS.has(local)) return "token";
  if (local === "hexBinary" || local === "base64Binary" || local === "float" || local === "double" || local === "boolean") return local;
  return undefined;
}

/** A field's value as compared: its value space and the canonical form of the text in it. */
function keyValue(space: string, text: string, at: XmlElementNode): string {
  // xsd:string keeps its whitespace; every other type's lexical space collapses it.
  if (space === "string") return "string " + text;
  const v = collapse(text);
  switch (space) {
    case "token":
      return "string " + v;
    case "QName": {
      // Prefixes are resolved in the element's bindings: p:x and q:x are equal when p and q name one namespace.
      const q = resolveQName(at, v);
      return q === undefined ? "QName " + v : `QName {${q.ns}}${q.local}`;
    }
    case "decimal": {
      const m = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)$/.test(v) ? /^([+-]?)0*(\d*)(?:\.(\d*?)0*)?$/.exec(v) : null;
      if (m === null) return space + " " + v;
      const int = m[2] === "" ? "0" : m[2]!;
      const frac = m[3] ?? "";
      const zero = int === "0" && frac === "";
      return `decimal ${m[1] === "-" && !zero ? "-" : ""}${int}${frac === "" ? "" : "." + frac}`;
    }
    case "float":
    case "double": {
      const n = v === "INF" ? Infinity : v === "-INF" ? -Infinity : v === "NaN" ? NaN : Number(v);
      return `${space} ${Number.isNaN(n) && v !== "NaN" ? v : String(n)}`;
    }
    case "boolean":
      return `boolean ${v === "1" ? "true" : v === "0" ? "false" : v}`;
    case "hexBinary":
      return `hexBinary ${v.toUpperCase()}`;
    default:
      return space + " " + v;
  }
}

/** Key values for messages: the canonical text without its value space. */
function shown(values: readonly string[]): string {
  return values.map((v) => JSON.stringify(v.slice(v.indexOf(" ") + 1))).join(", ");
}

/**
 * xsd:ID and IDREF(S) over a document (XSD 1.0 Part 2 3.3.8-3.3.10, validation rule ID/IDREF table): every ID value
 * is unique in the document, and every IDREF names an ID of it. `kinds` gives the names ("{ns}local",
 * "@{ns}local") of type ID, IDREF, IDREFS, or IDS (a list of ID), and "skip" for elements whose content a
 * processContents="skip" wildcard takes (not looked into).
 */
export function checkXmlIds(root: XmlElementNode, kinds: ReadonlyMap<string, string>): void {
  const ids = new Set<string>();
  const refs: string[] = [];
  const take = (kind: string, text: string, where: string): void => {
    const v = collapse(text);
    if (kind === "ID" || kind === "IDS") {
      for (const id of kind === "ID" ? [v] : v.split(" ")) {
        if (id === "") continue;
        if (ids.has(id)) throw new XmlDecodeError("", `${where}: ID ${JSON.stringify(id)} is not unique in the document`);
        ids.add(id);
      }
    } else if (kind === "IDREF") refs.push(v);
    else if (kind === "IDREFS") for (const r of v.split(" ")) if (r !== "") refs.push(r);
  };
  const stack: [XmlElementNode, string][] = [[root, "/" + root.local]];
  while (stack.length > 0) {
    const [n, where] = stack.pop()!;
    const kind = kinds.get("{" + n.ns + "}" + n.local);
    if (kind !== undefined && kind !== "skip" && !isNil(n)) take(kind, n.text, where);
    for (const a of n.attrs) {
      const k = kinds.get("@{" + a.ns + "}" + a.local);
      if (k !== undefined) take(k, a.value, where + "/@" + a.local);
    }
    // The content of a processContents="skip" wildcard is not assessed.
    if (kind === "skip") continue;
    for (let i = n.children.length - 1; i >= 0; i--) stack.push([n.children[i]!, where + "/" + n.children[i]!.local]);
  }
  for (const r of refs) if (!ids.has(r)) throw new XmlDecodeError("", `IDREF ${JSON.stringify(r)} names no ID of the document`);
}

/** What checkXmlDocument reads of a codec table's set: its identity constraints, their value spaces, its ID names. */
export interface XmlDocumentRules {
  readonly identity: readonly XmlIdentityConstraint[];
  readonly identityTypes: ReadonlyMap<string, string>;
  readonly ids: ReadonlyMap<string, string> | undefined;
}

/**
 * The checks of a whole decoded document: identity constraints and ID/IDREF. A generated xml.ts whose schema has
 * either hands this function to its codec table (`documentCheck`), so code of other schemas never bundles it.
 */
export function checkXmlDocument(root: XmlElementNode, rules: XmlDocumentRules): void {
  if (rules.identity.length > 0) checkXmlIdentity(root, rules.identity, rules.identityTypes);
  if (rules.ids !== undefined) checkXmlIds(root, rules.ids);
}
