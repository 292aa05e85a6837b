import { stringLiteral } from "../../codegen/escape.js";
import type { ArrayCheck, Evaluated, JsonData, ObjectCheck, TypeExpr, UnevaluatedCheck, ValueCheck } from "../../ir/model.js";
import { and, js, Lines, or, paren, type Code } from "./code.js";
import type { ValidatorContext } from "./context.js";
import { failUnless, isExpr } from "./is-expr.js";
import { literalCode, type Check } from "./leaf-checks.js";

/**
 * A named type's extra checks (NamedType.checks: `not`, `if`, `patternProperties`, `contains`...) as rules: one
 * boolean expression each over the value in identifier `v`, which is<T> joins with `&&` after the shape's check and
 * validate<T> reports one by one. Loops become helper functions next to the type's own, like arrays and maps.
 */
export function valueCheckRules(ctx: ValidatorContext, c: ValueCheck, v: string): Check[] {
  switch (c.kind) {
    case "matches":
      return [{ rule: "allOf", ok: isExpr(ctx, c.type, undefined, v), message: "must match every schema of allOf (and the keywords beside it)" }];
    case "not":
      return [{ rule: "not", ok: js`!${paren(isExpr(ctx, c.type, undefined, v))}`, message: "must not match the schema of `not`" }];
    case "conditional": {
      const then = c.then ? isExpr(ctx, c.then, undefined, v) : "true";
      const otherwise = c.else ? isExpr(ctx, c.else, undefined, v) : "true";
      return [{ rule: "if", ok: js`(${isExpr(ctx, c.if, undefined, v)} ? ${paren(then)} : ${paren(otherwise)})`, message: "must match `then` when it matches `if`, else `else`" }];
    }
    case "anyOf":
      return [{ rule: "anyOf", ok: or(c.of.map((t) => isExpr(ctx, t, undefined, v))), message: "must match at least one schema of anyOf" }];
    case "oneOf":
      return c.atMostOne
        ? [{ rule: "oneOf", ok: `${oneOfHelper(ctx, c.of, true)}(${v})`, message: "must match exactly one schema of oneOf, but matches several" }]
        : [{ rule: "oneOf", ok: `${oneOfHelper(ctx, c.of, false)}(${v})`, message: "must match exactly one schema of oneOf" }];
    case "equals":
      return [{ rule: c.values.length === 1 ? "const" : "enum", ok: equalsCode(ctx, c.values, v), message: equalsMessage(c.values) }];
    case "never":
      return [{ rule: "false", ok: "false", message: "is not allowed (the schema is `false`)" }];
    case "object":
      return objectRules(ctx, c, v);
    case "array":
      return arrayRules(ctx, c, v);
    case "unevaluated":
      return [unevaluatedRule(ctx, c, v)];
  }
}

function equalsMessage(values: readonly JsonData[]): string {
  if (values.length === 0) return "is not allowed (the enum is empty)";
  const text = values.map((x) => JSON.stringify(x)).join(", ");
  const shown = text.length > 120 ? `${text.slice(0, 117)}...` : text;
  return values.length === 1 ? `must be equal to ${shown}` : `must be one of ${shown}`;
}

/** Deep JSON equality with each value: `===` for scalars, the runtime's jsonEquals against a module constant otherwise. */
function equalsCode(ctx: ValidatorContext, values: readonly JsonData[], v: string): Code {
  const parts: Code[] = values.map((x) => {
    if (x === null || typeof x !== "object") return `${v} === ${literalCode(x)}`;
    // The value as JSON text in a string literal, parsed once: spec data never becomes code, and a "__proto__" key
    // stays an own property (as JSON.parse makes it).
    const name = ctx.constant("VALUE", js`JSON.parse(${stringLiteral(JSON.stringify(x))}) as unknown`);
    return js`${ctx.rt("jsonEquals")}(${v}, ${name})`;
  });
  return or(parts);
}

