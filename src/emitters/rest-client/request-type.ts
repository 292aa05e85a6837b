import { propertyKey } from "../../codegen/escape.js";
import type { GeneratedFile, Printable } from "../../codegen/generated-file.js";
import type { HttpOperation, HttpParameter } from "../../ir/model.js";
import type { TypesContext } from "../types/context.js";
import { clientBodyContent, nullablePrintable, PARAMETER_LOCATIONS, requestBodyPrintable, type ParameterLocation } from "./http-shared.js";

/**
 * The input object of one operation, `{ path, query, header, body }`, shaped exactly like the parameters and body of
 * the operations interface in types.ts (cookie parameters are sent in the Cookie header, which browsers' fetch
 * refuses to set: there they need `credentials` and real cookies instead).
 */
export interface RequestShape {
  /** Lines of the object type, each a property, already indented by the caller. */
  readonly properties: readonly Printable[];
  /** True when every property is optional (the whole argument may then be omitted). */
  readonly optional: boolean;
}

export function parametersAt(op: HttpOperation, where: ParameterLocation): readonly HttpParameter[] {
  return op.parameters.filter((p) => p.in === where);
}

/** Whether the operation takes an input object at all, and whether every part of it is optional. */
export function requestInput(op: HttpOperation): { readonly present: boolean; readonly optional: boolean } {
  const params = op.parameters;
  const body = op.requestBody && clientBodyContent(op) ? op.requestBody : undefined;
  return {
    present: params.length > 0 || body !== undefined,
    optional: params.every((p) => !p.required) && !body?.required,
  };
}

/**
 * `server`: the server always passes each parameter group (possibly empty), so the groups are not optional there
 * even when all their parameters are, and its body is any media type it reads; the client's is the one it sends.
 */
export function requestShape(
  f: GeneratedFile,
  op: HttpOperation,
  tctx: TypesContext,
  runtime: (name: string, typeOnly?: boolean) => Printable,
  options: { readonly server?: boolean } = {},
): RequestShape {
  const properties: Printable[] = [];
  let optional = true;
  for (const where of PARAMETER_LOCATIONS) {
    const params = parametersAt(op, where);
    if (params.length === 0) continue;
    const required = params.some((p) => p.required);
    optional &&= !required;
    const fields: Printable[] = [];
    params.forEach((p, i) => {
      fields.push(i === 0 ? "" : "; ", propertyKey(p.name), p.required ? ": " : "?: ", nullablePrintable(f, p.type, p.nullable, tctx));
    });
    properties.push([where, required || options.server ? ": " : "?: ", "{ ", fields, " };"]);
  }
  const sent = clientBodyContent(op);
  if (op.requestBody && sent) {
    optional &&= !op.requestBody.required;
    const contents = options.server ? op.requestBody.contents : [sent.content];
    properties.push(["body", op.requestBody.required ? ": " : "?: ", requestBodyPrintable(f, contents, tctx, runtime), ";"]);
  }
  return { properties, optional };
}
