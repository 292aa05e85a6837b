/**
 * The value generator's property check (issue 30), shared by values.test.ts (seeds, OAI documents) and
 * values-corpus.test.ts (the .proto and WSDL corpus): for every named type with a generated validator, `count`
 * generated values pass the validator and survive every generated codec of the type, encode -> decode, the decoded
 * value passing the validator again and re-encoding to the same bytes/text:
 *
 * - OpenAPI: `encode<T>Json` / `decode<T>Json`;
 * - .proto: protobuf binary (`encode<T>` / `decode<T>`) and proto3 JSON as text (the `protoJsonRegistry` entry's
 *   toJson / fromJson, JSON.stringify / JSON.parse);
 * - XSD / WSDL: the type's codec of the generated `xmlTypes` map, written as a standalone element named after the
 *   type and read back from the XML text.
 */
import type { NamedType, TypeId } from "../../../src/ir/model.js";
import type { LoadedSpec } from "../../../src/mock/load.js";
import { ValueGenerator } from "../../../src/mock/values.js";

type Fn = (...args: unknown[]) => unknown;

export interface Codec {
  readonly name: string;
  encode(value: unknown): string | Uint8Array;
  decode(wire: string | Uint8Array): unknown;
}

export interface CheckResult {
  /** Types checked. */
  readonly checked: number;
  /** Values generated and validated. */
  readonly values: number;
  /** Encode -> decode round trips done, by codec name. */
  readonly roundTrips: Readonly<Record<string, number>>;
  /** Types that had at least one codec. */
  readonly withCodec: number;
  /** One line per failing type (its first failure). */
  readonly failures: readonly string[];
}

const XSI = "http://www.w3.org/2001/XMLSchema-instance";

/** The generated codecs of the named type `t`, by the names the naming pass gave them. */
export function codecsOf(spec: LoadedSpec, t: NamedType): Codec[] {
  const m = spec.module;
  const fn = (n: string) => m[n] as Fn | undefined;
  const out: Codec[] = [];
  if (spec.doc.format === "openapi") {
    const enc = fn(spec.names.derived(t.id, "encodeJson"));
    const dec = fn(spec.names.derived(t.id, "decodeJson"));
    if (enc && dec) out.push({ name: "json", encode: (v) => enc(v) as string, decode: (w) => dec(w) });
  }
  if (spec.doc.format === "proto") {
    const enc = fn(spec.names.derived(t.id, "encode"));
    const dec = fn(spec.names.derived(t.id, "decode"));
    if (enc && dec) out.push({ name: "protobuf", encode: (v) => enc(v) as Uint8Array, decode: (w) => dec(w) });
    // Through the registry, by full name (the exported functions are names.derived(id, "toJson"), ...).
    const registry = m.protoJsonRegistry as { get(name: string): { toJson: Fn; fromJson: Fn } | undefined } | undefined;
    const entry = t.kind === "record" ? registry?.get(t.id.replace(/^proto:\./, "")) : undefined;
    if (entry) out.push({ name: "protojson", encode: (v) => JSON.stringify(entry.toJson(v, {})), decode: (w) => entry.fromJson(JSON.parse(w as string), {}) });
  }
  if (spec.doc.format === "wsdl" || spec.doc.format === "xsd") {
    const xml = xmlTypeCodec(spec, t.id);
    if (xml) out.push(xml);
  }
  return out;
}

interface XmlTypeCodec {
  encode(value: unknown, writer: unknown, ns: string, local: string, xsiType?: boolean): void;
  decode(node: unknown, path?: string): unknown;
}

