/**
 * The proto validators artifact: `<dir>/validate.ts` with `validate<T>(message): ValidationIssue[]` for every
 * message. Each issue has a JSON pointer into the message (TypeScript property names: "/entry/3/source/title").
 * Checked: required fields present, value types, integer ranges, enum membership, `@range` bounds, oneof cases,
 * map keys, nested messages.
 */
import { isDateRef } from "../../types/context.js";
import { stringLiteral } from "../../../codegen/escape.js";
import { GeneratedFile, type Printable } from "../../../codegen/generated-file.js";
import type { EnumType, IrDocument, Member, TypeId } from "../../../ir/model.js";
import type { EmitContext } from "../../artifact.js";
import { code } from "../code.js";
import { ModuleScope } from "../../../naming/module-scope.js";
import { foreignModule, importShared, isOwnType, printSharedExports } from "../../modules.js";
import { member, protoModel, type FieldPlan, type MessagePlan, type ValueShape } from "../plan.js";
import { INT64_SCALARS } from "../scalars.js";
import { emitFieldRules, ignoredAlways, fieldSetTest, hasFieldRules, emitMessageCel, messageOneofRules, oneofRequired, ruleViolation, type RulesCtx } from "./emit-rules.js";
import { fieldRange, RANGE_CONVENTION, type RangeSpec } from "./range.js";

const TYPES_MODULE = "./types.js";
/** Deeper than this, a value is reported rather than followed (cyclic objects would otherwise never end). */
const MAX_DEPTH = 100;

interface Ctx {
  readonly f: GeneratedFile;
  readonly emit: EmitContext;
  rt(name: string): Printable;
  type(id: TypeId): Printable;
  check(id: TypeId): string;
  isEnum(id: TypeId): string;
  rules: RulesCtx;
  /** Some message has validation rules: check functions carry protovalidate's field path (`fp`). */
  withRules: boolean;
  /** Whether the check function of this message takes `fp` (its module's `withRules`: another file's may differ). */
  takesFieldPath(id: TypeId): boolean;
}

/** Some message of the document has protovalidate / protoc-gen-validate rules. */
export function docHasRules(doc: IrDocument): boolean {
  return doc.types.some((t) => t.kind === "record" && (t.protoRules !== undefined || t.members.some(hasRules)));
}

function hasRules(m: Member): boolean {
  return m.kind === "field" ? (m.wire?.proto?.rules?.length ?? 0) > 0 : m.kind === "group" ? m.protoRules !== undefined || m.members.some(hasRules) : false;
}

