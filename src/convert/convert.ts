import path from "node:path";
import { UsageError } from "../errors.js";
import type { SpecFormat } from "../ir/model.js";
import { assignNames, type Names } from "../naming/assign-names.js";
import type { DerivedRole } from "../naming/derived.js";
import { catalogFile } from "../config/resolve.js";
import { nodeSpecHost } from "../parsers/host.js";
import { generateSpec } from "../pipeline/generate-files.js";
import type { ValidationIssue } from "../runtime/validation.js";
import { loadGenerated, type GeneratedModule } from "./load-generated.js";
import { resolveConvertTarget, type ConvertTarget } from "./resolve-type.js";
import { runtimeModuleUrl } from "./runtime-location.js";
import { text, utf8, type Codec } from "./codec.js";
import { xmlElementJsonCodec } from "./xml-json-codec.js";

export type WireForm = "binary" | "json" | "xml" | "text";
export const WIRE_FORMS: readonly WireForm[] = ["binary", "json", "xml", "text"];

export interface ConvertOptions {
  /** The spec file, relative to `cwd`. */
  readonly spec: string;
  /** `--type`: the TS name or the spec's own name of the payload's type (see resolveConvertTarget). */
  readonly type: string;
  readonly from: WireForm;
  readonly to: WireForm;
  /** Also run the generated validator on the decoded value; any issue fails the conversion. */
  readonly validate?: boolean;
  readonly cwd?: string;
  readonly protoPaths?: readonly string[];
  /** An XML catalog (relative to `cwd`) mapping a WSDL's remote imports to local files (docs/wsdl.md). */
  readonly catalog?: string;
  /** Overrides where transpiled code is cached (tests). */
  readonly cacheDir?: string;
}

/** Which wire forms each input format has generated codecs for. */
const FORMS: Readonly<Record<SpecFormat, readonly WireForm[]>> = {
  proto: ["binary", "json", "text"],
  openapi: ["json"],
  wsdl: ["xml", "json"],
  xsd: ["xml", "json"],
};

const FORMAT_LABEL: Readonly<Record<SpecFormat, string>> = { proto: "a .proto", openapi: "an OpenAPI", wsdl: "a WSDL", xsd: "an XSD" };


/**
 * One payload from one wire form to another through the code specforge generates for the spec: the spec is
 * generated in memory, transpiled once (cached by content hash) and imported. Every problem with the payload is a
 * UsageError naming where it is (byte offset and field path, JSON pointer, line and column).
 */
export async function convertPayload(options: ConvertOptions, input: Uint8Array): Promise<Uint8Array> {
  const spec = await openSpec(options);
  return spec.converter(options).convert(input);
}

/** One payload conversion, set up once (type resolved, codecs found) for any number of payloads. */
export interface Converter {
  convert(input: Uint8Array): Uint8Array;
}

/** A spec generated, transpiled and imported once; `converter` picks the type and the two wire forms. */
export interface OpenSpec {
  converter(options: Pick<ConvertOptions, "type" | "from" | "to" | "validate">): Converter;
}

export async function openSpec(options: Pick<ConvertOptions, "spec" | "cwd" | "protoPaths" | "catalog" | "cacheDir">): Promise<OpenSpec> {
  const cwd = path.resolve(options.cwd ?? process.cwd());
  const file = path.resolve(cwd, options.spec);
  const catalog = catalogFile(options.catalog !== undefined ? path.resolve(cwd, options.catalog) : undefined);
  const host = nodeSpecHost({ cwd, includeDirs: (options.protoPaths ?? []).map((p) => path.resolve(cwd, p)), catalog });
  const runtimeUrl = runtimeModuleUrl();
  const output = generateSpec({ file, display: host.displayPath(file), runtimeModule: runtimeUrl }, host);
  const format = output.doc.format;
  const names = assignNames(output.doc);
  const mod = await loadGenerated(output.files, output.dir, runtimeUrl, options.cacheDir);
  const runtime = (await import(runtimeUrl)) as GeneratedModule;
  return {
    converter(conv) {
      for (const [flag, form] of [["--from", conv.from], ["--to", conv.to]] as const) {
        if (!FORMS[format].includes(form)) {
          const forms = FORMS[format];
          const list = forms.length > 1 ? `${forms.slice(0, -1).join(", ")} and ${forms.at(-1)}` : forms.join("");
          throw new UsageError(`${flag} ${form}: ${FORMAT_LABEL[format]} spec converts between ${list} only`);
        }
      }
      const target = resolveConvertTarget(output.doc, names, conv.type);
      // An XSD element's JSON form has no generated codec: it is the generated value, read by the schema (xml-json-form).
      const codec = (form: WireForm): Codec =>
        form === "json" && target.kind === "element" ? xmlElementJsonCodec(output.doc, names, target) : codecFor(format, form, target, names, mod, runtime);
      const from = codec(conv.from);
      const to = codec(conv.to);
      const validate = conv.validate ? validatorFor(target, names, mod) : undefined;
      return {
        convert(input) {
          const value = guard(target, `cannot read the ${conv.from} input`, () => from.decode(input));
          if (validate) {
            const issues = validate(value);
            if (issues.length > 0) {
              const list = issues.map((i) => `  ${i.path || "/"}: ${i.message}`).join("\n");
              throw new UsageError(`${target.display}: the input is not valid (${issues.length} issue(s)):\n${list}`);
            }
          }
          return guard(target, `cannot write the ${conv.to} output`, () => to.encode(value));
        },
      };
    },
  };
}

