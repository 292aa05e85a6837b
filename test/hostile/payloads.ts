/**
 * Hostile wire payloads, one named set per wire format. Each entry is input a peer could send; the tests feed every
 * one through the generated decoders and the servers and expect one of our error classes (or a SOAP fault / 4xx),
 * never a crash, a hang, a stack trace or a touched prototype.
 */

// ---- XML ------------------------------------------------------------------------------------------------------------

const P = "urn:partner.api.example";
const login = (inner: string, attrs = "") => `<login xmlns="${P}"${attrs}>${inner}</login>`;

const laughs = [
  '<!DOCTYPE lolz [<!ENTITY lol "lol">',
  ...Array.from({ length: 9 }, (_, i) => `<!ENTITY lol${i + 1} "${`&lol${i === 0 ? "" : i};`.repeat(10)}">`),
  "]>",
].join("\n");

/** [name, XML text, a part of the error message]. All of them are refused by the parser or the decoder. */
export const XML_PAYLOADS: readonly (readonly [string, string, RegExp])[] = [
  ["billion laughs", `${laughs}\n${login("<username>&lol9;</username><password>p</password>")}`, /DOCTYPE/],
  ["external entity (file)", `<!DOCTYPE x [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>${login("<username>&xxe;</username><password>p</password>")}`, /DOCTYPE/],
  ["external entity (http)", `<!DOCTYPE x [<!ENTITY xxe SYSTEM "http://127.0.0.1:1/x">]>${login("<username>&xxe;</username><password>p</password>")}`, /DOCTYPE/],
  ["parameter entity", `<!DOCTYPE x [<!ENTITY % p SYSTEM "http://127.0.0.1:1/p.dtd"> %p;]>${login("")}`, /DOCTYPE/],
  ["external DTD only", `<!DOCTYPE login SYSTEM "http://127.0.0.1:1/x.dtd">${login("<username>u</username><password>p</password>")}`, /DOCTYPE/],
  ["undeclared entity", login("<username>&xxe;</username><password>p</password>"), /entity/i],
  ["DOCTYPE after the root", `${login("<username>u</username><password>p</password>")}<!DOCTYPE x>`, /./],
  ["nesting deeper than 128", login(`<username>u</username><password>p</password>${"<x>".repeat(200)}${"</x>".repeat(200)}`), /nested deeper than 128/],
  ["more than 4096 attributes", login("<username>u</username><password>p</password>", Array.from({ length: 5000 }, (_, i) => ` a${i}="v"`).join("")), /attributes/],
  ["name longer than 256", login(`<username>u</username><password>p</password><${"n".repeat(300)}/>`), /name/],
  ["attribute name longer than 256", login("<username>u</username><password>p</password>", ` ${"a".repeat(300)}="v"`), /name/],
  ["unclosed element", `<login xmlns="${P}"><username>u</username>`, /./],
  ["mismatched close tag", `<login xmlns="${P}"><username>u</password></login>`, /./],
  ["undeclared prefix", `<q:login xmlns="${P}"><username>u</username></q:login>`, /prefix|namespace/i],
  ["duplicate attribute", `<login xmlns="${P}" a="1" a="2"><username>u</username><password>p</password></login>`, /duplicate|attribute/i],
  ["text outside the root", `junk${login("<username>u</username><password>p</password>")}`, /./],
  ["two roots", `${login("<username>u</username><password>p</password>")}${login("")}`, /./],
  ["empty document", "", /./],
  ["control character", login("<username>u\u0001</username><password>p</password>"), /./],
  ["wrong root element", `<logout xmlns="${P}"/>`, /login|expected/i],
  ["missing required element", login("<username>u</username>"), /password|required|missing/i],
];

/** Unknown elements named like Object.prototype members: skipped as unknown content, never a prototype. */
export const XML_PROTOTYPE_PAYLOAD = login("<username>u</username><password>p</password><__proto__><polluted>1</polluted></__proto__><constructor><prototype>x</prototype></constructor>");

/** The same XML (as bytes) through the SOAP server: each answer is a SOAP fault, never a stack trace. */
export function soapEnvelope(body: string): string {
  return `<soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/"><soapenv:Body>${body}</soapenv:Body></soapenv:Envelope>`;
}

// ---- protobuf -------------------------------------------------------------------------------------------------------

export function varint(n: number | bigint): number[] {
  let v = BigInt(n);
  const out: number[] = [];
  do {
    let b = Number(v & 0x7fn);
    v >>= 7n;
    if (v > 0n) b |= 0x80;
    out.push(b);
  } while (v > 0n);
  return out;
}

export const tag = (field: number, wire: number): number[] => varint((field << 3) | wire);
export const lengthDelimited = (field: number, body: number[]): number[] => [...tag(field, 2), ...varint(body.length), ...body];

/** `levels` messages nested through one length-delimited field (built inside out). */
export function nested(field: number, levels: number): Uint8Array {
  const t = tag(field, 2);
  const sizes = [0]; // sizes[i]: bytes of the i innermost levels
  for (let i = 0; i < levels; i++) sizes.push(t.length + varint(sizes[i]!).length + sizes[i]!);
  const out = new Uint8Array(sizes[levels]!);
  let pos = 0;
  for (let i = levels; i > 0; i--) {
    out.set(t, pos);
    pos += t.length;
    const len = varint(sizes[i - 1]!);
    out.set(len, pos);
    pos += len.length;
  }
  return out;
}

