import type { SpecFormat } from "../ir/model.js";

/**
 * Module-level functions the emitters declare per named type, as prefix + type name + suffix (`isWebhook`,
 * `encodeWebhookJson`). The naming pass claims these together with the type name, so a type is only named `T` when
 * every function derived from `T` is free as well (not a runtime export, not another type's, not an operation's).
 * Emitters that add a per-type function add its pattern here.
 */
const DERIVED: Record<SpecFormat, readonly (readonly [prefix: string, suffix: string])[]> = {
  // validate.ts (is/check/collect/validate/assert) and json.ts (encode/decode ...Json, revive).
  openapi: [["is", ""], ["check", ""], ["collect", ""], ["validate", ""], ["assert", ""], ["revive", ""], ["encode", "Json"], ["decode", "Json"]],
  // protobuf.ts and validate.ts.
  proto: [["encode", ""], ["decode", ""], ["validate", ""]],
  // xml.ts record readers/writers and validate.ts.
  wsdl: [["read", ""], ["write", ""], ["validate", ""]],
  xsd: [["read", ""], ["write", ""], ["validate", ""]],
};

export function derivedFunctionNames(format: SpecFormat, typeName: string): string[] {
  return DERIVED[format].map(([prefix, suffix]) => `${prefix}${typeName}${suffix}`);
}

/**
 * Names generated modules declare for themselves at module level (compiled patterns, value sets, the prototype
 * alias in validate.ts). A type imported under one of these names would collide with the declaration.
 */
export function isModuleInternalName(name: string): boolean {
  return /^(PATTERN|VALUES)_\d+$/.test(name) || name === "OBJECT_PROTOTYPE";
}
