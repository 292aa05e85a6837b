/**
 * Names a generated type may not take. JavaScript/TypeScript reserved words would not compile; the global names
 * below would compile but shadow a global that generated code (or the user's code next to it) relies on.
 * A reserved name gets a `$` appended (the protobuf-es convention), e.g. the partner schema's `Error` -> `Error$`.
 */
const KEYWORDS = [
  "break", "case", "catch", "class", "const", "continue", "debugger", "default", "delete", "do", "else", "enum",
  "export", "extends", "false", "finally", "for", "function", "if", "import", "in", "instanceof", "new", "null",
  "return", "super", "switch", "this", "throw", "true", "try", "typeof", "var", "void", "while", "with",
  // strict mode and contextual
  "implements", "interface", "let", "package", "private", "protected", "public", "static", "yield", "await",
  "async", "arguments", "eval", "of", "as", "from", "get", "set", "constructor", "prototype", "__proto__",
  // TypeScript type keywords
  "any", "unknown", "never", "string", "number", "boolean", "symbol", "object", "bigint", "undefined", "type",
  "declare", "namespace", "module", "abstract", "readonly", "keyof", "infer", "is", "asserts", "satisfies",
  "accessor", "override", "out", "global", "require",
];

const GLOBALS = [
  "Array", "ArrayBuffer", "BigInt", "Boolean", "DataView", "Date", "Error", "Function", "Infinity", "JSON", "Map",
  "Math", "NaN", "Number", "Object", "Partial", "Pick", "Omit", "Promise", "Readonly", "ReadonlyArray", "Record",
  "Reflect", "RegExp", "Required", "Set", "String", "Symbol", "TextDecoder", "TextEncoder", "TypeError",
  "Uint8Array", "URL", "WeakMap", "WeakSet", "globalThis", "Request", "Response", "Headers", "AbortSignal",
  "fetch", "console", "Exclude", "Extract", "NonNullable", "ReturnType",
  // Globals and utility types generated code itself names (validators catch RangeError, clients build query strings
  // and forms, servers type handler inputs with Parameters and Awaited).
  "RangeError", "URLSearchParams", "FormData", "Blob", "File", "AbortController", "Awaited", "Parameters",
  "ReadonlySet", "ReadonlyMap", "PropertyKey", "Iterable", "AsyncIterable", "PromiseLike", "ArrayLike",
  "InstanceType", "NoInfer", "Uppercase", "Lowercase", "Capitalize", "Uncapitalize", "ThisType", "Buffer",
];

export const RESERVED_TYPE_NAMES: ReadonlySet<string> = new Set([...KEYWORDS, ...GLOBALS]);
