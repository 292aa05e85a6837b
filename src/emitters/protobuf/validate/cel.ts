/**
 * CEL (Common Expression Language) rules compiled at generation time into TypeScript expressions over the generated
 * types: protovalidate's `(buf.validate.field).cel` and `(buf.validate.message).cel`. A subset: literals, field
 * access, `has()`, arithmetic and comparisons, `&&` `||` `!` `?:`, `in`, `size()`, the string functions
 * (startsWith, endsWith, contains, matches), the list macros (all, exists, exists_one, filter, map), conversions
 * (int, uint, double, string), and protovalidate's isEmail / isHostname / isIp / isIpPrefix / isUri / isUriRef /
 * isHostAndPort / unique / isNan / isInf. An expression outside the subset throws CelUnsupported (the caller warns
 * and leaves the rule out); nothing from the expression reaches the output except through string literals.
 */
import { isDateRef } from "../../types/context.js";
import { stringLiteral } from "../../../codegen/escape.js";
import type { EnumType, RecordType, ScalarKind } from "../../../ir/model.js";
import type { FieldPlan, MessagePlan, ValueShape } from "../plan.js";

export class CelUnsupported extends Error {}

// ---- syntax -------------------------------------------------------------------------------------------------

type Tok = { k: "num" | "str" | "bytes" | "id" | "op" | "eof"; v: string; uint?: boolean; float?: boolean };

