import type {
  ElementDecl, ElementId, IrDocument, Origin, SoapBinding, SoapBodyBinding, SoapMessage, SoapPart, SoapService, TypeExpr,
} from "../../ir/model.js";

/**
 * The operations a generated SOAP client or server can serve: document/literal with one element part in the body
 * each way, and rpc style (literal or encoded) with typed parts under a wrapper element; an operation without output
 * is one-way. Client and server read the WSDL's binding through this one function so they always agree. Operations
 * outside those shapes (encoded document style, element parts in rpc style, several body parts in document style)
 * are listed as skipped, with the reason and where the binding says it: a comment in client.ts and server.ts, and a
 * warning from the client emitter.
 */
export interface BoundHeader {
  /** The key in typed headers objects: the header element's local name (as types.ts prints it). */
  readonly key: string;
  readonly element: ElementDecl;
}

export interface BoundFault {
  /** The wsdl:fault name ("ApiFault", "LoginFault", ...). */
  readonly name: string;
  readonly element: ElementDecl;
}

/** An rpc part: its name (the accessor element's) and its type= (as IR and as the XML name xsi:type writes). */
export interface BoundRpcPart {
  readonly name: string;
  readonly type: TypeExpr;
  readonly typeName: QNamePair;
}

/** A type's XML name as [namespace, local name]. */
export type QNamePair = readonly [string, string];

/** What a body holds: one global element (document style), or a wrapper element of parts (rpc style). */
export type BoundBody =
  | { readonly kind: "element"; readonly element: ElementDecl }
  | {
      readonly kind: "rpc";
      /** The wrapper: soap:body namespace (else the WSDL's targetNamespace) and the operation's name (+ "Response"). */
      readonly ns: string;
      readonly local: string;
      /** use="encoded": the SOAP encoding's namespace; absent for use="literal". */
      readonly encoding?: string;
      readonly parts: readonly BoundRpcPart[];
    };

export interface BoundOperation {
  readonly name: string;
  /** Where the binding (else the portType) declares the operation. */
  readonly origin: Origin;
  readonly doc?: string;
  readonly action: string;
  readonly style: "document" | "rpc";
  readonly input: BoundBody;
  /** Absent: a one-way operation (no wsdl:output). */
  readonly output?: BoundBody;
  readonly requestHeaders: readonly BoundHeader[];
  readonly responseHeaders: readonly BoundHeader[];
  readonly faults: readonly BoundFault[];
}

/** An operation the generated code leaves out, why, and where. */
export interface SkippedOperation {
  readonly name: string;
  readonly reason: string;
  readonly origin: Origin;
}

export interface BoundService {
  /** Index in doc.services (for names.service). */
  readonly index: number;
  readonly service: SoapService;
  readonly binding: SoapBinding;
  readonly operations: readonly BoundOperation[];
  readonly skipped: readonly SkippedOperation[];
  /** Every header and fault of the bound operations, deduplicated, in first-use order. */
  readonly requestHeaders: readonly BoundHeader[];
  readonly responseHeaders: readonly BoundHeader[];
  readonly faults: readonly BoundFault[];
}

export const SOAP_ENCODING_11 = "http://schemas.xmlsoap.org/soap/encoding/";
export const SOAP_ENCODING_12 = "http://www.w3.org/2003/05/soap-encoding";

/**
 * Every SOAP service with its first binding, the operations bound and those skipped. A service none of whose
 * operations can be bound is listed too (with `operations` empty), so that the client says why it has no methods.
 */
export function soapBindings(doc: IrDocument): BoundService[] {
  const elements = new Map(doc.elements.map((e) => [e.id, e]));
  const out: BoundService[] = [];
  doc.services.forEach((service, index) => {
    if (service.kind !== "soap") return;
    const binding = service.bindings[0];
    if (!binding) return;
    const operations: BoundOperation[] = [];
    const skipped: SkippedOperation[] = [];
    for (const op of service.operations) {
      const result = bindOperation(op, service, binding, elements, doc);
      if (typeof result === "string") {
        const origin = binding.operations.find((b) => b.name === op.name)?.origin ?? op.origin;
        skipped.push({ name: op.name, reason: result, origin });
      } else operations.push(result);
    }
    out.push({
      index,
      service,
      binding,
      operations,
      skipped,
      requestHeaders: unique(operations.flatMap((o) => o.requestHeaders), (h) => h.key),
      responseHeaders: unique(operations.flatMap((o) => o.responseHeaders), (h) => h.key),
      faults: unique(operations.flatMap((o) => o.faults), (f) => f.name),
    });
  });
  return out;
}

/** The services with at least one operation the generated client and server serve. */
export function boundServices(doc: IrDocument): BoundService[] {
  return soapBindings(doc).filter((s) => s.operations.length > 0);
}

function unique<T>(items: readonly T[], key: (item: T) => string): T[] {
  const seen = new Map<string, T>();
  for (const item of items) if (!seen.has(key(item))) seen.set(key(item), item);
  return [...seen.values()];
}

type Elements = ReadonlyMap<ElementId, ElementDecl>;

/**
 * The parts of `message` that go in the body: those soap:body parts= names (all when absent), less those a
 * soap:header of the same message binds (a header part is never also a body part).
 */
export function bodyParts(message: SoapMessage | undefined, body: SoapBodyBinding | undefined): SoapPart[] {
  if (!message) return [];
  const inHeaders = new Set((body?.headers ?? []).filter((h) => h.message.name.ns === message.name.ns && h.message.name.local === message.name.local).map((h) => h.part));
  return message.parts.filter((p) => (body?.parts === undefined ? !inHeaders.has(p.name) : body.parts.includes(p.name)));
}