export function emitProtoValidators(emit: EmitContext): GeneratedFile {
  const model = protoModel(emit.doc, emit.names);
  const f = new GeneratedFile(`${emit.dir}/validate.ts`, emit.source);
  // A message of another input file is checked by that file's module (its checker is imported from there).
  const messages = model.messages.filter((m) => isOwnType(emit, m.record.id));
  const scope = new ModuleScope(emit.names, messages.map((m) => emit.names.derived(m.record.id, "validate")));
  const plans = new Map(model.messages.map((m) => [m.record.id, m]));
  const constants: string[] = [];
  const rules: RulesCtx = {
    extensions: emit.doc.extensions,
    origin: emit.doc.types[0]?.origin ?? { file: emit.source, line: 1, column: 1, pointer: "", construct: "proto file" },
    print: (line) => f.print(line),
    rt: (name) => f.use(f.import(name, emit.runtimeModule)),
    int64: emit.int64,
    dates: emit.dates,
    plan: (type) => plans.get(type.id),
    warn: (origin, detail) => emit.warn?.(origin, detail),
    enumNumber: (e) =>
      rules.constant(
        `enum ${e.id}`,
        `(v: any): number => (typeof v === "number" ? v : ({ ${e.values.map((x) => `${stringLiteral(x.name)}: ${x.number}`).join(", ")} } as Record<string, number>)[v] ?? 0)`,
      ),
    constant: (key, init) => {
      const before = constants.length;
      const name = scope.numbered(key, "RULE");
      if (constants.length === before && !constants.some((c) => c.startsWith(`const ${name} `))) constants.push(`const ${name} = ${init};`);
      return name;
    },
  };
  const withRules = docHasRules(emit.doc);
  const c: Ctx = {
    withRules,
    rules,
    f,
    emit,
    rt: (name) => f.import(name, emit.runtimeModule, { typeOnly: name === "ValidationIssue" }),
    type: (id) => f.import(emit.names.type(id), TYPES_MODULE, { typeOnly: true }),
    check: (id) => {
      const home = foreignModule(emit, id);
      return home ? importShared(f, home, "validate", emit.names.shared(id, "check")) : scope.helper("check", id);
    },
    takesFieldPath: (id) => {
      const home = foreignModule(emit, id);
      return home ? docHasRules(home.doc) : withRules;
    },
    isEnum: (id) => scope.helper("isEnum", id),
  };
  f.jsdoc("", [
    `Validators for the messages of ${emit.source}: \`validate<T>(message)\` returns every issue found (empty when valid).`,
    "Checked: proto2 required and proto3 implicit fields are present, values have their field's type, integers are " +
      "within their type's range, enum values are listed (open enums also take int32 numbers), oneof cases exist, " +
      "map keys read as their key type, nested messages recursively. " + RANGE_CONVENTION,
  ]);
  f.print();
  const enums = new Map<TypeId, EnumType>();
  for (const m of messages) for (const p of m.fields) if (p.value.kind === "enum") enums.set(p.value.type.id, p.value.type);
  for (const e of enums.values()) emitEnumCheck(c, e);
  for (const m of messages) emitMessage(c, m);
  for (const line of constants) f.print(line);
  if (constants.length) f.print();
  printSharedExports(f, emit, messages.map((m) => [emit.names.shared(m.record.id, "check"), c.check(m.record.id)] as const));
  return f;
}

function emitEnumCheck(c: Ctx, e: EnumType): void {
  const { f } = c;
  f.print(`function ${c.isEnum(e.id)}(v: unknown): boolean {`);
  f.print("  switch (v) {");
  for (const v of e.values) f.print(`    case ${stringLiteral(v.name)}:`);
  f.print("      return true;");
  f.print("    default:");
  f.print(e.closed === false ? code`      return ${c.rt("pbIsEnumNumber")}(v);` : "      return false;");
  f.print("  }");
  f.print("}");
  f.print();
}