function xmlTypeCodec(spec: LoadedSpec, id: TypeId): Codec | undefined {
  const match = /^xsd:\{([^}]*)\}(.+)$/.exec(id);
  const types = spec.module.xmlTypes as Record<string, XmlTypeCodec> | undefined;
  if (!match || !types) return undefined;
  const [, ns, local] = match as unknown as [string, string, string];
  const key = `{${ns}}${local}`;
  const codec = Object.prototype.hasOwnProperty.call(types, key) ? types[key] : undefined;
  if (!codec) return undefined;
  const rt = spec.runtime as { encodeXmlElement: Fn; parseXml: Fn };
  const namespaces = (spec.module.xmlNamespaces as [string, string][] | undefined) ?? xmlNamespacesOf(spec);
  return {
    name: "xml",
    encode: (v) => rt.encodeXmlElement(v, undefined, namespaces, (w: unknown, x: unknown) => codec.encode(x, w, ns, local, false)) as string,
    decode: (w) => codec.decode(rt.parseXml(w as string), ""),
  };
}

/** Every namespace of the document's XSD types, prefixed as the generated xml.ts does when it does not export them. */
function xmlNamespacesOf(spec: LoadedSpec): [string, string][] {
  const uris = new Set<string>();
  for (const t of spec.doc.types) {
    const m = /^xsd:\{([^}]*)\}/.exec(t.id);
    if (m && m[1] !== "") uris.add(m[1]!);
  }
  return [...[...uris].map((u, i): [string, string] => [u, `ns${i + 1}`]), [XSI, "xsi"]];
}

/** Types no value can have are not the generator's to fill (an empty enum, `enum: []`, the `false` schema). */
export function noValue(t: NamedType): boolean {
  return (t.kind === "enum" && t.values.length === 0) || (t.checks ?? []).some((c) => c.kind === "never");
}

export function show(v: unknown): string {
  return JSON.stringify(v, (_k, x: unknown) => (typeof x === "bigint" ? `${x}n` : x instanceof Uint8Array ? `bytes(${x.length})` : x))?.slice(0, 300) ?? String(v);
}

function wireKey(w: unknown): string {
  return w instanceof Uint8Array ? Buffer.from(w).toString("hex") : String(w);
}

function message(e: unknown): string {
  return e instanceof Error ? e.message.slice(0, 300) : String(e);
}

/** The property check over the named types of `spec` (`skip`: types left out, by IR id). */
export function checkSpec(spec: LoadedSpec, count: number, skip: ReadonlySet<string> = new Set()): CheckResult {
  const gen = new ValueGenerator(spec.doc, { int64: spec.int64, dates: spec.dates });
  const failures: string[] = [];
  const roundTrips: Record<string, number> = {};
  let checked = 0;
  let values = 0;
  let withCodec = 0;
  for (const t of spec.doc.types) {
    const validate = spec.module[spec.names.derived(t.id, "validate")] as Fn | undefined;
    if (!validate || noValue(t) || skip.has(t.id)) continue;
    checked++;
    const codecs = codecsOf(spec, t);
    if (codecs.length > 0) withCodec++;
    values: for (let i = 0; i < count; i++) {
      const value = gen.value(t.id, i);
      values++;
      const issues = validate(value) as { path: string; message: string }[];
      if (issues.length > 0) {
        failures.push(`${t.name} seed ${i}: ${issues[0]!.path} ${issues[0]!.message} in ${show(value)}`);
        break;
      }
      for (const codec of codecs) {
        let problem: string | undefined;
        try {
          const wire = codec.encode(value);
          const back = codec.decode(wire);
          const again = validate(back) as { path: string; message: string }[];
          if (again.length > 0) problem = `decoded value fails the validator: ${again[0]!.path} ${again[0]!.message}`;
          else {
            const rewired = codec.encode(back);
            if (wireKey(rewired) !== wireKey(wire)) problem = `re-encoding the decoded value differs: ${wireKey(wire).slice(0, 200)} vs ${wireKey(rewired).slice(0, 200)}`;
          }
        } catch (e) {
          problem = `threw ${message(e)}`;
        }
        if (problem !== undefined) {
          failures.push(`${t.name} seed ${i} ${codec.name}: ${problem} (value ${show(value)})`);
          break values;
        }
        roundTrips[codec.name] = (roundTrips[codec.name] ?? 0) + 1;
      }
    }
  }
  return { checked, values, roundTrips, withCodec, failures };
}