/** `(v) => boolean`: v matches exactly one of `of` (at most one, with `atMostOne`: a union already asked for one). */
function oneOfHelper(ctx: ValidatorContext, of: readonly TypeExpr[], atMostOne: boolean): string {
  return ctx.sharedHelper("is", [atMostOne ? "oneOf<=1" : "oneOf", of], (name) => {
    const body = new Lines();
    body.add("", `function ${name}(v: unknown): boolean {`);
    body.add("  ", "let matches = 0;");
    of.forEach((t, i) => {
      body.add("  ", "if (", isExpr(ctx, t, undefined, "v"), ") {");
      if (i > 0) body.add("    ", "if (matches === 1) return false;");
      body.add("    ", "matches++;");
      body.add("  ", "}");
    });
    body.add("  ", atMostOne ? "return true;" : "return matches === 1;");
    body.add("", "}");
    ctx.helpers.append(body);
  });
}

const NOT_OBJECT = 'typeof v !== "object" || v === null || Array.isArray(v)';

/** A helper `(v: unknown) => boolean` that passes any non-object and runs `build`'s statements on an object `o`. */
function objectHelper(ctx: ValidatorContext, key: unknown, build: (body: Lines) => void): string {
  return ctx.sharedHelper("is", ["object", key], (name) => {
    const body = new Lines();
    body.add("", `function ${name}(v: unknown): boolean {`);
    body.add("  ", `if (${NOT_OBJECT}) return true;`);
    body.add("  ", "const o = v as Record<string, unknown>;");
    build(body);
    body.add("  ", "return true;");
    body.add("", "}");
    ctx.helpers.append(body);
  });
}

/** A present property: an own one whose value is not `undefined` (JSON has no undefined; records read it so too). */
function present(key: string): string {
  const k = stringLiteral(key);
  return `(Object.hasOwn(o, ${k}) && o[${k}] !== undefined)`;
}