function emitMessage(c: Ctx, m: MessagePlan): void {
  const { f } = c;
  const id = m.record.id;
  const T = c.type(id);
  const Issue = c.rt("ValidationIssue");
  f.jsdoc("", [`Every issue of a {@link ${m.name}}, with JSON pointers relative to it; empty when it is valid.`]);
  f.print(code`export function ${c.emit.names.derived(id, "validate")}(message: ${T}): ${Issue}[] {`);
  f.print(code`  const issues: ${Issue}[] = [];`);
  f.print(`  ${c.check(id)}(message, "", issues, 0${c.withRules ? ', ""' : ""});`);
  f.print("  return issues;");
  f.print("}");
  f.print();
  // validate<T> takes a typed message; its checks start with "is it an object", so any value may be passed.
  f.jsdoc("", [`{@link ${m.name}} as a Standard Schema v1 object: \`~standard.validate\` wraps {@link ${c.emit.names.derived(id, "validate")}}.`]);
  const schema = c.emit.names.standardSchema(id);
  f.print(code`export const ${schema}: ${c.f.import("StandardSchemaV1", c.emit.runtimeModule, { typeOnly: true })}<${T}> = /*#__PURE__*/ ${c.rt("standardSchema")}((value) => ${c.emit.names.derived(id, "validate")}(value as ${T}));`);
  f.print();
  f.print(code`function ${c.check(id)}(m: ${T}, path: string, issues: ${Issue}[], depth: number${c.withRules ? ", fp: string" : ""}): void {`);
  f.print("  if (typeof m !== \"object\" || m === null) {");
  f.print('    issues.push({ path, rule: "type", message: "expected a message object" });');
  f.print("    return;");
  f.print("  }");
  f.print(`  if (depth > ${MAX_DEPTH}) {`);
  f.print(`    issues.push({ path, rule: "depth", message: "nested deeper than ${MAX_DEPTH}" });`);
  f.print("    return;");
  f.print("  }");
  const done = new Set<string>();
  const oneofRuleFields = new Set(messageOneofRules(m).flatMap((r) => r.fields));
  for (const p of m.fields) {
    if (p.oneof !== undefined) {
      if (!done.has(p.oneof)) emitOneof(c, m, p.oneof);
      done.add(p.oneof);
    } else if (p.extension !== undefined) emitExtension(c, m, p);
    else {
      emitField(c, p);
      if (hasFieldRules(p)) emitFieldRules(c.rules, p, member("m", p.prop), "", "  ", oneofRuleFields.has(p));
    }
  }
  for (const rule of messageOneofRules(m)) {
    const names = rule.fields.map((p) => p.field.name).join(", ");
    const place = { ptr: "path", fp: "fp" };
    f.print(`  {`);
    f.print(`    const set = ${rule.fields.map((p) => `(${fieldSetTest(c.rules, p, "m")} ? 1 : 0)`).join(" + ")};`);
    f.print(`    if (set > 1) ${ruleViolation(c.rules, place, "message.oneof", stringLiteral(`only one of ${names} can be set`))}`);
    if (rule.required) f.print(`    if (set === 0) ${ruleViolation(c.rules, place, "message.oneof", stringLiteral(`one of ${names} must be set`))}`);
    f.print(`  }`);
  }
  emitMessageCel(c.rules, m, "  ");
  const unknown = member("m", m.unknownProp);
  f.print(code`  if (${unknown} !== undefined) ${c.rt("pbCheckBytes")}(${unknown}, ${c.rt("pointerJoin")}(path, ${stringLiteral(m.unknownProp)}), issues);`);
  f.print("}");
  f.print();
}

function emitField(c: Ctx, p: FieldPlan): void {
  const { f } = c;
  const expr = member("m", p.prop);
  const at = code`${c.rt("pointerJoin")}(path, ${stringLiteral(p.prop)})`;
  const mustBePresent = p.presence === "required" || p.presence === "implicit";
  f.print("  {");
  f.print(`    const v: unknown = ${expr};`);
  f.print(code`    const at = ${at};`);
  if (mustBePresent) {
    f.print('    if (v === undefined) issues.push({ path: at, rule: "required", message: "required field missing" });');
    f.print("    else {");
  } else f.print("    if (v !== undefined) {");
  emitOccurrence(c, p, "v", "at", "      ", code`${c.rt("pvField")}(fp, ${stringLiteral(p.field.name)})`);
  f.print("    }");
  f.print("  }");
}

function emitExtension(c: Ctx, m: MessagePlan, p: FieldPlan): void {
  const { f } = c;
  f.print("  {");
  f.print(`    const v: unknown = ${member(`m.${m.extensionsProp}?.`, p.extension!).replace("?..", "?.")};`);
  f.print(code`    const at = ${c.rt("pointerJoin")}(${c.rt("pointerJoin")}(path, ${stringLiteral(m.extensionsProp!)}), ${stringLiteral(p.extension!)});`);
  f.print("    if (v !== undefined) {");
  emitOccurrence(c, p, "v", "at", "      ", code`${c.rt("pvField")}(fp, ${stringLiteral(`[${p.extension!}]`)})`);
  f.print("    }");
  f.print("  }");
}

