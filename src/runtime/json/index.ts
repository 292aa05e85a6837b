/** JSON support for generated validators and serializers (`validate.ts`, `json.ts` of OpenAPI specs). */
export * from "./base64.js";
export * from "./errors.js";
export * from "./formats.js";
export * from "./parse.js";
export * from "./revive.js";
export * from "./stringify.js";
export * from "./values.js";