function lex(src: string): Tok[] {
  const out: Tok[] = [];
  let i = 0;
  while (i < src.length) {
    const c = src[i]!;
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    if (c === "/" && src[i + 1] === "/") {
      while (i < src.length && src[i] !== "\n") i++;
      continue;
    }
    const num = /^(0x[0-9a-fA-F]+|\d+\.\d*(?:[eE][-+]?\d+)?|\d+[eE][-+]?\d+|\.\d+(?:[eE][-+]?\d+)?|\d+)([uU]?)/.exec(src.slice(i));
    if (num && /[\d.]/.test(c) && !(c === "." && !/\d/.test(src[i + 1] ?? ""))) {
      const text = num[1]!;
      out.push({ k: "num", v: text, uint: num[2] !== "", float: /[.eE]/.test(text) && !text.startsWith("0x") });
      i += num[0].length;
      continue;
    }
    const strStart = /^([rRbB]{0,2})('''|"""|'|")/.exec(src.slice(i));
    if (strStart && (strStart[1] !== "" || c === "'" || c === '"')) {
      const prefix = strStart[1]!.toLowerCase();
      const q = strStart[2]!;
      let j = i + strStart[0].length;
      let value = "";
      for (;;) {
        if (j >= src.length) throw new CelUnsupported("unterminated string");
        if (src.startsWith(q, j)) {
          j += q.length;
          break;
        }
        const ch = src[j]!;
        if (ch === "\\" && !prefix.includes("r")) {
          const e = src[j + 1]!;
          const simple: Record<string, string> = { n: "\n", t: "\t", r: "\r", "\\": "\\", "'": "'", '"': '"', "`": "`", "?": "?", a: "\x07", b: "\b", f: "\f", v: "\v" };
          if (e in simple) {
            value += simple[e];
            j += 2;
          } else if (e === "x" || e === "u" || e === "U") {
            const n = e === "x" ? 2 : e === "u" ? 4 : 8;
            value += String.fromCodePoint(parseInt(src.slice(j + 2, j + 2 + n), 16));
            j += 2 + n;
          } else if (/[0-3]/.test(e)) {
            value += String.fromCharCode(parseInt(src.slice(j + 1, j + 4), 8));
            j += 4;
          } else throw new CelUnsupported(`escape \\${e}`);
        } else {
          value += ch;
          j++;
        }
      }
      out.push({ k: prefix.includes("b") ? "bytes" : "str", v: value });
      i = j;
      continue;
    }
    const id = /^[A-Za-z_][A-Za-z0-9_]*/.exec(src.slice(i));
    if (id) {
      out.push({ k: "id", v: id[0] });
      i += id[0].length;
      continue;
    }
    const op = /^(==|!=|<=|>=|&&|\|\||[-+*/%<>!?:.,()[\]{}])/.exec(src.slice(i));
    if (!op) throw new CelUnsupported(`unexpected "${c}"`);
    out.push({ k: "op", v: op[0] });
    i += op[0].length;
  }
  out.push({ k: "eof", v: "" });
  return out;
}

export type Ast =
  | { t: "lit"; kind: "int" | "uint" | "double" | "string" | "bytes" | "bool" | "null"; v: string }
  | { t: "id"; name: string }
  | { t: "sel"; obj: Ast; name: string }
  | { t: "idx"; obj: Ast; index: Ast }
  | { t: "call"; target?: Ast; name: string; args: Ast[] }
  | { t: "un"; op: "!" | "-"; x: Ast }
  | { t: "bin"; op: string; a: Ast; b: Ast }
  | { t: "cond"; c: Ast; a: Ast; b: Ast }
  | { t: "list"; items: Ast[] };

export function parseCel(src: string): Ast {
  const toks = lex(src);
  let p = 0;
  const peek = () => toks[p]!;
  const isOp = (v: string) => peek().k === "op" && peek().v === v;
  const isKw = (v: string) => peek().k === "id" && peek().v === v;
  const take = (v: string) => {
    if (!isOp(v)) throw new CelUnsupported(`expected "${v}"`);
    p++;
  };
  let depth = 0;
  const expr = (): Ast => {
    // CEL implementations limit nesting too (cel-go: 100 levels of recursion); this bounds ours.
    if (++depth > 100) throw new CelUnsupported("expression nested too deeply");
    const c = or();
    depth--;
    if (isOp("?")) {
      p++;
      const a = expr();
      take(":");
      const b = expr();
      return { t: "cond", c, a, b };
    }
    return c;
  };
  const bin = (next: () => Ast, ops: string[]) => (): Ast => {
    let a = next();
    for (;;) {
      const t = peek();
      const op = (t.k === "op" || (t.k === "id" && t.v === "in")) && ops.includes(t.v) ? t.v : undefined;
      if (!op) return a;
      p++;
      a = { t: "bin", op, a, b: next() };
    }
  };
  const unary = (): Ast => {
    if (depth > 100) throw new CelUnsupported("expression nested too deeply");
    if (isOp("!")) {
      p++;
      depth++;
      const x = unary();
      depth--;
      return { t: "un", op: "!", x };
    }
    if (isOp("-")) {
      p++;
      depth++;
      const x = unary();
      depth--;
      if (x.t === "lit" && (x.kind === "int" || x.kind === "double")) return { ...x, v: x.v.startsWith("-") ? x.v.slice(1) : "-" + x.v };
      return { t: "un", op: "-", x };
    }
    return postfix();
  };
  const mul = bin(unary, ["*", "/", "%"]);
  const add = bin(mul, ["+", "-"]);
  const rel = bin(add, ["<", "<=", ">", ">=", "==", "!=", "in"]);
  const and = bin(rel, ["&&"]);
  const or = bin(and, ["||"]);
  const args = (): Ast[] => {
    const out: Ast[] = [];
    take("(");
    while (!isOp(")")) {
      out.push(expr());
      if (isOp(",")) p++;
    }
    p++;
    return out;
  };
  const postfix = (): Ast => {
    let x = primary();
    for (;;) {
      if (isOp(".")) {
        p++;
        const name = peek();
        if (name.k !== "id") throw new CelUnsupported("expected a name after .");
        p++;
        x = isOp("(") ? { t: "call", target: x, name: name.v, args: args() } : { t: "sel", obj: x, name: name.v };
      } else if (isOp("[")) {
        p++;
        const index = expr();
        take("]");
        x = { t: "idx", obj: x, index };
      } else return x;
    }
  };
  const primary = (): Ast => {
    const t = peek();
    if (t.k === "num") {
      p++;
      return { t: "lit", kind: t.uint ? "uint" : t.float ? "double" : "int", v: t.v };
    }
    if (t.k === "str" || t.k === "bytes") {
      p++;
      let v = t.v;
      while (peek().k === t.k) v += toks[p++]!.v;
      return { t: "lit", kind: t.k === "str" ? "string" : "bytes", v };
    }
    if (isOp("(")) {
      p++;
      const e = expr();
      take(")");
      return e;
    }
    if (isOp("[")) {
      p++;
      const items: Ast[] = [];
      while (!isOp("]")) {
        items.push(expr());
        if (isOp(",")) p++;
      }
      p++;
      return { t: "list", items };
    }
    if (t.k === "id") {
      p++;
      if (t.v === "true" || t.v === "false") return { t: "lit", kind: "bool", v: t.v };
      if (t.v === "null") return { t: "lit", kind: "null", v: "null" };
      if (isOp("(")) return { t: "call", name: t.v, args: args() };
      return { t: "id", name: t.v };
    }
    throw new CelUnsupported(`unexpected "${t.v}"`);
  };
  const e = expr();
  if (peek().k !== "eof" && !isKw("")) throw new CelUnsupported(`unexpected "${peek().v}"`);
  return e;
}

// ---- types and compilation ----------------------------------------------------------------------------------

export type CelType =
  | { k: "int" | "uint" | "double" | "string" | "bytes" | "bool" | "null" | "dyn" }
  /** Durations and timestamps are bigint nanoseconds (timestamps since the Unix epoch). */
  | { k: "duration" | "timestamp" }
  | { k: "list"; of: CelType }
  | { k: "map"; key: CelType; of: CelType }
  | { k: "msg"; type: RecordType };

const INT: CelType = { k: "int" };
const UINT: CelType = { k: "uint" };
const DOUBLE: CelType = { k: "double" };
const STRING: CelType = { k: "string" };
const BYTES: CelType = { k: "bytes" };
const BOOL: CelType = { k: "bool" };
const DYN: CelType = { k: "dyn" };
const DURATION: CelType = { k: "duration" };
const TIMESTAMP: CelType = { k: "timestamp" };

export interface CelEnv {
  /** `"Date"`: google.protobuf.Timestamp values are Dates. */
  readonly dates?: "string" | "Date" | undefined;
  plan(type: RecordType): MessagePlan | undefined;
  rt(name: string): string;
  constant(key: string, init: string): string;
  enumNumber(e: EnumType): string;
}

export interface Compiled {
  readonly js: string;
  readonly type: CelType;
}

/** The CEL type and the conversion of a value of one field shape (`v` is the TypeScript value). */
function fromShape(env: CelEnv, shape: ValueShape, v: string): Compiled {
  switch (shape.kind) {
    case "enum":
      return { js: `BigInt(${env.enumNumber(shape.type)}(${v}))`, type: INT };
    case "message":
    case "group": {
      const id = shape.type.id;
      if (isDateRef(id, env.dates)) return { js: `${env.rt("celDateNanos")}(${v})`, type: TIMESTAMP };
      if (id === "proto:.google.protobuf.Duration" || id === "proto:.google.protobuf.Timestamp") {
        const plan = env.plan(shape.type);
        const secs = plan?.fields.find((f) => f.field.name === "seconds")?.prop ?? "seconds";
        const nanos = plan?.fields.find((f) => f.field.name === "nanos")?.prop ?? "nanos";
        return { js: `${env.rt("celNanos")}(${v}?.${secs}, ${v}?.${nanos})`, type: id.endsWith("Duration") ? DURATION : TIMESTAMP };
      }
      return { js: `(${v} ?? {})`, type: { k: "msg", type: shape.type } };
    }
    case "scalar":
      return scalarValue(shape.scalar, v);
  }
}

function scalarValue(s: ScalarKind, v: string): Compiled {
  if (s === "float" || s === "double") return { js: `(${v} ?? 0)`, type: DOUBLE };
  if (s === "string") return { js: `(${v} ?? "")`, type: STRING };
  if (s === "bytes") return { js: `(${v} ?? new Uint8Array(0))`, type: BYTES };
  if (s === "boolean") return { js: `(${v} ?? false)`, type: BOOL };
  const unsigned = /^(uint|fixed)/.test(s);
  return { js: `BigInt(${v} ?? 0)`, type: unsigned ? UINT : INT };
}

function fieldType(env: CelEnv, p: FieldPlan, v: string): Compiled {
  if (p.mapKey !== undefined) {
    const key = scalarValue(p.mapKey, "k").type;
    return { js: `(${v} ?? {})`, type: { k: "map", key, of: fromShape(env, p.value, "x").type } };
  }
  if (p.repeated) return { js: `(${v} ?? [])`, type: { k: "list", of: fromShape(env, p.value, "x").type } };
  return fromShape(env, p.value, v);
}

/** Convert a raw element of a list/map of `p` (bound to `v`) into its CEL value. */
function elementValue(env: CelEnv, p: FieldPlan | undefined, elem: CelType, v: string): string {
  if (!p) return v;
  if (elem.k === "int" || elem.k === "uint") return p.value.kind === "enum" ? `BigInt(${env.enumNumber(p.value.type)}(${v}))` : `BigInt(${v})`;
  return v;
}

interface Scope {
  readonly vars: ReadonlyMap<string, Compiled>;
  /** Field plans of list/map values by their JS expression (for element conversion). */
  readonly origin: Map<string, FieldPlan>;
}

/**
 * Compile `src` with `this` bound to `self` (its JS expression and type). Returns a JS expression whose value is
 * true / "" when the rule holds, false / a message otherwise.
 */
export function compileCel(env: CelEnv, src: string, self: Compiled, selfPlan?: FieldPlan, extra: Readonly<Record<string, Compiled>> = {}): Compiled {
  const ast = parseCel(src);
  const now: Compiled = { js: "(BigInt(Date.now()) * 1000000n)", type: TIMESTAMP };
  const scope: Scope = { vars: new Map([["this", self], ["now", now], ...Object.entries(extra)]), origin: new Map() };
  if (selfPlan) scope.origin.set(self.js, selfPlan);
  const out = compile(env, ast, scope);
  if (out.type.k !== "bool" && out.type.k !== "string" && out.type.k !== "dyn") throw new CelUnsupported("a rule must give a bool or a string");
  return out;
}

export function selfOf(env: CelEnv, p: FieldPlan, v: string): Compiled {
  return fieldType(env, p, v);
}

/** `this` for the rules of one item, map key or map value of a field (its raw value is `v`). */
export function selfValue(env: CelEnv, shape: ValueShape, v: string): Compiled {
  return fromShape(env, shape, v);
}

export function selfMessage(type: RecordType, v: string): Compiled {
  return { js: v, type: { k: "msg", type } };
}

const isNum = (t: CelType) => t.k === "int" || t.k === "uint" || t.k === "double";
const isTime = (t: CelType) => t.k === "duration" || t.k === "timestamp";

/** timestamp ± duration, duration ± duration, timestamp - timestamp (nanoseconds, range-checked at run time). */
function timeArithmetic(env: CelEnv, op: string, a: Compiled, b: Compiled): Compiled | undefined {
  if (op !== "+" && op !== "-") return undefined;
  const k = (t: CelType) => t.k;
  let type: CelType | undefined;
  if (k(a.type) === "timestamp" && k(b.type) === "duration") type = TIMESTAMP;
  else if (op === "+" && k(a.type) === "duration" && k(b.type) === "timestamp") type = TIMESTAMP;
  else if (k(a.type) === "duration" && k(b.type) === "duration") type = DURATION;
  else if (op === "-" && k(a.type) === "timestamp" && k(b.type) === "timestamp") type = DURATION;
  // Results outside CEL's ranges (timestamps in years 1..9999, durations within ±10,000 years) are errors.
  return type ? { js: `${env.rt(type.k === "timestamp" ? "celTimestampInRange" : "celDurationInRange")}(${a.js} ${op} ${b.js})`, type } : undefined;
}

function compile(env: CelEnv, ast: Ast, scope: Scope): Compiled {
  const c = (a: Ast) => compile(env, a, scope);
  switch (ast.t) {
    case "lit":
      switch (ast.kind) {
        case "int":
          return { js: `${BigInt(ast.v)}n`, type: INT };
        case "uint":
          return { js: `${BigInt(ast.v)}n`, type: UINT };
        case "double":
          return { js: `(${Number(ast.v)})`, type: DOUBLE };
        case "string":
          return { js: stringLiteral(ast.v), type: STRING };
        case "bytes":
          return { js: `new Uint8Array([${Array.from(new TextEncoder().encode(ast.v)).join(", ")}])`, type: BYTES };
        case "bool":
          return { js: ast.v, type: BOOL };
        case "null":
          return { js: "null", type: { k: "null" } };
      }
      break;
    case "id": {
      const v = scope.vars.get(ast.name);
      if (!v) throw new CelUnsupported(`unknown name ${ast.name}`);
      return v;
    }
    case "sel": {
      const obj = c(ast.obj);
      return select(env, obj, ast.name, scope);
    }
    case "idx": {
      const obj = c(ast.obj);
      const index = c(ast.index);
      if (obj.type.k === "list" && (index.type.k === "int" || index.type.k === "uint")) {
        const plan = scope.origin.get(obj.js);
        return { js: elementValue(env, plan, obj.type.of, `${env.rt("celIndex")}(${obj.js}, ${index.js})`), type: obj.type.of };
      }
      if (obj.type.k === "map") {
        const plan = scope.origin.get(obj.js);
        return { js: elementValue(env, plan, obj.type.of, `${env.rt("celKey")}(${obj.js}, ${index.js})`), type: obj.type.of };
      }
      throw new CelUnsupported("index of this type");
    }
    case "un": {
      const x = c(ast.x);
      if (ast.op === "!") return { js: `!${x.js}`, type: BOOL };
      if (x.type.k === "int") return { js: `(-${x.js})`, type: INT };
      if (x.type.k === "double") return { js: `(-${x.js})`, type: DOUBLE };
      throw new CelUnsupported("negation of this type");
    }
    case "cond": {
      const cond = c(ast.c);
      const a = c(ast.a);
      const b = c(ast.b);
      return { js: `(${cond.js} ? ${a.js} : ${b.js})`, type: a.type.k === b.type.k ? a.type : DYN };
    }
    case "list": {
      const items = ast.items.map(c);
      const of = items.length && items.every((i) => i.type.k === items[0]!.type.k) ? items[0]!.type : DYN;
      return { js: `[${items.map((i) => i.js).join(", ")}]`, type: { k: "list", of } };
    }
    case "bin":
      return binary(env, ast.op, c(ast.a), c(ast.b));
    case "call":
      return call(env, ast, scope);
  }
  throw new CelUnsupported("expression");
}

function select(env: CelEnv, obj: Compiled, name: string, scope: Scope): Compiled {
  if (obj.type.k !== "msg") throw new CelUnsupported(`field ${name} of a non-message`);
  const plan = env.plan(obj.type.type);
  const field = plan?.fields.find((f) => f.field.name === name && f.extension === undefined);
  if (!plan || !field) throw new CelUnsupported(`no field ${name}`);
  const raw = field.oneof !== undefined
    ? `(${access(obj.js, field.oneof)}?.case === ${stringLiteral(field.prop)} ? ${access(obj.js, field.oneof)}.value : undefined)`
    : access(obj.js, field.prop);
  const out = fieldType(env, field, raw);
  if (field.repeated || field.mapKey !== undefined) scope.origin.set(out.js, field);
  return out;
}

function access(obj: string, prop: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(prop) && prop !== "__proto__" ? `${obj}.${prop}` : `${obj}[${stringLiteral(prop)}]`;
}

function binary(env: CelEnv, op: string, a: Compiled, b: Compiled): Compiled {
  switch (op) {
    case "&&":
    case "||":
      return { js: `(${a.js} ${op} ${b.js})`, type: BOOL };
    case "==":
    case "!=": {
      const same = a.type.k === b.type.k && ["int", "uint", "double", "string", "bool", "duration", "timestamp"].includes(a.type.k);
      const eq = same ? `${a.js} === ${b.js}` : `${env.rt("celEquals")}(${a.js}, ${b.js})`;
      return { js: op === "==" ? `(${eq})` : `!(${eq})`, type: BOOL };
    }
    case "<":
    case "<=":
    case ">":
    case ">=":
      if ((isNum(a.type) && isNum(b.type)) || (a.type.k === "string" && b.type.k === "string") || (isTime(a.type) && a.type.k === b.type.k)) {
        return { js: `(${a.js} ${op} ${b.js})`, type: BOOL };
      }
      throw new CelUnsupported(`${op} on these types`);
    case "in":
      if (b.type.k === "list") return { js: `${env.rt("celIn")}(${a.js}, ${b.js})`, type: BOOL };
      if (b.type.k === "map") return { js: `Object.hasOwn(${b.js}, String(${a.js}))`, type: BOOL };
      throw new CelUnsupported("in on this type");
    case "+":
    case "-":
    case "*":
    case "/":
    case "%": {
      if (op === "+" && a.type.k === "string" && b.type.k === "string") return { js: `(${a.js} + ${b.js})`, type: STRING };
      if (op === "+" && a.type.k === "list" && b.type.k === "list") return { js: `[...${a.js}, ...${b.js}]`, type: a.type };
      const time = timeArithmetic(env, op, a, b);
      if (time) return time;
      if ((a.type.k === "int" || a.type.k === "uint") && a.type.k === b.type.k) return { js: `${env.rt("celIntOp")}(${stringLiteral(op)}, ${a.js}, ${b.js}, ${a.type.k === "uint"})`, type: a.type };
      if (a.type.k === "double" && b.type.k === "double") return { js: `(${a.js} ${op} ${b.js})`, type: DOUBLE };
      throw new CelUnsupported(`${op} on these types`);
    }
  }
  throw new CelUnsupported(`operator ${op}`);
}

function call(env: CelEnv, ast: Extract<Ast, { t: "call" }>, scope: Scope): Compiled {
  const c = (a: Ast) => compile(env, a, scope);
  const { name } = ast;
  if (!ast.target) {
    const [x] = ast.args;
    if (name === "has" && x?.t === "sel") {
      const obj = c(x.obj);
      if (obj.type.k !== "msg") throw new CelUnsupported("has() of a non-message");
      const plan = env.plan(obj.type.type);
      const f = plan?.fields.find((p) => p.field.name === x.name && p.extension === undefined);
      if (!f) throw new CelUnsupported(`no field ${x.name}`);
      return { js: hasField(obj.js, f), type: BOOL };
    }
    if (name === "size" && x) return size(env, c(x));
    if ((name === "duration" || name === "timestamp") && x?.t === "lit" && x.kind === "string") {
      const nanos = name === "duration" ? parseDuration(x.v) : parseTimestamp(x.v);
      return { js: `${nanos}n`, type: name === "duration" ? DURATION : TIMESTAMP };
    }
    if (x && ast.args.length === 1) {
      const v = c(x);
      if (name === "int") return { js: `${env.rt("celToInt")}(${v.js})`, type: INT };
      if (name === "uint") return { js: `${env.rt("celToUint")}(${v.js})`, type: UINT };
      if (name === "double") return { js: `Number(${v.js})`, type: DOUBLE };
      if (name === "string" && v.type.k !== "bytes") return { js: `${env.rt("celToString")}(${v.js})`, type: STRING };
      if (name === "string" && v.type.k === "bytes") return { js: `${env.rt("celBytesToString")}(${v.js})`, type: STRING };
      if (name === "bytes" && v.type.k === "string") return { js: `new TextEncoder().encode(${v.js})`, type: BYTES };
    }
    throw new CelUnsupported(`function ${name}`);
  }
  // Macros bind a variable.
  if (["all", "exists", "exists_one", "filter", "map"].includes(name)) {
    const target = c(ast.target);
    const [v, body] = ast.args;
    if (v?.t !== "id" || !body) throw new CelUnsupported(`${name}() form`);
    const plan = scope.origin.get(target.js);
    let items: string;
    let elemType: CelType;
    let conv: string;
    if (target.type.k === "list") {
      items = target.js;
      elemType = target.type.of;
      conv = elementValue(env, plan, elemType, "e");
    } else if (target.type.k === "map") {
      items = `Object.keys(${target.js})`;
      elemType = target.type.key;
      conv = elemType.k === "int" || elemType.k === "uint" ? "BigInt(e)" : elemType.k === "bool" ? 'e === "true"' : "e";
    } else throw new CelUnsupported(`${name}() of this type`);
    const inner = new Map(scope.vars);
    inner.set(v.name, { js: "e_" + v.name, type: elemType });
    const bodyC = compile(env, body, { vars: inner, origin: scope.origin });
    const fn = `(e: any) => { const e_${v.name}: any = ${conv}; return ${bodyC.js}; }`;
    switch (name) {
      case "all":
        return { js: `${items}.every(${fn})`, type: BOOL };
      case "exists":
        return { js: `${items}.some(${fn})`, type: BOOL };
      case "exists_one":
        return { js: `(${items}.filter(${fn}).length === 1)`, type: BOOL };
      case "filter":
        return { js: `${items}.filter(${fn})`, type: target.type.k === "list" ? target.type : { k: "list", of: elemType } };
      default:
        return { js: `${items}.map(${fn})`, type: { k: "list", of: bodyC.type } };
    }
  }
  const t = c(ast.target);
  const args = ast.args.map(c);
  const str = (i: number) => {
    const a = args[i];
    if (a?.type.k !== "string") throw new CelUnsupported(`${name}() wants a string`);
    return a.js;
  };
  if (name === "size" && args.length === 0) return size(env, t);
  if (name === "format" && t.type.k === "string" && args.length === 1 && args[0]!.type.k === "list") {
    return { js: `${env.rt("celFormat")}(${t.js}, ${args[0]!.js})`, type: STRING };
  }
  if (t.type.k === "string") {
    switch (name) {
      case "startsWith":
      case "endsWith":
        return { js: `${t.js}.${name}(${str(0)})`, type: BOOL };
      case "contains":
        return { js: `${t.js}.includes(${str(0)})`, type: BOOL };
      case "matches": {
        const re = ast.args[0];
        if (re?.t !== "lit" || re.kind !== "string") throw new CelUnsupported("matches() with a computed pattern");
        new RegExp(re.v, "u");
        return { js: `${env.constant(`re ${re.v}`, `new RegExp(${stringLiteral(re.v)}, "u")`)}.test(${t.js})`, type: BOOL };
      }
      case "isEmail":
        return { js: `${env.rt("pvIsEmail")}(${t.js})`, type: BOOL };
      case "isHostname":
        return { js: `${env.rt("pvIsHostname")}(${t.js})`, type: BOOL };
      case "isIp":
        return { js: `${env.rt("pvIsIp")}(${t.js}, ${args[0] ? `Number(${args[0].js})` : "0"} as 0 | 4 | 6)`, type: BOOL };
      case "isIpPrefix": {
        const ver = args.find((a) => a.type.k === "int");
        const strict = args.find((a) => a.type.k === "bool");
        return { js: `${env.rt("pvIsIpPrefix")}(${t.js}, ${ver ? `Number(${ver.js})` : "0"} as 0 | 4 | 6, ${strict ? strict.js : "false"})`, type: BOOL };
      }
      case "isUri":
        return { js: `${env.rt("pvIsUri")}(${t.js})`, type: BOOL };
      case "isUriRef":
        return { js: `${env.rt("pvIsUriRef")}(${t.js})`, type: BOOL };
      case "isHostAndPort":
        return { js: `${env.rt("pvIsHostAndPort")}(${t.js}, ${args[0]?.js ?? "false"})`, type: BOOL };
    }
  }
  if (t.type.k === "double" && (name === "isNan" || name === "isInf")) {
    return { js: name === "isNan" ? `Number.isNaN(${t.js})` : `(${t.js} === Infinity || ${t.js} === -Infinity)`, type: BOOL };
  }
  if (t.type.k === "list" && name === "unique") return { js: `${env.rt("pvUnique")}(${t.js})`, type: BOOL };
  throw new CelUnsupported(`method ${name}`);
}

function size(env: CelEnv, x: Compiled): Compiled {
  switch (x.type.k) {
    case "string":
      return { js: `BigInt(${env.rt("pvRunes")}(${x.js}))`, type: INT };
    case "bytes":
    case "list":
      return { js: `BigInt(${x.js}.length)`, type: INT };
    case "map":
      return { js: `BigInt(Object.keys(${x.js}).length)`, type: INT };
    default:
      throw new CelUnsupported("size() of this type");
  }
}

function hasField(obj: string, f: FieldPlan): string {
  if (f.oneof !== undefined) return `(${access(obj, f.oneof)}?.case === ${stringLiteral(f.prop)})`;
  const v = access(obj, f.prop);
  if (f.mapKey !== undefined) return `(${v} !== undefined && Object.keys(${v}).length > 0)`;
  if (f.repeated) return `(${v} !== undefined && ${v}.length > 0)`;
  if (f.presence !== "implicit") return `(${v} !== undefined)`;
  const s = f.value;
  if (s.kind === "scalar") {
    if (s.scalar === "bytes") return `(${v} !== undefined && ${v}.length > 0)`;
    if (s.scalar === "string") return `(${v} !== undefined && ${v} !== "")`;
    if (s.scalar === "boolean") return `(${v} === true)`;
    if (s.scalar === "float" || s.scalar === "double") return `(${v} !== undefined && ${v} !== 0)`;
    return `(${v} !== undefined && BigInt(${v}) !== 0n)`;
  }
  if (s.kind === "enum") return `(${v} !== undefined && ${v} !== 0 && ${v} !== ${stringLiteral(s.type.values.find((x) => x.number === 0)?.name ?? "")})`;
  return `(${v} !== undefined)`;
}

/** A CEL duration literal ("1h2m3.5s", "-1.5s", "100ms", "1us", "1ns") in nanoseconds. */
function parseDuration(text: string): bigint {
  const m = /^(-)?((?:\d+(?:\.\d+)?(?:h|ms|us|µs|ns|m|s))+)$/.exec(text);
  if (!m) throw new CelUnsupported(`duration "${text}"`);
  const unit: Record<string, bigint> = { h: 3600000000000n, m: 60000000000n, s: 1000000000n, ms: 1000000n, us: 1000n, "µs": 1000n, ns: 1n };
  let total = 0n;
  for (const part of m[2]!.matchAll(/(\d+)(?:\.(\d+))?(h|ms|us|µs|ns|m|s)/g)) {
    const u = unit[part[3]!]!;
    const frac = part[2] ?? "";
    total += BigInt(part[1]!) * u + (frac ? (BigInt(frac) * u) / 10n ** BigInt(frac.length) : 0n);
  }
  return m[1] ? -total : total;
}

/** A CEL timestamp literal (RFC 3339) in nanoseconds since the epoch. */
function parseTimestamp(text: string): bigint {
  const m = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(?:\.(\d{1,9}))?(Z|[+-]\d{2}:\d{2})$/.exec(text);
  const ms = m ? Date.parse(`${m[1]}${m[3]}`) : NaN;
  if (!m || Number.isNaN(ms)) throw new CelUnsupported(`timestamp "${text}"`);
  return BigInt(ms) * 1000000n + BigInt((m[2] ?? "").padEnd(9, "0") || "0");
}
