/** XML Schema builtin types (and their SOAP-encoding twins) as IR scalars. */
import type { ScalarKind, ScalarType } from "../../ir/model.js";

export const XSD_NS = "http://www.w3.org/2001/XMLSchema";
export const SOAPENC_11 = "http://schemas.xmlsoap.org/soap/encoding/";
export const SOAPENC_12 = "http://www.w3.org/2003/05/soap-encoding";
export const WSDL_NS = "http://schemas.xmlsoap.org/wsdl/";

export function isSoapEnc(ns: string): boolean {
  return ns === SOAPENC_11 || ns === SOAPENC_12;
}

const SCALARS: Readonly<Record<string, ScalarKind>> = {
  string: "string",
  normalizedString: "string",
  token: "string",
  language: "string",
  Name: "string",
  NCName: "string",
  ID: "string",
  IDREF: "string",
  IDREFS: "string",
  ENTITY: "string",
  ENTITIES: "string",
  NMTOKEN: "string",
  NMTOKENS: "string",
  NOTATION: "string",
  gYear: "string",
  gYearMonth: "string",
  gMonth: "string",
  gMonthDay: "string",
  gDay: "string",
  int: "int32",
  short: "int32",
  byte: "int32",
  long: "int64",
  unsignedInt: "uint32",
  unsignedShort: "uint32",
  unsignedByte: "uint32",
  unsignedLong: "uint64",
  integer: "integer",
  nonNegativeInteger: "integer",
  positiveInteger: "integer",
  negativeInteger: "integer",
  nonPositiveInteger: "integer",
  decimal: "decimal",
  float: "float",
  double: "double",
  boolean: "boolean",
  base64Binary: "bytes",
  hexBinary: "bytes",
  date: "date",
  dateTime: "dateTime",
  time: "time",
  duration: "duration",
  anyURI: "anyURI",
  QName: "QName",
  anyType: "any",
  anySimpleType: "any",
  // XSD 1.1 (Part 2 §3.3.2, §3.4.26-28): anyAtomicType is anySimpleType's atomic part (its values are texts here, as
  // anySimpleType's); dateTimeStamp is a dateTime whose timezone is required, dayTimeDuration and yearMonthDuration
  // durations with only day-time or year-month parts (their lexical checks: the validators' builtin facets).
  anyAtomicType: "any",
  dateTimeStamp: "dateTime",
  dayTimeDuration: "duration",
  yearMonthDuration: "duration",
};

/**
 * The scalar for a builtin QName, or undefined when the name is not a builtin. `builtin` is kept whenever the XSD
 * name says more than the scalar kind (xsd:token, xsd:unsignedShort, xsd:hexBinary ...). SOAP-encoding types map
 * to the same scalars and record the equivalent xsd name; soapenc:Array/Struct are "any" marked as such, since
 * encoded arrays are repeated child elements of any name, not a typed list.
 */
export function builtinScalar(ns: string, local: string): ScalarType | undefined {
  if (isSoapEnc(ns)) {
    if (local === "Array" || local === "Struct") return { kind: "scalar", scalar: "any", builtin: `soapenc:${local}` };
    if (local === "base64") return { kind: "scalar", scalar: "bytes", builtin: "xsd:base64Binary" };
  } else if (ns !== XSD_NS) return undefined;
  const scalar = SCALARS[local];
  if (scalar === undefined) return undefined;
  return scalar === local ? { kind: "scalar", scalar } : { kind: "scalar", scalar, builtin: `xsd:${local}` };
}

/**
 * The XSD facet elements a simpleType restriction may carry (XSD 1.0, and XSD 1.1's explicitTimezone, which is
 * kept as a pattern, and assertion, which is left out with a warning: lower-simple.ts readFacets).
 */
export const FACETS = new Set([
  "explicitTimezone",
  "assertion",
  "enumeration",
  "pattern",
  "length",
  "minLength",
  "maxLength",
  "minInclusive",
  "maxInclusive",
  "minExclusive",
  "maxExclusive",
  "totalDigits",
  "fractionDigits",
  "whiteSpace",
]);
