import { GeneratedFile, type Printable } from "../../codegen/generated-file.js";
import { stringLiteral } from "../../codegen/escape.js";
import type { AliasType, EnumType, Member, NamedType, RecordType } from "../../ir/model.js";
import type { EmitContext } from "../artifact.js";
import { lookupType, typesContext } from "../types/context.js";
import { code } from "../xml/context.js";
import { recordLayout, type AnySlot, type FieldSlot, type RecordLayout } from "../xml/record-layout.js";
import { checkFunction, enumValueSet, facetChecks, typeCheck, type ValidatorContext } from "./value-checks.js";

/**
 * `<dir>/validate.ts` for a WSDL/XSD document: `validate<Name>(value)` per named type, returning every issue
 * (occurrence, nillable, type, facet, choice and open-content rules) with its JSON-pointer path.
 */
export function emitXmlValidators(ctx: EmitContext): GeneratedFile {
  const f = new GeneratedFile(`${ctx.dir}/validate.ts`, ctx.source);
  const v: ValidatorContext = {
    f,
    types: typesContext(ctx.doc, ctx.names, { int64: ctx.int64, ...(ctx.dates ? { dates: ctx.dates } : {}) }),
    names: ctx.names,
    rt: (name, typeOnly = false) => f.import(name, ctx.runtimeModule, { typeOnly }),
    decls: new Map(),
  };
  f.jsdoc("", [
    `XSD validators for ${ctx.doc.info.title ?? ctx.source}: validate<Type>(value) returns every facet and occurrence issue with its path.`,
    "@packageDocumentation",
  ]);
  f.print();
  const used = new Set<string>();
  for (const t of ctx.doc.types) {
    const base = v.names.type(t.id).replace(/\$$/, "");
    let name = `validate${base}`;
    for (let i = 2; used.has(name); i++) name = `validate${base}_${i}`;
    used.add(name);
    emitValidate(t, name, v);
    emitCheck(t, v);
  }
  if (v.decls.size > 0) {
    f.print("// Compiled once, at module load.");
    for (const d of v.decls.values()) {
      for (const line of d.lines) f.print(line);
      f.print();
    }
  }
  return f;
}

function emitValidate(t: NamedType, name: string, v: ValidatorContext): void {
  const { f } = v;
  const family = v.names.family(t.id);
  const what = family ? `${v.names.type(t.id)} or a type derived from it (by $type)` : v.names.type(t.id);
  f.jsdoc("", [`Checks a value against ${what}: every issue, with its path ("" is the value itself).`]);
  f.print(code`export function ${name}(value: unknown): ${v.rt("ValidationIssue", true)}[] {`);
  f.print(code`  const issues: ${v.rt("ValidationIssue", true)}[] = [];`);
  f.print(`  ${checkFunction(t.id, v)}(value, "", issues);`);
  f.print("  return issues;");
  f.print("}");
  f.print();
}

function emitCheck(t: NamedType, v: ValidatorContext): void {
  if (t.kind === "record") {
    emitRecordCheck(t, v);
    if (v.names.family(t.id)) emitFamilyCheck(t, v);
  } else if (t.kind === "enum") emitEnumCheck(t, v);
  else if (t.kind === "alias") emitAliasCheck(t, v);
  else {
    // xsi:type families are records with subtypes; a union type does not come out of XSD.
    signature(`check${v.names.type(t.id)}`, v);
    v.f.print("  return true;");
    v.f.print("}");
  }
  v.f.print();
}

function signature(name: string, v: ValidatorContext): void {
  v.f.print(code`function ${name}(value: unknown, path: string, issues: ${v.rt("ValidationIssue", true)}[]): boolean {`);
}

function emitEnumCheck(t: EnumType, v: ValidatorContext): void {
  const { f } = v;
  signature(`check${v.names.type(t.id)}`, v);
  f.print(code`  if (!${typeCheck("value", "path", t.base, v)}) return false;`);
  const set = enumValueSet(t, v);
  const message = stringLiteral(`must be a value of ${t.name}`);
  f.print(code`  if (!${set}.has(${v.rt("xsdLexical")}(value))) ${v.rt("xsdIssue")}(issues, path, "enum", ${message});`);
  f.print("  return true;");
  f.print("}");
}

function emitAliasCheck(t: AliasType, v: ValidatorContext): void {
  const { f } = v;
  signature(`check${v.names.type(t.id)}`, v);
  f.print(code`  if (!${typeCheck("value", "path", t.target, v)}) return false;`);
  for (const line of facetChecks("value", "path", t.facets, "  ", v)) f.print(line);
  f.print("  return true;");
  f.print("}");
}

