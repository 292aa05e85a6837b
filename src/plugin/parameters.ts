/**
 * The plugin's parameter: what `--specforge_opt=...` (protoc) or `opt:` (buf.gen.yaml) passes, as one
 * comma-separated string of key=value pairs, e.g. "artifacts=types+protobuf,int64=string".
 *
 *   artifacts  "+"-separated artifact groups (types, validators, serializers, client, server) or single artifacts
 *              (e.g. protobuf, protojson, proto-connect); default: everything that applies
 *   int64      bigint (default) | string | number: how 64-bit integers are typed
 *   runtime    the module generated code imports the runtime from (default "specforge/runtime")
 */
import { UsageError } from "../errors.js";
import { ARTIFACT_GROUPS } from "../config/options.js";
import { ARTIFACT_GROUP_OF } from "../pipeline/artifact-groups.js";
import type { Int64Mode } from "../emitters/types/context.js";

export interface PluginParameters {
  /** Artifacts by name (src/pipeline/artifact-groups.ts), groups already expanded. */
  readonly artifactNames?: readonly string[];
  readonly int64?: Int64Mode;
  readonly runtimeModule?: string;
}

const INT64_MODES: readonly Int64Mode[] = ["bigint", "string", "number"];

export function parsePluginParameter(parameter: string): PluginParameters {
  const out: { -readonly [K in keyof PluginParameters]: PluginParameters[K] } = {};
  for (const pair of parameter.split(",").map((s) => s.trim()).filter((s) => s !== "")) {
    const eq = pair.indexOf("=");
    if (eq < 0) throw new UsageError(`plugin parameter "${pair}" is not key=value (known keys: artifacts, int64, runtime)`);
    const key = pair.slice(0, eq).trim();
    const value = pair.slice(eq + 1).trim();
    switch (key) {
      case "artifacts":
        out.artifactNames = artifactsOf(value);
        break;
      case "int64":
        if (!(INT64_MODES as readonly string[]).includes(value)) throw new UsageError(`plugin parameter int64=${value}: expected ${INT64_MODES.join(", ")}`);
        out.int64 = value as Int64Mode;
        break;
      case "runtime":
        if (value === "") throw new UsageError("plugin parameter runtime= needs a module specifier");
        out.runtimeModule = value;
        break;
      default:
        throw new UsageError(`unknown plugin parameter "${key}" (known: artifacts, int64, runtime)`);
    }
  }
  return out;
}

/** Artifact names stay as they are; a group name (validators, serializers, client, server) stands for its artifacts. */
function artifactsOf(value: string): readonly string[] {
  const names = value.split("+").map((s) => s.trim()).filter((s) => s !== "");
  if (names.length === 0) throw new UsageError("plugin parameter artifacts= names no artifacts");
  const groups: readonly string[] = ARTIFACT_GROUPS;
  const known = [...new Set([...Object.keys(ARTIFACT_GROUP_OF), ...ARTIFACT_GROUPS])];
  return names.flatMap((n) => {
    if (Object.hasOwn(ARTIFACT_GROUP_OF, n)) return [n];
    if (groups.includes(n)) return Object.keys(ARTIFACT_GROUP_OF).filter((a) => ARTIFACT_GROUP_OF[a]!.group === n);
    throw new UsageError(`plugin parameter artifacts: unknown artifact "${n}" (known: ${known.join(", ")})`);
  });
}
