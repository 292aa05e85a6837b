/**
 * XSD identity constraints (xs:unique, xs:key, xs:keyref; XSD 1.0 3.11) of every element declaration, global or
 * local, with their selector and field XPaths compiled from the restricted subset XSD 1.0 allows
 * (`Path ( '|' Path )*`, `Path ::= ('.//')? Step ( '/' Step )*`, a field's last step may be an attribute) and their
 * names resolved in the schema's namespace bindings (an unprefixed name is in no namespace). A constraint whose XPath
 * is outside the subset is left out with a warning (degrade, never refuse).
 */
import type { IdentityConstraint, QName } from "../../ir/model.js";
import { type XmlElement, attr, resolveQName, specError } from "../xml/dom.js";
import { type Ctx, xsdChild, xsdChildren } from "./context.js";
import { key, type SchemaDoc } from "./resolve.js";

const KINDS = new Set(["unique", "key", "keyref"]);

export function identityConstraints(ctx: Ctx): IdentityConstraint[] {
  const out: IdentityConstraint[] = [];
  for (const schema of ctx.set.schemas) {
    const visit = (el: XmlElement, global: boolean): void => {
      for (const c of xsdChildren(el)) {
        if (c.name.local === "element") {
          const name = attr(c, "name")?.trim();
          if (name !== undefined) {
            const form = attr(c, "form") ?? schema.elementFormDefault;
            const element: QName = { ns: global || form === "qualified" ? schema.tns : "", local: name };
            for (const k of xsdChildren(c)) {
              if (!KINDS.has(k.name.local)) continue;
              const ic = ctx.recover(() => constraint(ctx, schema, k, element));
              if (ic) out.push(ic);
            }
          }
        }
        visit(c, false);
      }
    };
    visit(schema.el, true);
  }
  return out;
}

function constraint(ctx: Ctx, schema: SchemaDoc, el: XmlElement, element: QName): IdentityConstraint | undefined {
  const kind = el.name.local as IdentityConstraint["kind"];
  const name = attr(el, "name")?.trim();
  if (name === undefined && attr(el, "ref") !== undefined) {
    // XSD 1.1: a reference to a constraint declared on another element (the same constraint, applied here).
    ctx.warn(el, `xsd:${kind} ref='${attr(el, "ref")!.trim()}' (XSD 1.1) is not checked on this element`);
    return undefined;
  }
  if (name === undefined) throw specError(el, `xsd:${kind} without name=`);
  const refer = kind === "keyref" ? attr(el, "refer") : undefined;
  if (kind === "keyref" && refer === undefined) throw specError(el, "xsd:keyref without refer=");
  const selectorEl = xsdChild(el, "selector");
  const fieldEls = xsdChildren(el, "field");
  if (selectorEl === undefined || fieldEls.length === 0) throw specError(el, `xsd:${kind} needs an xsd:selector and at least one xsd:field`);
  const selector = compileXPath(selectorEl, attr(selectorEl, "xpath") ?? "", false);
  const fields = fieldEls.map((f) => compileXPath(f, attr(f, "xpath") ?? "", true));
  if (selector === undefined || fields.some((f) => f === undefined)) {
    ctx.warn(el, `xsd:${kind} ${name}: an XPath outside the XSD 1.0 subset; the constraint is not checked`);
    return undefined;
  }
  return {
    kind,
    name: { ns: schema.tns, local: name },
    ...(refer !== undefined ? { refer: ctx.set.qname(schema, el, refer) } : {}),
    element,
    selector,
    fields: fields as string[][][],
    origin: ctx.origin(el, `xsd ${kind} ${key({ ns: schema.tns, local: name })}`),
  };
}

const NCNAME = /^[\p{L}_][\p{L}\p{N}._\-\u00B7\u0300-\u036F\u203F-\u2040]*$/u;

/** An XPath of the subset as alternatives of steps (see IdentityConstraint); undefined when outside it. */
export function compileXPath(el: XmlElement, xpath: string, field: boolean): string[][] | undefined {
  const alternatives: string[][] = [];
  for (const raw of xpath.split("|")) {
    let path = raw.replace(/\s+/g, "");
    const steps: string[] = [];
    if (path.startsWith(".//")) {
      steps.push("//");
      path = path.slice(3);
    }
    const parts = path.split("/");
    for (let i = 0; i < parts.length; i++) {
      let p = parts[i]!;
      if (p === ".") {
        steps.push(".");
        continue;
      }
      let attribute = false;
      if (p.startsWith("@")) [attribute, p] = [true, p.slice(1)];
      else if (p.startsWith("attribute::")) [attribute, p] = [true, p.slice(11)];
      else if (p.startsWith("child::")) p = p.slice(7);
      if (attribute && (!field || i !== parts.length - 1)) return undefined;
      const test = nameTest(el, p);
      if (test === undefined) return undefined;
      steps.push(attribute ? "@" + test : test);
    }
    if (steps.length === 0 || (steps.length === 1 && steps[0] === "//")) return undefined;
    alternatives.push(steps);
  }
  return alternatives;
}

function nameTest(el: XmlElement, test: string): string | undefined {
  if (test === "*") return "*";
  const colon = test.indexOf(":");
  if (colon < 0) return NCNAME.test(test) ? `{}${test}` : undefined;
  const prefix = test.slice(0, colon);
  const local = test.slice(colon + 1);
  if (!NCNAME.test(prefix) || (local !== "*" && !NCNAME.test(local))) return undefined;
  try {
    const ns = resolveQName(el, `${prefix}:x`).ns;
    return `{${ns}}${local}`;
  } catch {
    return undefined;
  }
}