function codecFor(format: SpecFormat, form: WireForm, target: ConvertTarget, names: Names, mod: GeneratedModule, runtime: GeneratedModule): Codec {
  const fn = (name: string) => generatedFunction(mod, name, target);
  if (target.kind === "element") {
    const decode = fn(target.decode);
    const encode = fn(target.encode);
    return { decode: (bytes) => decode(utf8(bytes)), encode: (value) => text(`${String(encode(value))}\n`) };
  }
  const derived = (role: DerivedRole) => fn(names.derived(target.id, role));
  if (form === "binary") {
    const decode = derived("decode");
    const encode = derived("encode");
    return { decode: (bytes) => decode(bytes), encode: (value) => encode(value) as Uint8Array };
  }
  if (form === "text") {
    // The protobuf text format (what protoc --decode prints); Any printed as type_url and value, as protoc does.
    const fromText = derived("fromText");
    const toText = derived("toText");
    return { decode: (bytes) => fromText(utf8(bytes)), encode: (value) => text(String(toText(value))) };
  }
  if (format === "proto") {
    // The *String variants are left out where their names would clash; parse with the runtime's ProtoJSON reader.
    const fromJson = derived("fromJson");
    const toJson = derived("toJson");
    const parse = runtime.parseProtoJsonText as (text: string) => unknown;
    return { decode: (bytes) => fromJson(parse(utf8(bytes))), encode: (value) => text(`${JSON.stringify(toJson(value))}\n`) };
  }
  const decode = derived("decodeJson");
  const encode = derived("encodeJson");
  return { decode: (bytes) => decode(utf8(bytes)), encode: (value) => text(`${String(encode(value))}\n`) };
}

function validatorFor(target: ConvertTarget, names: Names, mod: GeneratedModule): (value: unknown) => ValidationIssue[] {
  // An element of a builtin type (xsd:string) has nothing beyond what its decoder already checked.
  const id = target.kind === "type" ? target.id : target.typeId;
  if (id === undefined) return () => [];
  return generatedFunction(mod, names.derived(id, "validate"), target) as (value: unknown) => ValidationIssue[];
}

function generatedFunction(mod: GeneratedModule, name: string, target: ConvertTarget): (...args: unknown[]) => unknown {
  const fn = mod[name];
  if (typeof fn !== "function") throw new UsageError(`--type ${target.display}: the generated code has no ${name}`);
  return fn as (...args: unknown[]) => unknown;
}

/** Payload errors become one line that says where; anything else is a bug and keeps its own error. */
function guard<T>(target: ConvertTarget, what: string, run: () => T): T {
  try {
    return run();
  } catch (e) {
    if (e instanceof UsageError) throw e;
    const err = e as { name?: unknown; message?: unknown };
    if (typeof err?.name === "string" && PAYLOAD_ERRORS.has(err.name)) {
      throw new UsageError(`${target.display}: ${what}: ${String(err.message)}`);
    }
    throw e;
  }
}

/** By name, not class: the errors come from the compiled runtime, which tests may load beside the source one. */
const PAYLOAD_ERRORS = new Set([
  "ProtobufDecodeError",
  "ProtobufEncodeError",
  "ProtoJsonError",
  "JsonSyntaxError",
  "JsonEncodeError",
  "ValidationError",
  "XmlParseError",
  "XmlDecodeError",
  "XmlEncodeError",
  "TextDecodeError",
  "TextFormatError",
  "XmlJsonShapeError",
  "JsonLimitError",
]);
