/**
 * Facts (see facts.ts) of one file as our front end sees it: the IR that parseProto lowers, with presence,
 * packed-ness and UTF-8 strictness taken from the protobuf codec's plan (src/emitters/protobuf/plan.ts), i.e. what
 * the generated encoders and decoders actually do.
 */
import { protoModel, type FieldPlan, type MessagePlan } from "../../../../src/emitters/protobuf/plan.js";
import type { Field, IrDocument, NamedType, TypeExpr } from "../../../../src/ir/model.js";
import { assignNames } from "../../../../src/naming/assign-names.js";
import { canonicalDefault, put, ranges, type Facts } from "./facts.js";

/** Facts of the declarations whose origin is `originFile` (the entry file's origin, as parseProto records it). */
export function irFacts(doc: IrDocument, originFile: string): Facts {
  const facts: Facts = new Map();
  const model = protoModel(doc, assignNames(doc));
  const plans = new Map<string, MessagePlan>(model.messages.map((m) => [m.record.id, m]));
  const types = new Map<string, NamedType>(doc.types.map((t) => [t.id, t]));
  const own = <T extends { readonly origin: { readonly file: string } }>(x: T): boolean => x.origin.file === originFile;

  for (const t of doc.types.filter(own)) {
    const full = protoName(t.id);
    if (t.kind === "enum") {
      put(facts, `enum ${full}`, "closed", t.closed === true);
      put(facts, `enum ${full}`, "allow-alias", t.allowAlias === true);
      put(facts, `enum ${full}`, "deprecated", t.deprecated === true);
      for (const v of t.values) {
        put(facts, `enum-value ${full}.${v.name}`, "number", v.number ?? "none");
        put(facts, `enum-value ${full}.${v.name}`, "deprecated", v.deprecated === true);
      }
      continue;
    }
    if (t.kind !== "record") throw new Error(`unexpected ${t.kind} ${t.id} in a proto document`);
    const el = `message ${full}`;
    put(facts, el, "deprecated", t.deprecated === true);
    if (t.extensionRanges?.length) put(facts, el, "extension-ranges", ranges(t.extensionRanges));
    if (t.reserved?.ranges.length) put(facts, el, "reserved-ranges", ranges(t.reserved.ranges));
    if (t.reserved?.names.length) put(facts, el, "reserved-names", [...t.reserved.names].sort().join(","));
    const plan = plans.get(t.id)!;
    for (const m of t.members) {
      if (m.kind === "field") field(facts, `field ${full}.${m.name}`, m, plan, types);
      else if (m.kind === "group") {
        for (const f of m.members) {
          if (f.kind !== "field") continue;
          field(facts, `field ${full}.${f.name}`, f, plan, types);
          if (m.oneofName !== undefined) put(facts, `field ${full}.${f.name}`, "oneof", m.oneofName);
        }
      }
    }
  }
  for (const e of doc.extensions.filter(own)) {
    const el = `extension .${e.fullName}`;
    field(facts, el, e.field, plans.get(e.extendee)!, types, e.fullName);
    put(facts, el, "extendee", protoName(e.extendee));
  }
  for (const s of doc.services.filter(own)) {
    if (s.kind !== "rpc") continue;
    put(facts, `service .${s.fullName}`, "deprecated", s.deprecated === true);
    for (const m of s.methods) {
      const el = `method .${s.fullName}.${m.name}`;
      put(facts, el, "input", protoName(m.input));
      put(facts, el, "output", protoName(m.output));
      const kind = m.clientStreaming ? (m.serverStreaming ? "bidi_streaming" : "client_streaming") : m.serverStreaming ? "server_streaming" : "unary";
      put(facts, el, "kind", kind);
      put(facts, el, "deprecated", m.deprecated === true);
    }
  }
  return facts;
}

/** "proto:.pkg.Msg" -> ".pkg.Msg". */
const protoName = (id: string): string => {
  if (!id.startsWith("proto:.")) throw new Error(`not a proto type id: ${id}`);
  return id.slice("proto:".length);
};

/** The IR's ScalarKind for proto `bool` is "boolean"; every other proto scalar keeps its name. */
const scalarName = (t: TypeExpr): string | undefined => (t.kind === "scalar" ? (t.scalar === "boolean" ? "bool" : t.scalar) : undefined);

function field(facts: Facts, el: string, f: Field, owner: MessagePlan, types: ReadonlyMap<string, NamedType>, extension?: string): void {
  const hint = f.wire.proto!;
  // The codec plan of this field: by extension name for extensions, by the field object otherwise.
  const plan: FieldPlan | undefined = owner.fields.find((p) => (extension !== undefined ? p.extension === extension : p.field === f));
  if (!plan) throw new Error(`no codec plan for ${el}`);
  put(facts, el, "number", hint.number);
  put(facts, el, "type", typeOf(f.type, hint.group === true));
  put(facts, el, "label", hint.label === "repeated" || hint.label === "required" ? hint.label : "optional");
  put(facts, el, "deprecated", f.deprecated === true);
  if (hint.label === "repeated" && f.type.kind !== "map") put(facts, el, "packed", plan.packed);
  if (hint.label !== "repeated") put(facts, el, "presence", plan.presence);
  if (extension === undefined) put(facts, el, "json", hint.jsonName);
  const strings = f.type.kind === "map" ? [f.type.key, f.type.value] : [f.type];
  if (strings.some((t) => scalarName(t) === "string")) put(facts, el, "utf8-verified", plan.strictUtf8);
  if (hint.default !== undefined) {
    const target = f.type.kind === "ref" ? types.get(f.type.id) : undefined;
    put(facts, el, "default", target?.kind === "enum" ? hint.default : canonicalDefault(scalarName(f.type)!, hint.default));
  }
}

function typeOf(t: TypeExpr, group: boolean): string {
  if (t.kind === "scalar") return scalarName(t)!;
  if (t.kind === "ref") return group ? `group ${protoName(t.id)}` : protoName(t.id);
  if (t.kind === "map") return `map<${typeOf(t.key, false)}, ${typeOf(t.value, false)}>`;
  throw new Error(`unexpected proto type expression ${t.kind}`);
}
