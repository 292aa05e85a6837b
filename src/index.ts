/** The specforge library API. The CLI is a thin layer over these functions. */
export { generate, check, inspect } from "./api.js";
export type { GenerateResult, CheckResult, RunOptions, FileDifference } from "./api.js";
export { SpecError, UsageError } from "./errors.js";
export type * from "./ir/model.js";
