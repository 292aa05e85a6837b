import { expect } from "vitest";
import { SpecError } from "../../../src/errors.js";
import type { IrDocument, NamedType, RecordType } from "../../../src/ir/model.js";
import { memorySpecHost } from "../../../src/parsers/host.js";
import { parseWsdl } from "../../../src/parsers/wsdl/index.js";

export const XSD = "http://www.w3.org/2001/XMLSchema";
export const NS = "urn:t";

/** A schema with tns prefix "tns" for urn:t; `attrs` go on the xsd:schema element. */
export function schema(body: string, attrs = `elementFormDefault="qualified"`): string {
  return `<xsd:schema xmlns:xsd="${XSD}" xmlns:tns="${NS}" targetNamespace="${NS}" ${attrs}>\n${body}\n</xsd:schema>`;
}

export function parseFiles(entry: string, files: Record<string, string>): IrDocument {
  return parseWsdl(entry, memorySpecHost(files));
}

export function parseXsdText(body: string, attrs?: string): IrDocument {
  return parseFiles("/spec/a.xsd", { "/spec/a.xsd": schema(body, attrs) });
}

export function typeOf(ir: IrDocument, local: string, ns = NS): NamedType {
  const t = ir.types.find((x) => x.id === `xsd:{${ns}}${local}`);
  if (!t) throw new Error(`no type ${local} in ${ir.types.map((x) => x.id).join(", ")}`);
  return t;
}

export function recordOf(ir: IrDocument, local: string, ns = NS): RecordType {
  const t = typeOf(ir, local, ns);
  if (t.kind !== "record") throw new Error(`${local} is a ${t.kind}`);
  return t;
}

export function errorOf(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    if (!(e instanceof SpecError)) throw e;
    return e.message;
  }
  throw new Error("expected a SpecError");
}

export const one = { min: 1, max: 1 } as const;
export const opt = { min: 0, max: 1 } as const;
export const s = (scalar: string, builtin?: string) => ({ kind: "scalar", scalar, ...(builtin ? { builtin } : {}) });
export const ref = (local: string, ns = NS) => ({ kind: "ref", id: `xsd:{${ns}}${local}` });
export const el = (ns = NS, form = "qualified") => ({ xml: { kind: "element", ns, form } });
export { expect };
