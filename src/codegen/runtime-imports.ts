/**
 * Which runtime module a generated file imports each runtime name from, and the runtime API version it checks.
 *
 * Emitters import runtime names from `ctx.runtimeModule`, the everything-entry ("specforge/runtime" by default). When
 * that is specforge's own runtime, the pipeline routes each name to an area entry instead
 * (`specforge/runtime/protobuf`, `/json`, `/xml`, `/soap`, `/rest`, `/rpc`): the artifact's own area when it exports
 * the name, else the first area (in AREA_ORDER, after the spec format's area) that does. Routed:
 * - "specforge/runtime" -> "specforge/runtime/<area>";
 * - a path or URL of the runtime's entry, ending in "runtime/index.ts" or "runtime/index.js" (src/runtime/index.ts,
 *   dist/runtime/index.js: tests, `convert`, `mock`, the conformance testee) -> its sibling "areas/<area>.ts|js".
 * Any other module (a user's own runtime, `--runtime-module @acme/sf-runtime`) is imported as is, one module.
 */
import type { SpecFormat } from "../ir/model.js";
import { RUNTIME_AREA_EXPORTS } from "./runtime-areas.js";

export type RuntimeArea = keyof typeof RUNTIME_AREA_EXPORTS;

/** Fallback order for a name the preferred area does not export. */
const AREA_ORDER: readonly RuntimeArea[] = ["protobuf", "json", "xml", "soap", "rest", "rpc"];

/**
 * The runtime API version generated code is written for. Generated files that import the runtime re-export its
 * `RuntimeApi<N>` type, so compiling against a runtime without it fails (src/runtime/version.ts, docs/runtime.md).
 */
export const RUNTIME_API = 1;

/** Local name of the version check's re-export: `$` names are never derived from a spec. */
export const RUNTIME_API_EXPORT = "$specforgeRuntimeApi";

/** The artifact -> area table; artifacts not listed use their spec format's area. */
const ARTIFACT_AREAS: Readonly<Record<string, RuntimeArea>> = {
  "json-validators": "json",
  "json-serializers": "json",
  "rest-client": "rest",
  "rest-server": "rest",
  protojson: "protobuf",
  protobuf: "protobuf",
  "proto-checks": "protobuf",
  prototext: "protobuf",
  "proto-feed": "rest",
  "proto-connect": "rpc",
  xml: "xml",
  "xml-validators": "xml",
  "soap-client": "soap",
  "soap-server": "soap",
};

const FORMAT_AREAS: Readonly<Record<SpecFormat, RuntimeArea>> = { proto: "protobuf", openapi: "json", wsdl: "xml", xsd: "xml" };

/** The area an artifact's files import from first. */
export function artifactArea(artifact: string, format: SpecFormat): RuntimeArea {
  return ARTIFACT_AREAS[artifact] ?? FORMAT_AREAS[format];
}

/** The module of one area of the runtime `runtimeModule` names; undefined when it is not specforge's runtime. */
export function runtimeAreaModule(runtimeModule: string, area: RuntimeArea): string | undefined {
  if (runtimeModule === "specforge/runtime") return `specforge/runtime/${area}`;
  const entry = /(^|[\\/])runtime([\\/])index\.(ts|js)$/.exec(runtimeModule);
  if (!entry) return undefined;
  return `${runtimeModule.slice(0, entry.index)}${entry[1]}runtime${entry[2]}areas${entry[2]}${area}.${entry[3]}`;
}

/**
 * The area a runtime name is imported from, given the file's preferred area: the preferred one when it exports the
 * name, else the first that does; undefined for a name no area exports (an emitter bug the compile of the output
 * reports: such a name is left on the everything-entry).
 */
export function runtimeAreaOf(name: string, preferred: RuntimeArea): RuntimeArea | undefined {
  if (RUNTIME_AREA_EXPORTS[preferred].has(name)) return preferred;
  return AREA_ORDER.find((a) => RUNTIME_AREA_EXPORTS[a].has(name));
}
