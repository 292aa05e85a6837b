import type { GeneratedFile, Printable } from "../../codegen/generated-file.js";
import type { HttpOperation, TypeExpr } from "../../ir/model.js";
import type { TypesContext } from "../types/context.js";
import { jsonContent, statusCondition } from "../rest-client/http-shared.js";
import type { Runtime } from "./parameter-parsing.js";
import { importTypeFunction } from "../modules.js";

/** The validators artifact's module and naming: `validate<T>(value): ValidationIssue[]` per named type T. */
export const VALIDATORS_MODULE = "./validate.js";

/** The generated validator of a body type, when it is a named type (inline schemas are not validated). */
export function bodyValidator(f: GeneratedFile, t: TypeExpr | undefined, tctx: TypesContext): Printable | undefined {
  if (t?.kind !== "ref") return undefined;
  return importTypeFunction(f, tctx.modules, t.id, tctx.names.derived(t.id, "validate"), "validate");
}

/**
 * `validate<Op>Response(status, body)` for development mode: the body of each declared status checked by its
 * validator, a body where none is declared and an undeclared status reported as issues.
 */
export function emitResponseValidator(f: GeneratedFile, name: string, op: HttpOperation, tctx: TypesContext, rt: Runtime): void {
  f.print(`function ${name}(status: number, body: unknown): `, rt("ValidationIssue", true), "[] {");
  for (const r of op.responses) {
    const condition = statusCondition("status", r.status);
    const json = jsonContent(r.contents);
    const validator = bodyValidator(f, json?.type, tctx);
    const nullable = json?.nullable ? "body === null ? [] : " : "";
    const check: Printable =
      r.contents.length === 0
        ? `body === undefined ? [] : [{ path: "", rule: "body", message: "no body is declared for status " + status }]`
        : validator ? [nullable, validator, "(body)"] : "[]";
    if (condition === "true") {
      f.print("  return ", check, ";");
      f.print("}");
      f.print();
      return;
    }
    f.print(`  if (${condition}) return `, check, ";");
  }
  f.print(`  return [{ path: "", rule: "status", message: "status " + status + " is not declared" }];`);
  f.print("}");
  f.print();
}
