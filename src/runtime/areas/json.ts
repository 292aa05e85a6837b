/**
 * specforge/runtime/json. JSON: validators and serializers of OpenAPI / JSON Schema types (`validate.ts`, `json.ts`
 * of OpenAPI specs). Generated code imports from the area it needs; `specforge/runtime` exports every area.
 */
export { RUNTIME_API_VERSION, type RuntimeApi1 } from "../version.js";
export * from "../validation.js";
export { linearPattern, type LinearPattern } from "../linear-pattern.js";
export * from "../json/index.js";