function bindOperation(op: SoapService["operations"][number], service: SoapService, binding: SoapBinding, elements: Elements, doc: IrDocument): BoundOperation | string {
  const bound = binding.operations.find((b) => b.name === op.name);
  if (!bound) return "not in the binding";
  if (!op.input) return "no input message (notification and solicit-response operations are not supported)";
  let input: BoundBody | string;
  let output: BoundBody | string | undefined;
  if (bound.style === "rpc") {
    const body = (which: "input" | "output", local: string): BoundBody | string => {
      const b = bound[which];
      const encoding = b?.use === "encoded" ? encodingOf(b, binding.version) : undefined;
      if (encoding === "") return `${which}: encodingStyle ${JSON.stringify(b!.encodingStyle)} is not SOAP encoding`;
      const parts: BoundRpcPart[] = [];
      for (const p of bodyParts(op[which], b)) {
        if (p.type === undefined) return `${which}: part ${p.name} is an element (rpc style needs type= parts)`;
        const typeName = xmlTypeName(p.type, doc);
        if (typeName === undefined) return `${which}: the type of part ${p.name} has no XML name`;
        parts.push({ name: p.name, type: p.type, typeName });
      }
      return { kind: "rpc", ns: b?.namespace ?? service.targetNamespace, local, ...(encoding !== undefined ? { encoding } : {}), parts };
    };
    input = body("input", op.name);
    output = op.output ? body("output", `${op.name}Response`) : undefined;
  } else {
    if (bound.input?.use === "encoded" || bound.output?.use === "encoded") return "document style with use=\"encoded\" is not supported";
    input = bodyElement(op.input, bound.input, elements);
    output = op.output ? bodyElement(op.output, bound.output, elements) : undefined;
  }
  if (typeof input === "string") return input.startsWith("input") ? input : `input: ${input}`;
  if (typeof output === "string") return output.startsWith("output") ? output : `output: ${output}`;
  const headers = (which: "input" | "output"): BoundHeader[] => {
    const list: BoundHeader[] = [];
    for (const h of bound[which]?.headers ?? []) {
      const part = h.message.parts.find((p) => p.name === h.part);
      const element = part?.element !== undefined ? elements.get(part.element) : undefined;
      if (element && h.use === "literal" && !list.some((x) => x.key === element.name.local)) list.push({ key: element.name.local, element });
    }
    return list;
  };
  const faults: BoundFault[] = [];
  for (const fl of op.faults) {
    const el = fl.message.parts[0]?.element;
    const element = el !== undefined ? elements.get(el) : undefined;
    if (element) faults.push({ name: fl.name, element });
  }
  return {
    name: op.name,
    origin: bound.origin ?? op.origin,
    ...(op.doc !== undefined ? { doc: op.doc } : {}),
    action: bound.action ?? "",
    style: bound.style,
    input,
    ...(output !== undefined ? { output } : {}),
    requestHeaders: headers("input"),
    responseHeaders: output !== undefined ? headers("output") : [],
    faults,
  };
}

/** The SOAP encoding an encoded body uses ("" when its encodingStyle names none we know). */
function encodingOf(body: SoapBodyBinding, version: "1.1" | "1.2"): string {
  const styles = (body.encodingStyle ?? "").split(/\s+/).filter(Boolean);
  if (styles.length === 0) return version === "1.2" ? SOAP_ENCODING_12 : SOAP_ENCODING_11;
  // A list names the most specific first; an encoding refining SOAP encoding (a sub-URI) is read as SOAP encoding.
  for (const s of styles) {
    if (s.startsWith(SOAP_ENCODING_11)) return SOAP_ENCODING_11;
    if (s.startsWith(SOAP_ENCODING_12)) return SOAP_ENCODING_12;
  }
  return "";
}

function bodyElement(message: SoapMessage, body: SoapBodyBinding | undefined, elements: Elements): BoundBody | string {
  const parts = bodyParts(message, body);
  if (parts.length !== 1) return `${parts.length} body parts (exactly one element part is supported)`;
  const id = parts[0]!.element;
  const element = id !== undefined ? elements.get(id) : undefined;
  return element ? { kind: "element", element } : "the body part is not an element";
}

const XSD_NS = "http://www.w3.org/2001/XMLSchema";

/** The XSD builtin behind each scalar kind, when the spec named none more precise. */
const XSD_OF_SCALAR: Partial<Record<string, string>> = {
  string: "string", boolean: "boolean", int32: "int", int64: "long", uint32: "unsignedInt", uint64: "unsignedLong",
  integer: "integer", decimal: "decimal", float: "float", double: "double", bytes: "base64Binary", date: "date",
  dateTime: "dateTime", time: "time", duration: "duration", anyURI: "anyURI", QName: "QName", any: "anyType",
};

/**
 * The name xsi:type gives a type: a named schema type's {targetNamespace}name, a builtin's xsd: name (soapenc:Array
 * and soapenc:Struct keep theirs); undefined for anonymous types and type expressions without a name.
 */
export function xmlTypeName(t: TypeExpr, doc: IrDocument): QNamePair | undefined {
  if (t.kind === "ref") {
    const decl = doc.types.find((d) => d.id === t.id);
    return decl && !decl.anonymous ? [decl.scope, decl.name] : undefined;
  }
  if (t.kind !== "scalar") return undefined;
  if (t.builtin !== undefined) {
    const [prefix, local] = t.builtin.split(":") as [string, string];
    return [prefix === "soapenc" ? SOAP_ENCODING_11 : XSD_NS, local];
  }
  const local = XSD_OF_SCALAR[t.scalar];
  return local === undefined ? undefined : [XSD_NS, local];
}
