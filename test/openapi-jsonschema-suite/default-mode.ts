/**
 * Where specforge's default options (`jsonSchema: "openapi"`, `formats: "assert"`) read a schema otherwise than JSON
 * Schema on purpose, as OpenAPI users expect (docs/validators.md, "JSON Schema exactly"): the suite cases that fail
 * under the defaults and pass with `jsonSchema: "exact"` and `formats: "annotate"`. The test runs the suite under the
 * defaults too and fails on a failing case listed neither here nor in known-failures.ts, and on a listed one that passes.
 */
const UNTYPED = "untyped-object/untyped-array: under jsonSchema \"openapi\" a schema with properties or items but no type accepts only objects (arrays), as its TypeScript type says; jsonSchema \"exact\" admits every other JSON type too";
const FORMAT_ASSERTED = "format-asserted: under formats \"assert\" (as ajv's validateFormats) formats are checked, as OpenAPI users expect; 2020-12 makes format an annotation by default (formats \"annotate\")";
const ALLOF_RECORD = "allof-record: under jsonSchema \"openapi\", in OpenAPI 3.0 allOf parts' properties merge into one record, so additionalProperties beside them sees them (what 3.0 documents mean by it); jsonSchema \"exact\" and 3.1 follow JSON Schema";

export const DEFAULT_MODE_DIVERGENCES: ReadonlyMap<string, string> = new Map([
  ["draft2020-12/additionalProperties.json | additionalProperties being false does not allow other properties | ignores arrays", UNTYPED],
  ["draft2020-12/additionalProperties.json | additionalProperties being false does not allow other properties | ignores strings", UNTYPED],
  ["draft2020-12/additionalProperties.json | additionalProperties being false does not allow other properties | ignores other non-objects", UNTYPED],
  ["draft2020-12/format.json | email format | invalid email string is only an annotation by default", FORMAT_ASSERTED],
  ["draft2020-12/format.json | regex format | invalid regex string is only an annotation by default", FORMAT_ASSERTED],
  ["draft2020-12/format.json | ipv4 format | invalid ipv4 string is only an annotation by default", FORMAT_ASSERTED],
  ["draft2020-12/format.json | ipv6 format | invalid ipv6 string is only an annotation by default", FORMAT_ASSERTED],
  ["draft2020-12/format.json | hostname format | invalid hostname string is only an annotation by default", FORMAT_ASSERTED],
  ["draft2020-12/format.json | date format | invalid date string is only an annotation by default", FORMAT_ASSERTED],
  ["draft2020-12/format.json | date-time format | invalid date-time string is only an annotation by default", FORMAT_ASSERTED],
  ["draft2020-12/format.json | time format | invalid time string is only an annotation by default", FORMAT_ASSERTED],
  ["draft2020-12/format.json | json-pointer format | invalid json-pointer string is only an annotation by default", FORMAT_ASSERTED],
  ["draft2020-12/format.json | uri format | invalid uri string is only an annotation by default", FORMAT_ASSERTED],
  ["draft2020-12/format.json | uri-reference format | invalid uri-reference string is only an annotation by default", FORMAT_ASSERTED],
  ["draft2020-12/format.json | uuid format | invalid uuid string is only an annotation by default", FORMAT_ASSERTED],
  ["draft2020-12/format.json | duration format | invalid duration string is only an annotation by default", FORMAT_ASSERTED],
  ["draft2020-12/format.json | relative-json-pointer format | invalid relative-json-pointer string is only an annotation by default", FORMAT_ASSERTED],
  ["draft2020-12/format.json | uri-template format | invalid uri-template string is only an annotation by default", FORMAT_ASSERTED],
  ["draft2020-12/items.json | a schema given for items | ignores non-arrays", UNTYPED],
  ["draft2020-12/items.json | a schema given for items | JavaScript pseudo-array is valid", UNTYPED],
  ["draft2020-12/properties.json | object properties validation | ignores arrays", UNTYPED],
  ["draft2020-12/properties.json | object properties validation | ignores other non-objects", UNTYPED],
  ["draft2020-12/properties.json | properties whose names are Javascript object property names | ignores arrays", UNTYPED],
  ["draft2020-12/properties.json | properties whose names are Javascript object property names | ignores other non-objects", UNTYPED],
  ["draft2020-12/ref.json | root pointer ref | match", UNTYPED],
  ["draft2020-12/ref.json | root pointer ref | recursive match", UNTYPED],
  ["draft2020-12/required.json | required validation | ignores arrays", UNTYPED],
  ["draft2020-12/required.json | required validation | ignores strings", UNTYPED],
  ["draft2020-12/required.json | required validation | ignores other non-objects", UNTYPED],
  ["draft2020-12/required.json | required validation | ignores null", UNTYPED],
  ["draft2020-12/required.json | required validation | ignores boolean", UNTYPED],
  ["draft4/additionalProperties.json | additionalProperties does not look in applicators", ALLOF_RECORD],
  ["draft4/items.json | a schema given for items | ignores non-arrays", UNTYPED],
  ["draft4/items.json | a schema given for items | JavaScript pseudo-array is valid", UNTYPED],
  ["draft4/properties.json | object properties validation | ignores arrays", UNTYPED],
  ["draft4/properties.json | object properties validation | ignores other non-objects", UNTYPED],
  ["draft4/properties.json | properties whose names are Javascript object property names | ignores arrays", UNTYPED],
  ["draft4/properties.json | properties whose names are Javascript object property names | ignores other non-objects", UNTYPED],
  ["draft4/ref.json | root pointer ref | match", UNTYPED],
  ["draft4/ref.json | root pointer ref | recursive match", UNTYPED],
  ["draft4/required.json | required validation | ignores arrays", UNTYPED],
  ["draft4/required.json | required validation | ignores strings", UNTYPED],
  ["draft4/required.json | required validation | ignores other non-objects", UNTYPED],
  ["draft4/required.json | required validation | ignores null", UNTYPED],
  ["draft4/required.json | required validation | ignores boolean", UNTYPED],
]);
