/**
 * Fuzz properties for every codec, shared by the test run (fixed seed, few runs: test/fuzz/codecs.test.ts) and
 * `npm run fuzz` (scripts/fuzz.ts: many seeds within a time budget). No vitest imports: plain assertions.
 *
 * - round trips: random valid values survive encode -> decode (protobuf binary and ProtoJSON on content.proto, the
 *   REST JSON serializers of webhooks and members, the XML element codecs of the partner WSDL);
 * - robustness: random and mutated input makes a decoder return a value or throw one of our decode errors, nothing
 *   else (no TypeError, RangeError, stack overflow), and never touches Object.prototype.
 */
import fc from "fast-check";
import path from "node:path";
import { isDeepStrictEqual } from "node:util";
import * as content from "../../generated/content/index.js";
import * as members from "../../generated/members/index.js";
import * as partner from "../../generated/partner/index.js";
import * as webhooks from "../../generated/webhooks/index.js";
import { inspect } from "../../src/api.js";
import { protoModel } from "../../src/emitters/protobuf/plan.js";
import { elementCodecNames } from "../../src/emitters/xml/element-names.js";
import { assignNames } from "../../src/naming/assign-names.js";
import {
  JsonSyntaxError, ProtobufDecodeError, ProtoJsonError, ValidationError, XmlDecodeError, XmlParseError, jsonParse, parseXml,
} from "../../src/runtime/index.js";
import { messageArbitrary } from "../emitters/protobuf/arbitrary.js";
import { arbitraries } from "../emitters/xml/helpers/arbitraries.js";

const REPO = path.resolve(import.meta.dirname, "../..");

export interface FuzzProperty {
  readonly name: string;
  /** Runs per check in the normal test run (the fuzz script runs it with fresh seeds until its time is up). */
  readonly numRuns: number;
  readonly property: fc.IProperty<any>;
}

/**
 * Structural equality as the tests' toEqual sees it: properties holding undefined count as absent, Uint8Arrays by
 * bytes, numbers with Object.is except that 0 and -0 are equal, prototypes are not compared.
 */
export function sameValue(a: unknown, b: unknown): boolean {
  if (typeof a === "number" && typeof b === "number") return a === b || (Number.isNaN(a) && Number.isNaN(b));
  if (a instanceof Uint8Array || b instanceof Uint8Array) return a instanceof Uint8Array && b instanceof Uint8Array && isDeepStrictEqual(a, b);
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => sameValue(x, b[i]));
  }
  if (a !== null && b !== null && typeof a === "object" && typeof b === "object") {
    const keys = (o: object) => Object.keys(o).filter((k) => (o as Record<string, unknown>)[k] !== undefined).sort();
    const ka = keys(a);
    const kb = keys(b);
    return ka.length === kb.length && ka.every((k, i) => k === kb[i] && sameValue((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
  }
  return a === b;
}

function assertEqual(actual: unknown, expected: unknown, what: string): void {
  if (!sameValue(actual, expected)) {
    throw new Error(`${what}: round trip changed the value\n  expected ${show(expected)}\n  actual   ${show(actual)}`);
  }
}

const show = (v: unknown) => JSON.stringify(v, (_k, x) => (typeof x === "bigint" ? `${x}n` : x instanceof Uint8Array ? [...x] : x))?.slice(0, 400);

/** Run `decode`; a value or one of `allowed` errors passes, anything else (or a touched prototype) throws. */
function onlyOurErrors(decode: () => unknown, allowed: readonly (new (...a: never[]) => Error)[], what: string): void {
  try {
    decode();
  } catch (e) {
    // By class, or by name: under tsx the generated code's "specforge/runtime" is the built package (dist/), a
    // different copy of the same classes than src/.
    if (!allowed.some((c) => e instanceof c || (e as Error)?.name === c.name)) throw new Error(`${what}: unexpected ${(e as Error)?.name}: ${(e as Error)?.message}`);
  }
  if (Object.keys(Object.prototype).length > 0 || ({} as { polluted?: unknown }).polluted !== undefined) {
    throw new Error(`${what}: Object.prototype was changed`);
  }
}

// ---- mutations --------------------------------------------------------------------------------------------------

const byteEdit = fc.record({ at: fc.nat(), kind: fc.constantFrom("flip", "set", "delete", "insert", "truncate", "duplicate"), value: fc.integer({ min: 0, max: 255 }) });

/** A valid encoding with a few random edits: bit flips, byte changes, deletions, insertions, a truncation. */
export function mutateBytes(bytes: Uint8Array, edits: readonly { at: number; kind: string; value: number }[]): Uint8Array {
  let b = [...bytes];
  for (const e of edits) {
    const at = b.length === 0 ? 0 : e.at % (b.length + 1);
    switch (e.kind) {
      case "flip":
        if (at < b.length) b[at] = b[at]! ^ (1 << (e.value % 8));
        break;
      case "set":
        if (at < b.length) b[at] = e.value;
        break;
      case "delete":
        b.splice(at, 1 + (e.value % 4));
        break;
      case "insert":
        b.splice(at, 0, e.value);
        break;
      case "truncate":
        b = b.slice(0, at);
        break;
      case "duplicate":
        b.splice(at, 0, ...b.slice(at, at + 1 + (e.value % 16)));
        break;
    }
  }
  return new Uint8Array(b);
}

const TEXT_SPECIALS = ["<", ">", "&", '"', "'", "/", "=", "{", "}", "[", "]", ",", ":", "\\", "\u0000", "\uFFFF", "\uD800", "é", "<!DOCTYPE x>", "&lt;", "&#0;", "&#x110000;", "]]>", "<![CDATA[", "__proto__", '"__proto__":', "1e400", "-", "0", "9".repeat(30), "null", "true"];
const textEdit = fc.record({ at: fc.nat(), kind: fc.constantFrom("delete", "insert", "truncate", "duplicate", "swap"), insert: fc.constantFrom(...TEXT_SPECIALS), len: fc.integer({ min: 1, max: 12 }) });

export function mutateText(text: string, edits: readonly { at: number; kind: string; insert: string; len: number }[]): string {
  let t = text;
  for (const e of edits) {
    const at = e.at % (t.length + 1);
    switch (e.kind) {
      case "delete":
        t = t.slice(0, at) + t.slice(at + e.len);
        break;
      case "insert":
        t = t.slice(0, at) + e.insert + t.slice(at);
        break;
      case "truncate":
        t = t.slice(0, at);
        break;
      case "duplicate":
        t = t.slice(0, at) + t.slice(at, at + e.len) + t.slice(at);
        break;
      case "swap":
        t = t.slice(0, at) + t.slice(at + e.len, at + 2 * e.len) + t.slice(at, at + e.len) + t.slice(at + 2 * e.len);
        break;
    }
  }
  return t;
}

// ---- arbitraries for the REST seed types -------------------------------------------------------------------------

const word = fc.string({ unit: fc.constantFrom(..."abcXYZ019 -_.~é€\"\\/\n\u2028".split(/(?:)/u)), maxLength: 16 });
const url = fc.tuple(fc.constantFrom("http", "https"), fc.stringMatching(/^[a-z][a-z0-9-]{0,10}$/), fc.stringMatching(/^[a-z0-9/_-]{0,12}$/)).map(([s, h, p]) => `${s}://${h}.example/${p}`);
const date = fc.date({ min: new Date(Date.UTC(1970, 0, 1)), max: new Date(Date.UTC(2099, 11, 31)), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10));
const optional = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined });
const dropUndefined = <T extends object>(o: T): T => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;