function objectRules(ctx: ValidatorContext, c: ObjectCheck, v: string): Check[] {
  const out: Check[] = [];
  if (c.minProperties !== undefined && c.minProperties > 0) {
    const fn = objectHelper(ctx, ["min", c.minProperties], (b) => b.add("  ", js`if (${ctx.rt("jsonPropertyCount")}(o) < ${c.minProperties!}) return false;`));
    out.push({ rule: "minProperties", ok: `${fn}(${v})`, message: `must have at least ${c.minProperties} properties` });
  }
  if (c.maxProperties !== undefined) {
    const fn = objectHelper(ctx, ["max", c.maxProperties], (b) => b.add("  ", js`if (${ctx.rt("jsonPropertyCount")}(o) > ${c.maxProperties!}) return false;`));
    out.push({ rule: "maxProperties", ok: `${fn}(${v})`, message: `must have at most ${c.maxProperties} properties` });
  }
  if (c.required && c.required.length > 0) {
    const fn = objectHelper(ctx, ["required", c.required], (b) => {
      for (const key of c.required!) b.add("  ", `if (!${present(key)}) return false;`);
    });
    out.push({ rule: "required", ok: `${fn}(${v})`, message: `must have the properties ${c.required.map((k) => JSON.stringify(k)).join(", ")}` });
  }
  for (const d of c.dependentRequired ?? []) {
    const fn = objectHelper(ctx, ["dependentRequired", d], (b) => {
      b.add("  ", `if (!${present(d.key)}) return true;`);
      for (const key of d.required) b.add("  ", `if (!${present(key)}) return false;`);
    });
    out.push({ rule: "dependentRequired", ok: `${fn}(${v})`, message: `must have ${d.required.map((k) => JSON.stringify(k)).join(", ")} when it has ${JSON.stringify(d.key)}` });
  }
  for (const d of c.dependentSchemas ?? []) {
    const fn = objectHelper(ctx, ["dependentSchemas", d], (b) => {
      b.add("  ", `if (!${present(d.key)}) return true;`);
      failUnless(b, "  ", isExpr(ctx, d.type, undefined, "v"));
    });
    out.push({ rule: "dependentSchemas", ok: `${fn}(${v})`, message: `must match the schema that ${JSON.stringify(d.key)} brings` });
  }
  if (c.propertyNames) {
    const names = c.propertyNames;
    const fn = objectHelper(ctx, ["propertyNames", names], (b) => {
      b.add("  ", "for (const key in o) {");
      b.add("    ", "if (!Object.hasOwn(o, key)) continue;");
      failUnless(b, "    ", isExpr(ctx, names, undefined, "key"));
      b.add("  ", "}");
    });
    out.push({ rule: "propertyNames", ok: `${fn}(${v})`, message: "must have property names that match propertyNames" });
  }
  if ((c.patternProperties?.length ?? 0) > 0 || c.additional) {
    const patterns = c.patternProperties ?? [];
    const fn = objectHelper(ctx, ["patternProperties", patterns, c.additional ?? null], (b) => {
      b.add("  ", "for (const key in o) {");
      b.add("    ", "if (!Object.hasOwn(o, key)) continue;");
      b.add("    ", "const item = o[key];");
      if (c.additional) b.add("    ", "let matched = false;");
      for (const p of patterns) {
        b.add("    ", `if (${ctx.pattern(p.pattern)}key)) {`);
        if (c.additional) b.add("      ", "matched = true;");
        failUnless(b, "      ", isExpr(ctx, p.type, undefined, "item"));
        b.add("    ", "}");
      }
      if (c.additional) {
        const known = c.additional.known.map((k) => `key === ${stringLiteral(k)}`);
        b.add("    ", "if (matched", known.length > 0 ? js` || ${or(known)}` : "", ") continue;");
        failUnless(b, "    ", isExpr(ctx, c.additional.type, undefined, "item"));
      }
      b.add("  ", "}");
    });
    out.push({ rule: c.additional ? "additionalProperties" : "patternProperties", ok: `${fn}(${v})`, message: "must have property values that match patternProperties (and additionalProperties)" });
  }
  return out;
}

/** A helper `(v: unknown) => boolean` that passes any non-array and runs `build`'s statements on the array `v`. */
function arrayHelper(ctx: ValidatorContext, key: unknown, build: (body: Lines) => void): string {
  return ctx.sharedHelper("is", ["array", key], (name) => {
    const body = new Lines();
    body.add("", `function ${name}(v: unknown): boolean {`);
    body.add("  ", "if (!Array.isArray(v)) return true;");
    build(body);
    body.add("  ", "return true;");
    body.add("", "}");
    ctx.helpers.append(body);
  });
}

