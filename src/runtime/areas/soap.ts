/**
 * specforge/runtime/soap. SOAP: clients and servers of WSDL bindings (`client.ts`, `server.ts` of WSDL specs), with
 * the XML runtime they build on. Generated code imports from the area it needs; `specforge/runtime` exports every
 * area.
 */
export { RUNTIME_API_VERSION, type RuntimeApi1 } from "../version.js";
export * from "../validation.js";
export { linearPattern, type LinearPattern } from "../linear-pattern.js";
export * from "../soap/index.js";
export * from "../xml/index.js";
export * from "../http/index.js";