const webhookCreateRequest = fc.record({ name: optional(word), topic: word, delivery_url: url, secret: optional(word) }).map((w) => ({ webhook: dropUndefined(w) }));
const webhookUpdateRequest = fc
  .record({ name: optional(word), topic: optional(word), delivery_url: optional(url), secret: optional(word), status: optional(fc.constantFrom(...webhooks.WebhookStatusValues)) })
  .map((w) => ({ webhook: dropUndefined(w) }));
const memberCreate = fc.record({ user_id: fc.integer({ min: 1, max: 2 ** 31 - 1 }), access_level: fc.constantFrom(...members.AccessLevelValues), expires_at: optional(date) }).map(dropUndefined);
const memberUpdate = fc.record({ access_level: fc.constantFrom(...members.AccessLevelValues), expires_at: optional(date) }).map(dropUndefined);

// ---- the properties ------------------------------------------------------------------------------------------------

export function fuzzProperties(): FuzzProperty[] {
  const props: FuzzProperty[] = [];

  // protobuf binary and ProtoJSON: content.proto, every message type with a finite arbitrary.
  const contentDoc = inspect(path.join(REPO, "specs/content.proto"));
  const model = protoModel(contentDoc, assignNames(contentDoc));
  const c = content as unknown as Record<string, (...a: unknown[]) => any>;
  const responseArb = messageArbitrary(model, "proto:.contentApi.Response", "bigint");
  props.push({
    name: "protobuf: Response$ encode -> decode",
    numRuns: 40,
    property: fc.property(responseArb, (v) => assertEqual(c.decodeResponse!(c.encodeResponse!(v)), v, "protobuf")),
  });
  props.push({
    name: "ProtoJSON: Response$ toJsonString -> fromJsonString",
    numRuns: 40,
    property: fc.property(responseArb, (v) => {
      // ProtoJSON has no form for unknown fields: compare after a binary round trip drops nothing but $unknown.
      const text = c.toJsonStringResponse$!(v);
      assertEqual(c.toJsonStringResponse$!(c.fromJsonStringResponse$!(text)), text, "ProtoJSON");
    }),
  });
  props.push({
    name: "protobuf: mutated Response$ bytes -> value or ProtobufDecodeError",
    numRuns: 200,
    property: fc.property(responseArb, fc.array(byteEdit, { minLength: 1, maxLength: 6 }), (v, edits) =>
      onlyOurErrors(() => c.decodeResponse!(mutateBytes(c.encodeResponse!(v), edits)), [ProtobufDecodeError], "protobuf")),
  });
  props.push({
    name: "protobuf: random bytes -> value or ProtobufDecodeError",
    numRuns: 300,
    property: fc.property(fc.uint8Array({ maxLength: 256 }), (bytes) => onlyOurErrors(() => c.decodeResponse!(bytes), [ProtobufDecodeError], "protobuf")),
  });
  props.push({
    name: "ProtoJSON: mutated Response$ JSON -> value or ProtoJsonError/JsonSyntaxError",
    numRuns: 200,
    property: fc.property(responseArb, fc.array(textEdit, { minLength: 1, maxLength: 5 }), (v, edits) =>
      onlyOurErrors(() => c.fromJsonStringResponse$!(mutateText(c.toJsonStringResponse$!(v), edits)), [ProtoJsonError, JsonSyntaxError], "ProtoJSON")),
  });
  props.push({
    name: "ProtoJSON: random JSON values -> value or ProtoJsonError",
    numRuns: 300,
    property: fc.property(fc.jsonValue({ maxDepth: 4 }), (json) => onlyOurErrors(() => c.fromJsonResponse$!(json), [ProtoJsonError], "ProtoJSON")),
  });

  // REST JSON serializers: the webhooks and members request bodies.
  const rest: [string, fc.Arbitrary<object>, (v: any) => string, (t: string) => unknown][] = [
    ["WebhookCreateRequest", webhookCreateRequest, webhooks.encodeWebhookCreateRequestJson, webhooks.decodeWebhookCreateRequestJson],
    ["WebhookUpdateRequest", webhookUpdateRequest, webhooks.encodeWebhookUpdateRequestJson, webhooks.decodeWebhookUpdateRequestJson],
    ["MemberCreate", memberCreate, members.encodeMemberCreateJson, members.decodeMemberCreateJson],
    ["MemberUpdate", memberUpdate, members.encodeMemberUpdateJson, members.decodeMemberUpdateJson],
  ];
  for (const [name, arb, encode, decode] of rest) {
    props.push({
      name: `REST JSON: ${name} encode -> decode`,
      numRuns: 60,
      property: fc.property(arb, (v) => {
        const text = encode(v);
        assertEqual(JSON.parse(text), v, name); // what we write is JSON.parse-compatible JSON
        assertEqual(decode(text), v, name);
      }),
    });
    props.push({
      name: `REST JSON: mutated ${name} -> value or JsonSyntaxError/ValidationError`,
      numRuns: 150,
      property: fc.property(arb, fc.array(textEdit, { minLength: 1, maxLength: 5 }), (v, edits) =>
        onlyOurErrors(() => decode(mutateText(encode(v), edits)), [JsonSyntaxError, ValidationError], name)),
    });
  }
  props.push({
    name: "JSON: random strings -> jsonParse value or JsonSyntaxError",
    numRuns: 300,
    property: fc.property(fc.oneof(fc.string({ maxLength: 64 }), fc.json({ maxDepth: 5 })), (text) => onlyOurErrors(() => jsonParse(text), [JsonSyntaxError], "jsonParse")),
  });

  // XML element codecs: a sample of partner elements (requests, results, faults, open content).
  const wsdl = inspect(path.join(REPO, "specs/partner.wsdl"));
  const names = elementCodecNames(wsdl);
  const arbs = arbitraries(wsdl);
  const p = partner as unknown as Record<string, (v: unknown) => any>;
  for (const local of ["login", "create", "queryResponse", "describeSObjectResponse", "ApiQueryFault", "SessionHeader"]) {
    const el = wsdl.elements.find((e) => e.name.local === local);
    if (!el) throw new Error(`no partner element ${local}`);
    const e = names.get(el.id)!;
    const arb = arbs.element(el.id);
    props.push({
      name: `XML: ${local} encode -> decode`,
      numRuns: 15,
      property: fc.property(arb, (v) => assertEqual(p[e.decode]!(p[e.encode]!(v)), v, local)),
    });
    props.push({
      name: `XML: mutated ${local} -> value or XmlParseError/XmlDecodeError`,
      numRuns: 60,
      property: fc.property(arb, fc.array(textEdit, { minLength: 1, maxLength: 5 }), (v, edits) =>
        onlyOurErrors(() => p[e.decode]!(mutateText(p[e.encode]!(v), edits)), [XmlParseError, XmlDecodeError], local)),
    });
  }
  props.push({
    name: "XML: random strings -> parseXml value or XmlParseError",
    numRuns: 300,
    property: fc.property(fc.string({ unit: fc.constantFrom(..."<>/=\"' abx:&;#!?[]-\u0000é".split("")), maxLength: 64 }), (text) => onlyOurErrors(() => parseXml(text), [XmlParseError], "parseXml")),
  });
  return props;
}