function emitFamilyCheck(t: RecordType, v: ValidatorContext): void {
  const { f } = v;
  const members = [t.id, ...(v.types.subtypes.get(t.id) ?? [])].map((id) => lookupType(v.types, id) as RecordType).filter((m) => !m.abstract);
  const root = recordLayout(t, v.types).familyRoot === t.id;
  signature(`check${v.names.family(t.id)!}`, v);
  f.print(code`  if (!${v.rt("isXsdRecord")}(value)) {`);
  f.print(code`    ${v.rt("xsdIssue")}(issues, path, "type", ${stringLiteral(`expected an object (${t.name})`)});`);
  f.print("    return false;");
  f.print("  }");
  f.print("  switch (value.$type) {");
  for (const m of members) {
    if (m.id === t.id && root) f.print("    case undefined:");
    f.print(`    case ${stringLiteral(m.name)}:`);
    f.print(`      return check${v.names.type(m.id)}(value, path, issues);`);
  }
  f.print("    default:");
  const allowed = members.map((m) => m.name).join(", ");
  f.print(code`      ${v.rt("xsdIssue")}(issues, path + "/$type", "type", ${stringLiteral(`must be one of ${allowed}`)});`);
  f.print("      return false;");
  f.print("  }");
  f.print("}");
  f.print();
}

