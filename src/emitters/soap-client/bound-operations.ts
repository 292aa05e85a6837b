import type { ElementDecl, ElementId, IrDocument, SoapBinding, SoapMessage, SoapService } from "../../ir/model.js";

/**
 * The operations a generated SOAP client or server can serve: document/literal, one element part in the body each
 * way. Client and server read the WSDL's binding through this one function so they always agree. Operations outside
 * that shape (rpc style, encoded use, element-less parts) are listed as skipped, with the reason, in a comment.
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

export interface BoundOperation {
  readonly name: string;
  readonly doc?: string;
  readonly action: string;
  readonly input: ElementDecl;
  readonly output: ElementDecl;
  readonly requestHeaders: readonly BoundHeader[];
  readonly responseHeaders: readonly BoundHeader[];
  readonly faults: readonly BoundFault[];
}

export interface BoundService {
  /** Index in doc.services (for names.service). */
  readonly index: number;
  readonly service: SoapService;
  readonly binding: SoapBinding;
  readonly operations: readonly BoundOperation[];
  readonly skipped: readonly { readonly name: string; readonly reason: string }[];
  /** Every header and fault of the bound operations, deduplicated, in first-use order. */
  readonly requestHeaders: readonly BoundHeader[];
  readonly responseHeaders: readonly BoundHeader[];
  readonly faults: readonly BoundFault[];
}

export function boundServices(doc: IrDocument): BoundService[] {
  const elements = new Map(doc.elements.map((e) => [e.id, e]));
  const out: BoundService[] = [];
  doc.services.forEach((service, index) => {
    if (service.kind !== "soap") return;
    const binding = service.bindings[0];
    if (!binding) return;
    const operations: BoundOperation[] = [];
    const skipped: { name: string; reason: string }[] = [];
    for (const op of service.operations) {
      const result = bindOperation(op, binding, elements);
      if (typeof result === "string") skipped.push({ name: op.name, reason: result });
      else operations.push(result);
    }
    if (operations.length === 0) return;
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

function unique<T>(items: readonly T[], key: (item: T) => string): T[] {
  const seen = new Map<string, T>();
  for (const item of items) if (!seen.has(key(item))) seen.set(key(item), item);
  return [...seen.values()];
}

type Elements = ReadonlyMap<ElementId, ElementDecl>;

function bindOperation(op: SoapService["operations"][number], binding: SoapBinding, elements: Elements): BoundOperation | string {
  const bound = binding.operations.find((b) => b.name === op.name);
  if (!bound) return "not in the binding";
  if (bound.style !== "document") return "rpc style is not supported by the generated client and server";
  if (bound.input?.use === "encoded" || bound.output?.use === "encoded") return "SOAP encoding is not supported";
  const input = bodyElement(op.input, bound.input?.parts, elements);
  if (typeof input === "string") return `input: ${input}`;
  const output = bodyElement(op.output, bound.output?.parts, elements);
  if (typeof output === "string") return `output: ${output}`;
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
    ...(op.doc !== undefined ? { doc: op.doc } : {}),
    action: bound.action ?? "",
    input,
    output,
    requestHeaders: headers("input"),
    responseHeaders: headers("output"),
    faults,
  };
}

function bodyElement(message: SoapMessage | undefined, partNames: readonly string[] | undefined, elements: Elements): ElementDecl | string {
  if (!message) return "no message (one-way operations are not supported)";
  const parts = partNames ? message.parts.filter((p) => partNames.includes(p.name)) : message.parts;
  if (parts.length !== 1) return `${parts.length} body parts (exactly one element part is supported)`;
  const id = parts[0]!.element;
  const element = id !== undefined ? elements.get(id) : undefined;
  return element ?? "the body part is not an element";
}