/** A present field: a list, a map, or one value. */
function emitOccurrence(c: Ctx, p: FieldPlan, v: string, at: string, indent: string, fp: Printable[]): void {
  const { f } = c;
  const join = c.rt("pointerJoin");
  if (p.mapKey !== undefined) {
    const keyType = p.mapKey === "boolean" ? "bool" : INT64_SCALARS.has(p.mapKey) ? (/^(uint|fixed)/.test(p.mapKey) ? "uint64" : "int64") : p.mapKey === "string" ? "string" : /^(uint|fixed)/.test(p.mapKey) ? "uint32" : "int32";
    f.print(`${indent}if (typeof ${v} !== "object" || ${v} === null) issues.push({ path: ${at}, rule: "type", message: "expected a map object" });`);
    f.print(`${indent}else {`);
    f.print(`${indent}  const map = ${v} as { [key: string]: unknown };`);
    f.print(`${indent}  for (const key of Object.keys(map)) {`);
    f.print(code`${indent}    const entryAt = ${join}(${at}, key);`);
    f.print(code`${indent}    ${c.rt("pbCheckMapKey")}(key, entryAt, issues, ${stringLiteral(keyType)});`);
    emitValue(c, p, p.value, "map[key]", "entryAt", `${indent}    `, undefined, code`${c.rt("pvKey")}(${fp}, key, ${p.mapKey === "string"})`);
    f.print(`${indent}  }`);
    f.print(`${indent}}`);
    return;
  }
  if (p.repeated) {
    f.print(`${indent}if (!Array.isArray(${v})) issues.push({ path: ${at}, rule: "type", message: "expected an array" });`);
    f.print(`${indent}else {`);
    f.print(`${indent}  const list: unknown[] = ${v};`);
    f.print(code`${indent}  for (let i = 0; i < list.length; i++) {`);
    emitValue(c, p, p.value, "list[i]", "itemAt", `${indent}    `, code`${join}(${at}, i)`, code`${fp} + "[" + i + "]"`);
    f.print(`${indent}  }`);
    f.print(`${indent}}`);
    return;
  }
  emitValue(c, p, p.value, v, at, indent, undefined, fp);
}

/** Checks of one value (`v` is an expression of type unknown; `at` its pointer expression). */
function emitValue(c: Ctx, p: FieldPlan, shape: ValueShape, v: string, at: string, indent: string, atInit: Printable[] | undefined, fp: Printable[]): void {
  const { f } = c;
  if (atInit) f.print(code`${indent}const ${at} = ${atInit};`);
  if (!/^[A-Za-z_$][\w$]*$/.test(v)) {
    f.print(`${indent}const x: unknown = ${v};`);
    v = "x";
  }
  switch (shape.kind) {
    case "enum":
      f.print(`${indent}if (!${c.isEnum(shape.type.id)}(${v})) {`);
      f.print(`${indent}  issues.push({ path: ${at}, rule: "enum", message: String(${v}) + ${stringLiteral(` is not a value of ${shape.type.name}`)} });`);
      f.print(`${indent}}`);
      return;
    case "message":
    case "group":
      if (isDateRef(shape.type.id, c.emit.dates)) {
        f.print(code`${indent}${c.rt("pbCheckDate")}(${v}, ${at}, issues);`);
        return;
      }
      if (ignoredAlways(p)) {
        // `ignore: IGNORE_ALWAYS`: the nested message is still checked for shape, but none of its rules apply.
        f.print(`${indent}{`);
        f.print(`${indent}  const before = issues.length;`);
        f.print(code`${indent}  ${c.check(shape.type.id)}(${v} as ${c.type(shape.type.id)}, ${at}, issues, depth + 1`, ...(c.takesFieldPath(shape.type.id) ? [", ", ...fp] : []), ");");
        f.print(code`${indent}  ${c.rt("pvDropRuleViolations")}(issues, before);`);
        f.print(`${indent}}`);
      } else f.print(code`${indent}${c.check(shape.type.id)}(${v} as ${c.type(shape.type.id)}, ${at}, issues, depth + 1`, ...(c.takesFieldPath(shape.type.id) ? [", ", ...fp] : []), ");");
      return;
    case "scalar": {
      const s = shape.scalar;
      if (INT64_SCALARS.has(s)) {
        const unsigned = s === "uint64" || s === "fixed64";
        f.print(code`${indent}${c.rt("pbCheckInt64")}(${v}, ${at}, issues, ${stringLiteral(c.emit.int64)}, ${unsigned});`);
      } else {
        const fn: Record<string, string> = {
          int32: "pbCheckInt32", sint32: "pbCheckInt32", sfixed32: "pbCheckInt32", uint32: "pbCheckUint32", fixed32: "pbCheckUint32",
          float: "pbCheckFloat", double: "pbCheckDouble", boolean: "pbCheckBool", string: "pbCheckString", bytes: "pbCheckBytes",
        };
        f.print(code`${indent}${c.rt(fn[s]!)}(${v}, ${at}, issues);`);
      }
      const range = fieldRange(p.field);
      if (range) emitRange(c, range, s === "float", v, at, indent);
      return;
    }
  }
}