function arrayRules(ctx: ValidatorContext, c: ArrayCheck, v: string): Check[] {
  const out: Check[] = [];
  const helper = (key: unknown, build: (body: Lines) => void): string => arrayHelper(ctx, key, build);
  if (c.minItems !== undefined && c.minItems > 0) {
    out.push({ rule: "minItems", ok: `${helper(["min", c.minItems], (b) => b.add("  ", `if (v.length < ${c.minItems}) return false;`))}(${v})`, message: `must have at least ${c.minItems} items` });
  }
  if (c.maxItems !== undefined) {
    out.push({ rule: "maxItems", ok: `${helper(["max", c.maxItems], (b) => b.add("  ", `if (v.length > ${c.maxItems}) return false;`))}(${v})`, message: `must have at most ${c.maxItems} items` });
  }
  if (c.uniqueItems) {
    out.push({ rule: "uniqueItems", ok: js`${helper(["unique"], (b) => b.add("  ", js`if (${ctx.rt("jsonFirstDuplicate")}(v) >= 0) return false;`))}(${v})`, message: "must not repeat an item" });
  }
  if ((c.prefix?.length ?? 0) > 0 || c.rest) {
    const prefix = c.prefix ?? [];
    const fn = helper(["items", prefix, c.rest ?? null], (b) => {
      prefix.forEach((t, i) => {
        const check = isExpr(ctx, t, undefined, `v[${i}]`);
        if (check !== "true") b.add("  ", `if (v.length > ${i} && !`, paren(check), ") return false;");
      });
      const rest = c.rest && isExpr(ctx, c.rest, undefined, "item");
      if (rest && rest !== "true") {
        b.add("  ", `for (let i = ${prefix.length}; i < v.length; i++) {`);
        b.add("    ", "const item: unknown = v[i];");
        failUnless(b, "    ", rest);
        b.add("  ", "}");
      }
    });
    out.push({ rule: "items", ok: `${fn}(${v})`, message: "must have items that match prefixItems and items" });
  }
  if (c.contains) {
    const k = c.contains;
    const fn = helper(["contains", k], (b) => {
      b.add("  ", "let count = 0;");
      b.add("  ", "for (let i = 0; i < v.length; i++) {");
      b.add("    ", "const item: unknown = v[i];");
      b.add("    ", "if (", isExpr(ctx, k.type, undefined, "item"), ") count++;");
      b.add("  ", "}");
      b.add("  ", "if (!(", and([`count >= ${k.min}`, ...(k.max !== undefined ? [`count <= ${k.max}`] : [])]), ")) return false;");
    });
    const words = k.max !== undefined ? `between ${k.min} and ${k.max}` : `at least ${k.min}`;
    out.push({ rule: "contains", ok: `${fn}(${v})`, message: `must contain ${words} matching item(s)` });
  }
  return out;
}

/**
 * `unevaluatedProperties` / `unevaluatedItems`: a loop over the properties (items) the schema's own keywords leave
 * unevaluated (not a `properties` name, no `patternProperties` match, past the `prefixItems`). Only when it meets one
 * does it work out what the value-dependent part evaluates (`evaluated<T>$n`: anyOf/oneOf branches and `if` that
 * hold, `dependentSchemas` whose key is present, `contains` matches), so a value with nothing extra costs the loop.
 */
function unevaluatedRule(ctx: ValidatorContext, c: UnevaluatedCheck, v: string): Check {
  const e = c.evaluated;
  const dynamic = (e.when?.length ?? 0) > 0 || (e.contains?.length ?? 0) > 0 ? evaluatedHelper(ctx, c) : undefined;
  const allowed = c.allowed === false ? "false" : isExpr(ctx, c.allowed, undefined, "item");
  const test = (b: Lines, indent: string, index: "key" | "i"): void => {
    if (dynamic) {
      b.add(indent, `evaluated ??= ${dynamic}(${index === "key" ? "o" : "v"});`);
      b.add(indent, "if (evaluated === true) return true;");
      b.add(indent, `if (evaluated.has(${index})) continue;`);
    }
    if (allowed === "false") {
      b.add(indent, "return false;");
      return;
    }
    b.add(indent, `const item: unknown = ${index === "key" ? "o[key]" : "v[i]"};`);
    failUnless(b, indent, allowed);
  };
  if (c.of === "properties") {
    const names = e.properties ?? [];
    const known: Code[] = names.length > 6
      ? [`${ctx.valueSet(names.map((n) => stringLiteral(n)))}.has(key)`]
      : names.map((n) => `key === ${stringLiteral(n)}`);
    const fn = objectHelper(ctx, ["unevaluated", c], (b) => {
      if (dynamic) b.add("  ", "let evaluated: Set<string> | true | undefined;");
      b.add("  ", "for (const key in o) {");
      const skip = ["!Object.hasOwn(o, key)", "o[key] === undefined", ...known, ...(e.patterns ?? []).map((p) => `${ctx.pattern(p)}key)`)];
      b.add("    ", "if (", or(skip), ") continue;");
      test(b, "    ", "key");
      b.add("  ", "}");
    });
    const message = c.allowed === false
      ? "must not have properties that its schema does not evaluate (unevaluatedProperties is false)"
      : "must have unevaluated properties that match unevaluatedProperties";
    return { rule: "unevaluatedProperties", ok: `${fn}(${v})`, message };
  }
  const fn = arrayHelper(ctx, ["unevaluated", c], (b) => {
    if (dynamic) b.add("  ", "let evaluated: Set<number> | true | undefined;");
    b.add("  ", `for (let i = ${e.prefix ?? 0}; i < v.length; i++) {`);
    test(b, "    ", "i");
    b.add("  ", "}");
  });
  const message = c.allowed === false
    ? "must not have items that its schema does not evaluate (unevaluatedItems is false)"
    : "must have unevaluated items that match unevaluatedItems";
  return { rule: "unevaluatedItems", ok: `${fn}(${v})`, message };
}

