/**
 * specforge/runtime/xml. XML: codecs and validators of XSD types (`xml.ts`, `validate.ts` of WSDL and XSD specs).
 * Generated code imports from the area it needs; `specforge/runtime` exports every area.
 */
export { RUNTIME_API_VERSION, type RuntimeApi1 } from "../version.js";
export * from "../validation.js";
export { linearPattern, type LinearPattern } from "../linear-pattern.js";
export * from "../xml/index.js";