function emitRange(c: Ctx, range: RangeSpec, float32: boolean, v: string, at: string, indent: string): void {
  // float fields hold float32 values: compare with the bounds as float32 so that "0.1" admits 0.1f.
  const bound = (n: number) => {
    const b = float32 ? Math.fround(n) : n;
    return Object.is(b, -0) ? "-0" : String(b);
  };
  const tests = range.alternatives.map((a) => (a.min === a.max ? `n === ${bound(a.min)}` : `(n >= ${bound(a.min)} && n <= ${bound(a.max)})`));
  const { f } = c;
  f.print(`${indent}if (typeof ${v} === "number" || typeof ${v} === "bigint" || typeof ${v} === "string") {`);
  f.print(`${indent}  const n = Number(${v});`);
  const test = tests.length === 1 ? tests[0]!.replace(/^\((.*)\)$/, "$1") : tests.join(" || ");
  f.print(`${indent}  if (!(${test})) {`);
  f.print(`${indent}    issues.push({ path: ${at}, rule: "range", message: String(n) + ${stringLiteral(` is outside ${range.text}`)} });`);
  f.print(`${indent}  }`);
  f.print(`${indent}}`);
}

function emitOneof(c: Ctx, m: MessagePlan, oneof: string): void {
  const { f } = c;
  const members = m.fields.filter((p) => p.oneof === oneof);
  const join = c.rt("pointerJoin");
  f.print("  {");
  f.print(`    const o = ${member("m", oneof)} as { case?: unknown; value?: unknown } | undefined;`);
  f.print(code`    const at = ${join}(path, ${stringLiteral(oneof)});`);
  f.print("    if (o !== undefined) {");
  f.print(code`      const valueAt = ${join}(at, "value");`);
  f.print("      switch (o.case) {");
  for (const p of members) {
    f.print(`        case ${stringLiteral(p.prop)}: {`);
    emitValue(c, p, p.value, "o.value", "valueAt", "          ", undefined, code`${c.rt("pvField")}(fp, ${stringLiteral(p.field.name)})`);
    f.print("          break;");
    f.print("        }");
  }
  f.print("        default:");
  const cases = members.map((p) => p.prop).join(", ");
  f.print(`          issues.push({ path: at, rule: "oneof", message: ${stringLiteral(`case must be one of ${cases}`)} });`);
  f.print("      }");
  f.print("    }");
  const group = m.record.members.find((g) => g.kind === "group" && g.members.includes(members[0]!.field));
  const protoName = group?.kind === "group" ? group.oneofName ?? oneof : oneof;
  if (group?.kind === "group" && oneofRequired(group.protoRules)) {
    const place = { ptr: "at", fp: `${c.rules.rt("pvField")}(fp, ${stringLiteral(protoName)})` };
    f.print(`    if (o === undefined || o.case === undefined) ${ruleViolation(c.rules, place, "required", '"exactly one field is required in oneof"')}`);
  }
  f.print("  }");
  for (const p of members) {
    if (hasFieldRules(p)) emitFieldRules(c.rules, p, `(${member("m", oneof)}?.case === ${stringLiteral(p.prop)} ? ${member("m", oneof)}.value : undefined)`, `${member("m", oneof)}?.case === ${stringLiteral(p.prop)}`, "  ", false);
  }
}
