import fc from "fast-check";
import type { Facets, IrDocument, RecordType, ScalarType, TypeExpr } from "../../../../src/ir/model.js";
import { assignNames } from "../../../../src/naming/assign-names.js";
import { typesContext, type TypesContext } from "../../../../src/emitters/types/context.js";
import { recordLayout } from "../../../../src/emitters/xml/record-layout.js";
import { translateXsdPattern } from "../../../../src/emitters/xml-validators/xsd-regex.js";

/**
 * fast-check arbitraries of schema-valid values, built from the IR: what the generated types allow and the schema's
 * facets and occurrences accept (so every sample also validates under xmllint). Optional lists are absent or
 * non-empty (an empty list and an absent one are the same XML).
 */
export interface ArbitraryOptions {
  /** Depth at which optional content stops being generated (open content and optional fields). */
  readonly maxDepth?: number;
}

// Text that survives XML: no forbidden controls or lone surrogates, with the specials and some non-ASCII.
const TEXT_CHARS = fc.constantFrom(..."abcXYZ019 &<>\"'\t\n\r;é€\u{1F600}".split(/(?:)/u));
const text = fc.array(TEXT_CHARS, { maxLength: 12 }).map((a) => a.join(""));

export function arbitraries(doc: IrDocument, options: ArbitraryOptions = {}) {
  const ctx: TypesContext = typesContext(doc, assignNames(doc));
  const maxDepth = options.maxDepth ?? 3;

  function forType(t: TypeExpr, depth: number, facets?: Facets): fc.Arbitrary<unknown> {
    switch (t.kind) {
      case "scalar":
        return scalar(t, facets);
      case "ref": {
        const n = ctx.types.get(t.id)!;
        if (n.kind === "enum") return fc.constantFrom(...n.values.map((v) => v.value));
        if (n.kind === "alias") return forType(n.target, depth, { ...facets, ...n.facets });
        if (n.kind === "record") {
          const members = [n.id, ...(ctx.subtypes.get(n.id) ?? [])]
            .map((id) => ctx.types.get(id) as RecordType)
            .filter((r) => !r.abstract);
          if (members.length === 1 && !ctx.subtypes.has(n.id)) return record(n, depth);
          return fc.oneof(...members.map((m) => record(m, depth)));
        }
        return fc.constant(undefined);
      }
      case "list":
        return fc.array(forType(t.of, depth), { minLength: 1, maxLength: 3 });
      case "union":
        return forType(t.of[0]!, depth, facets);
      case "literal":
        return fc.constant(t.value);
      case "map":
        return fc.constant({});
    }
  }

  function scalar(t: ScalarType, facets?: Facets): fc.Arbitrary<unknown> {
    if (facets?.enumeration) return fc.constantFrom(...facets.enumeration);
    switch (t.scalar) {
      case "string":
      case "anyURI": {
        for (const p of facets?.patterns ?? []) {
          const tr = translateXsdPattern(p);
          if ("source" in tr) return fc.stringMatching(new RegExp(tr.source, "u")).filter((s) => !/[\u0000-\u001f]/.test(s));
        }
        const min = facets?.length ?? facets?.minLength ?? 0;
        const max = facets?.length ?? facets?.maxLength ?? Math.max(min, 12);
        if (t.builtin === "xsd:token" || t.builtin === "xsd:NCName" || t.builtin === "xsd:Name" || t.scalar === "anyURI" || min > 0) {
          return fc.string({ unit: fc.constantFrom(..."abcdefXYZ0123"), minLength: Math.max(1, min), maxLength: max });
        }
        return text;
      }
      case "QName":
        // A QName value is {namespace}local (runtime qname.ts).
        return fc.constant("{http://www.w3.org/2001/XMLSchema}string");
      case "boolean":
        return fc.boolean();
      case "int32":
      case "sint32":
      case "sfixed32": {
        const b = t.builtin === "xsd:short" ? 32767 : t.builtin === "xsd:byte" ? 127 : 2147483647;
        return fc.integer({ min: -b - 1, max: b });
      }
      case "uint32":
      case "fixed32":
        return fc.integer({ min: 0, max: t.builtin === "xsd:unsignedShort" ? 65535 : t.builtin === "xsd:unsignedByte" ? 255 : 4294967295 });
      case "int64":
      case "sint64":
      case "sfixed64":
        return fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n });
      case "uint64":
      case "fixed64":
        return fc.bigInt({ min: 0n, max: 2n ** 64n - 1n });
      case "integer":
        return t.builtin === "xsd:positiveInteger" ? fc.bigInt({ min: 1n, max: 10n ** 30n }) : fc.bigInt({ min: 0n, max: 10n ** 30n });
      case "float":
        return fc.oneof(fc.float({ noNaN: true, noDefaultInfinity: true }).map((f) => (Object.is(f, -0) ? 0 : f)), fc.constantFrom(NaN, Infinity, -Infinity));
      case "double":
        return fc.oneof(fc.double({ noNaN: true, noDefaultInfinity: true }), fc.constantFrom(NaN, Infinity, -Infinity));
      case "decimal":
        return fc.tuple(fc.integer({ min: -99999, max: 99999 }), fc.integer({ min: 0, max: 999 })).map(([i, f]) => `${i}.${f}`);
      case "bytes":
        return fc.uint8Array({ maxLength: 20 });
      case "dateTime":
        return fc.date({ min: new Date("1990-01-01"), max: new Date("2100-01-01"), noInvalidDate: true }).map((d) => d.toISOString());
      case "date":
        return fc.date({ min: new Date("1990-01-01"), max: new Date("2100-01-01"), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10));
      case "time":
        return fc.date({ min: new Date("1990-01-01"), max: new Date("2100-01-01"), noInvalidDate: true }).map((d) => d.toISOString().slice(11, 19));
      case "duration":
        return fc.constantFrom("P1D", "PT1H30M", "P1Y2M3DT4H5M6.5S");
      case "any":
        return text;
    }
  }

  function record(r: RecordType, depth: number): fc.Arbitrary<unknown> {
    const layout = recordLayout(r, ctx);
    const props: Record<string, fc.Arbitrary<unknown>> = {};
    const required: string[] = [];
    if (layout.familyRoot !== undefined) {
      props.$type = fc.constant(r.name);
      if (layout.familyRoot !== r.id) required.push("$type");
    }
    for (const s of layout.slots) {
      if (s.kind === "any") {
        if (depth >= maxDepth) continue;
        props[s.key] = fc.array(openItem(s.tns, s.any.namespace, depth + 1), { minLength: 1, maxLength: 4 });
        continue;
      }
      if (s.kind === "ordered") {
        // A repeating choice kept in document order: `{ kind, value }` items of any of its kinds, in any order.
        const min = s.ordered.minItems;
        if (min === 0 && depth >= maxDepth) continue;
        const kinds = s.items.map((i) => {
          const e = i.slot;
          let value: fc.Arbitrary<unknown>;
          if (e.kind === "any") value = openItem(e.tns, e.any.namespace, depth + 1);
          else {
            value = e.field.fixed !== undefined ? fc.constant(e.field.fixed) : forType(e.field.type, depth + 1, e.field.facets);
            if (e.field.nullable) value = fc.option(value, { nil: null, freq: 4 });
          }
          return fc.record({ kind: fc.constant(i.kind), value });
        });
        props[s.key] = fc.array(fc.oneof(...kinds), { minLength: Math.max(1, min), maxLength: Math.max(min, 4) });
        if (min >= 1) required.push(s.key);
        continue;
      }
      // Optional content stops at maxDepth, which also ends recursive types (they recurse through optional fields).
      if (s.occurs.min === 0 && depth >= maxDepth) continue;
      let item = forType(s.field.type, depth + 1, s.field.facets);
      if (s.field.fixed !== undefined) item = fc.constant(s.field.fixed);
      if (s.field.nullable && s.kind === "element") item = fc.option(item, { nil: null, freq: 4 });
      const max = s.occurs.max === "unbounded" ? 3 : Math.min(3, s.occurs.max);
      const arb = s.list ? fc.array(item, { minLength: Math.max(1, s.occurs.min), maxLength: Math.max(1, max) }) : item;
      props[s.key] = arb;
      if (s.occurs.min >= 1) required.push(s.key);
    }
    return fc.record(props, { requiredKeys: required });
  }

  function openItem(tns: string, constraint: string, depth: number): fc.Arbitrary<unknown> {
    const ns = constraint.startsWith("##") ? tns : constraint.split(/\s+/)[0]!;
    const name = fc.constantFrom("Name", "Phone", "Amount__c", "Description");
    const nested = [...ctx.types.values()].filter((t): t is RecordType => t.kind === "record" && !t.anonymous && t.scope === ns && !ctx.subtypes.has(t.id));
    const values: fc.Arbitrary<unknown>[] = [text, fc.constant(null)];
    if (depth < maxDepth && nested.length > 0) {
      values.push(record(nested[0]!, depth + 1).map((v) => ({ ...(v as object), $type: nested[0]!.name })));
    }
    return fc.record({ ns: fc.constant(ns), name, value: fc.oneof(...values) });
  }

  return {
    ctx,
    element(id: string): fc.Arbitrary<unknown> {
      const el = doc.elements.find((e) => e.id === id)!;
      const arb = forType(el.type, 0);
      return el.nullable ? fc.option(arb, { nil: null, freq: 6 }) : arb;
    },
  };
}