/** [name, bytes]: every one is malformed for contentApi.Response (fields 1-3 strings, 4 repeated Entry). */
export const PROTOBUF_PAYLOADS: readonly (readonly [string, Uint8Array])[] = [
  ["truncated tag", new Uint8Array([0x80])],
  ["truncated string", new Uint8Array([...tag(1, 2), 10, 0x61, 0x62])],
  ["overlong varint (11 bytes)", new Uint8Array([...tag(4, 0).slice(0, 0), 0x08, ...Array(10).fill(0xff), 0x01])],
  ["overlong tag varint", new Uint8Array([...Array(10).fill(0xff), 0x01])],
  ["length past the end", new Uint8Array([...tag(1, 2), ...varint(0x7fffffff), 0x61])],
  ["length near 2^64", new Uint8Array([...tag(4, 2), ...varint(2n ** 63n)])],
  ["invalid wire type 6", new Uint8Array([...tag(9, 6)])],
  ["invalid wire type 7", new Uint8Array([...tag(9, 7)])],
  ["field number 0", new Uint8Array([0x00, 0x01])],
  ["stray end group", new Uint8Array([...tag(9, 4)])],
  ["unterminated group", new Uint8Array([...tag(9, 3), ...tag(10, 0), 1])],
  ["mismatched end group", new Uint8Array([...tag(9, 3), ...tag(8, 4)])],
  ["groups nested 100000 deep", new Uint8Array([...Array.from({ length: 100_000 }, () => tag(9, 3)).flat()])],
  ["entries nested in a truncated entry", new Uint8Array([...tag(4, 2), ...varint(1000), ...lengthDelimited(1, [1, 2, 3])])],
  ["packed length past the end", new Uint8Array([...tag(4, 2), ...varint(2 ** 31)])],
];

/**
 * Well-formed oddities Response accepts, as protoc does: unknown length-delimited fields are skipped without being
 * parsed (however deep their content nests), a known field number with the wrong wire type is an unknown field, and
 * proto2 strings are not UTF-8 checked (bad bytes become U+FFFD).
 */
export const PROTOBUF_ACCEPTED: readonly (readonly [string, Uint8Array])[] = [
  ["unknown messages nested 5000 deep", nested(99, 5000)],
  ["wrong wire type for a string", new Uint8Array([...tag(1, 0), 5])],
  ["wrong wire type for a message", new Uint8Array([...tag(4, 5), 1, 2, 3, 4])],
  ["invalid UTF-8 in a proto2 string", new Uint8Array([...tag(1, 2), 2, 0xc3, 0x28])],
];

// ---- JSON -----------------------------------------------------------------------------------------------------------

const deep = (n: number) => `${"[".repeat(n)}${"]".repeat(n)}`;
const deepObjects = (n: number) => `${'{"a":'.repeat(n)}1${"}".repeat(n)}`;

/** [name, JSON text]: each one is refused with JsonSyntaxError (the strict parser) or a validation error. */
export const JSON_PAYLOADS: readonly (readonly [string, string])[] = [
  ["arrays nested 100000 deep", deep(100_000)],
  ["objects nested 20000 deep", deepObjects(20_000)],
  ["nesting just past the limit", deep(129)],
  ["1e400", '{"webhook": {"topic": "order.created", "delivery_url": "http://127.0.0.1/x", "id": 1e400}}'],
  ["a 400-digit integer", `{"n": 1${"0".repeat(400)}}`],
  ["-1e400", "[-1e400]"],
  ["NaN", "[NaN]"],
  ["Infinity", "[Infinity]"],
  ["duplicate keys", '{"webhook": {"topic": "order.created", "topic": "order.deleted", "delivery_url": "http://127.0.0.1/x"}}'],
  ["duplicate __proto__ keys", '{"__proto__": 1, "__proto__": 2}'],
  ["trailing comma", '{"webhook": {"topic": "order.created",}}'],
  ["comment", '{"webhook": /* x */ {}}'],
  ["single quotes", "{'webhook': {}}"],
  ["unterminated string", '{"webhook": "abc'],
  ["raw control character in a string", '{"webhook": "a\u0001b"}'],
  ["invalid escape", '{"webhook": "\\x41"}'],
  ["truncated unicode escape", '{"webhook": "\\u12"}'],
  ["leading zero", "[01]"],
  ["empty", ""],
  ["two documents", "{} {}"],
  ["BOM", "\uFEFF{}"],
  ["lone high surrogate then garbage", '["\\ud800"'],
];

/** JSON that parses but tries to reach a prototype; it must stay data. */
export const JSON_PROTOTYPE_PAYLOADS: readonly (readonly [string, string])[] = [
  ["__proto__ at the top", '{"__proto__": {"polluted": true}, "webhook": {"topic": "order.created", "delivery_url": "http://127.0.0.1/x"}}'],
  ["__proto__ nested", '{"webhook": {"__proto__": {"polluted": true}, "topic": "order.created", "delivery_url": "http://127.0.0.1/x"}}'],
  ["constructor.prototype", '{"webhook": {"constructor": {"prototype": {"polluted": true}}, "topic": "order.created", "delivery_url": "http://127.0.0.1/x"}}'],
  ["prototype key", '{"prototype": {"polluted": true}, "webhook": {"topic": "order.created", "delivery_url": "http://127.0.0.1/x"}}'],
];