function emitRecordCheck(t: RecordType, v: ValidatorContext): void {
  const { f } = v;
  const layout = recordLayout(t, v.types);
  signature(`check${v.names.type(t.id)}`, v);
  f.print(code`  if (!${v.rt("isXsdRecord")}(value)) {`);
  f.print(code`    ${v.rt("xsdIssue")}(issues, path, "type", ${stringLiteral(`expected an object (${t.name})`)});`);
  f.print("    return false;");
  f.print("  }");
  if (layout.familyRoot !== undefined) {
    const root = layout.familyRoot === t.id;
    const cond = root ? `value.$type !== undefined && value.$type !== ${stringLiteral(t.name)}` : `value.$type !== ${stringLiteral(t.name)}`;
    f.print(code`  if (${cond}) ${v.rt("xsdIssue")}(issues, path + "/$type", "type", ${stringLiteral(`must be "${t.name}"`)});`);
  }
  layout.slots.forEach((s, i) => {
    f.print("  {");
    f.print(`    const v${i} = value[${stringLiteral(s.key)}];`);
    f.print(`    const p${i} = path + ${stringLiteral(`/${s.key.replace(/~/g, "~0").replace(/\//g, "~1")}`)};`);
    for (const line of s.kind === "any" ? anyChecks(s, `v${i}`, `p${i}`, v) : fieldChecks(s, `v${i}`, `p${i}`, v)) f.print("    ", line);
    f.print("  }");
  });
  for (const line of choiceChecks(t, layout, v)) f.print("  ", line);
  f.print("  return true;");
  f.print("}");
}

function fieldChecks(s: FieldSlot, val: string, path: string, v: ValidatorContext): Printable[] {
  const issue = (p: string, rule: string, message: string): Printable => code`${v.rt("xsdIssue")}(issues, ${p}, "${rule}", ${stringLiteral(message)});`;
  const out: Printable[] = [];
  const required = s.occurs.min >= 1;
  const nilAllowed = s.field.nullable && !s.list;
  const missing = code`${issue(path, "required", `${s.local} is required`)}`;
  const nil = code`${issue(path, "nullable", s.list ? `${s.local} must be an array` : `${s.local} is not nillable`)}`;
  // The branch that checks a present value is opened here and closed below.
  if (required && nilAllowed) out.push(code`if (${val} === undefined) ${missing}`, code`else if (${val} !== null) {`);
  else if (required) out.push(code`if (${val} === undefined) ${missing}`, code`else if (${val} === null) ${nil}`, "else {");
  else if (nilAllowed) out.push(`if (${val} !== undefined && ${val} !== null) {`);
  else out.push(code`if (${val} === null) ${nil}`, `else if (${val} !== undefined) {`);
  const one = (item: string, p: string, indent: string): Printable[] => {
    const lines: Printable[] = [];
    const facets = facetChecks(item, p, s.field.facets, `${indent}  `, v);
    const fixed = s.field.fixed;
    const check = typeCheck(item, p, s.field.type, v);
    if (facets.length === 0 && fixed === undefined) return [code`${indent}${check};`];
    lines.push(code`${indent}if (${check}) {`, ...facets);
    if (fixed !== undefined) lines.push(code`${indent}  if (${v.rt("xsdLexical")}(${item}) !== ${stringLiteral(fixed)}) ${issue(p, "fixed", `must be ${fixed}`)}`);
    lines.push(`${indent}}`);
    return lines;
  };
  if (!s.list) {
    out.push(...one(val, path, "  "), "}");
    return out;
  }
  out.push(code`  if (!Array.isArray(${val})) ${issue(path, "type", `${s.local} must be an array`)}`, "  else {");
  if (s.occurs.min > 0) out.push(code`    if (${val}.length < ${s.occurs.min}) ${issue(path, "minOccurs", `at least ${s.occurs.min} ${s.local}`)}`);
  if (s.occurs.max !== "unbounded") out.push(code`    if (${val}.length > ${s.occurs.max}) ${issue(path, "maxOccurs", `at most ${s.occurs.max} ${s.local}`)}`);
  out.push(`    ${val}.forEach((item: unknown, i: number) => {`, `      const pi = ${path} + "/" + i;`);
  if (s.field.nullable) out.push("      if (item === null) return;");
  else out.push("      if (item === null) {", code`        ${issue("pi", "nullable", `${s.local} is not nillable`)}`, "        return;", "      }");
  out.push(...one("item", "pi", "      "), "    });", "  }", "}");
  return out;
}

function anyChecks(s: AnySlot, val: string, path: string, v: ValidatorContext): Printable[] {
  const issue = (p: string, rule: string, message: Printable): Printable => code`${v.rt("xsdIssue")}(issues, ${p}, "${rule}", ${message});`;
  const out: Printable[] = [];
  out.push(`if (${val} !== undefined) {`);
  out.push(code`  if (!Array.isArray(${val})) ${issue(path, "type", '"open content must be an array"')}`);
  out.push("  else {");
  if (s.occurs.max !== "unbounded") out.push(code`    if (${val}.length > ${s.occurs.max}) ${issue(path, "maxOccurs", stringLiteral(`at most ${s.occurs.max} elements`))}`);
  out.push(`    ${val}.forEach((item: unknown, i: number) => {`);
  out.push(code`      if (!${v.rt("isXsdOpenItem")}(item)) ${issue(`${path} + "/" + i`, "type", '"expected { ns, name, value }"')}`);
  const test = namespaceTest("item.ns", s);
  if (test !== "true") {
    const message = stringLiteral(`namespace not allowed here (xsd:any namespace="${s.any.namespace}")`);
    out.push(code`      else if (!(${test})) ${issue(`${path} + "/" + i + "/ns"`, "namespace", message)}`);
  }
  out.push("    });", "  }", "}");
  if (s.occurs.min >= 1) out.push(code`if (${val} === undefined || (Array.isArray(${val}) && ${val}.length < ${s.occurs.min})) ${issue(path, "minOccurs", stringLiteral(`at least ${s.occurs.min} elements`))}`);
  return out;
}

function namespaceTest(ns: string, s: AnySlot): string {
  const tokens = s.any.namespace.trim().split(/\s+/).filter(Boolean);
  if (tokens.length === 0 || tokens.includes("##any")) return "true";
  if (tokens.length === 1 && tokens[0] === "##other") return `${ns} !== ${stringLiteral(s.tns)} && ${ns} !== ""`;
  return tokens
    .map((tok) => `${ns} === ${stringLiteral(tok === "##local" ? "" : tok === "##targetNamespace" ? s.tns : tok)}`)
    .join(" || ");
}

/** xsd:choice groups that occur at most once: at most one alternative present (and one when required). */
function choiceChecks(t: RecordType, layout: RecordLayout, v: ValidatorContext): Printable[] {
  const keyOf = new Map<unknown, string>();
  for (const s of layout.slots) keyOf.set(s.kind === "any" ? s.any : s.field, s.key);
  const out: Printable[] = [];
  const chain: RecordType[] = [];
  for (let r: RecordType | undefined = t; r; ) {
    chain.unshift(r);
    if (!r.base || r.base.derivation === "restriction" || chain.length > 64) break;
    const base = lookupType(v.types, r.base.id);
    r = base.kind === "record" ? base : undefined;
  }
  const keysIn = (m: Member): string[] => (m.kind === "group" ? m.members.flatMap(keysIn) : keyOf.has(m) ? [keyOf.get(m)!] : []);
  const visit = (members: readonly Member[], required: boolean): void => {
    for (const m of members) {
      if (m.kind !== "group" || m.occurs.max !== 1) continue;
      if (m.compositor !== "choice") {
        visit(m.members, required && m.occurs.min >= 1);
        continue;
      }
      const alternatives = m.members.map(keysIn).filter((k) => k.length > 0);
      if (alternatives.length === 0) continue;
      const present = alternatives.map((keys) => `(${keys.map((k) => `value[${stringLiteral(k)}] !== undefined`).join(" || ")} ? 1 : 0)`);
      const names = alternatives.map((k) => k.join("+")).join(", ");
      out.push("{", `  const chosen = ${present.join(" + ")};`);
      out.push(code`  if (chosen > 1) ${v.rt("xsdIssue")}(issues, path, "choice", ${stringLiteral(`at most one of ${names} (xsd:choice)`)});`);
      if (required && m.occurs.min >= 1) {
        out.push(code`  if (chosen === 0) ${v.rt("xsdIssue")}(issues, path, "required", ${stringLiteral(`one of ${names} is required (xsd:choice)`)});`);
      }
      out.push("}");
    }
  };
  for (const r of chain) visit(r.members, true);
  return out;
}
