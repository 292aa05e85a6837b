/** The specforge library API. The CLI is a thin layer over these functions. */
export { generate, check, inspect } from "./api.js";
export type { GenerateResult, CheckResult, RunOptions, FileDifference } from "./api.js";
export { RunErrors, SpecError, SpecErrors, UsageError } from "./errors.js";
export type * from "./ir/model.js";
export type { CheckDifference, RunHooks, PipelineEvent, EventSink } from "./api.js";
export { watch } from "./pipeline/watch.js";
export type { WatchOptions, WatchHandle } from "./pipeline/watch.js";
export { initConfig } from "./config/init.js";
export type { InitOptions, InitResult } from "./config/init.js";
export { defineConfig, OPTIONS, ARTIFACT_GROUPS } from "./config/options.js";
export type { ConfigFile, SpecEntry, SpecOptions, ArtifactGroup, OptionDef } from "./config/options.js";
export { loadConfigFile } from "./config/config-file.js";
export { loadRunConfig } from "./config/resolve.js";
export { configJsonSchema } from "./config/config-schema.js";
export { definePlugin } from "./pipeline/user-plugins.js";
export type { SpecforgePlugin, PluginContext, PluginFile } from "./pipeline/user-plugins.js";
export type { Names, OperationNames, ApiNames } from "./naming/assign-names.js";