/**
 * `evaluated<T>$n(o)`: the property names (item indexes) that the value-dependent part of an unevaluated check's
 * Evaluated covers for this value, or `true` when it covers them all.
 */
function evaluatedHelper(ctx: ValidatorContext, c: UnevaluatedCheck): string {
  return ctx.sharedHelper("evaluated", [c.of, c.evaluated], (name) => {
    const body = new Lines();
    const objects = c.of === "properties";
    const subject = objects ? "o" : "v";
    body.add("", `/** The ${objects ? "properties" : "items"} of \`${subject}\` that the subschemas which hold for it evaluate (for ${objects ? "unevaluatedProperties" : "unevaluatedItems"}); true: all. */`);
    body.add("", objects
      ? `function ${name}(o: Record<string, unknown>): Set<string> | true {`
      : `function ${name}(v: unknown[]): Set<number> | true {`);
    body.add("  ", `const evaluated = new Set<${objects ? "string" : "number"}>();`);
    evaluatedStatements(ctx, c.evaluated, objects, true, body, "  ");
    body.add("  ", "return evaluated;");
    body.add("", "}");
    ctx.helpers.append(body);
  });
}

/**
 * Statements adding what `e` evaluates to `evaluated`. At the top, names, patterns and the prefix are left out (the
 * check's own loop skips them); `contains` and the value-dependent parts are always here.
 */
function evaluatedStatements(ctx: ValidatorContext, e: Evaluated, objects: boolean, top: boolean, out: Lines, indent: string): void {
  if (e.all) {
    out.add(indent, "return true;");
    return;
  }
  if (!top) {
    for (const name of e.properties ?? []) out.add(indent, `evaluated.add(${stringLiteral(name)});`);
    for (const p of e.patterns ?? []) out.add(indent, `for (const key in o) if (Object.hasOwn(o, key) && ${ctx.pattern(p)}key)) evaluated.add(key);`);
    if (e.prefix) out.add(indent, `for (let i = 0; i < ${e.prefix}; i++) evaluated.add(i);`);
  }
  if (e.contains && e.contains.length > 0) {
    out.add(indent, "for (let i = 0; i < v.length; i++) {");
    out.add(`${indent}  `, "const item: unknown = v[i];");
    out.add(`${indent}  `, "if (", or(e.contains.map((t) => isExpr(ctx, t, undefined, "item"))), ") evaluated.add(i);");
    out.add(indent, "}");
  }
  const subject = objects ? "o" : "v";
  for (const w of e.when ?? []) {
    const cond: Code = w.kind === "present" ? present(w.key) : isExpr(ctx, w.type, undefined, subject);
    out.add(indent, "if (", cond, ") {");
    evaluatedStatements(ctx, w.then, objects, false, out, `${indent}  `);
    if (w.kind === "matches" && w.else) {
      out.add(indent, "} else {");
      evaluatedStatements(ctx, w.else, objects, false, out, `${indent}  `);
    }
    out.add(indent, "}");
  }
}
