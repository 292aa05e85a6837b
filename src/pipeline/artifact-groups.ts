import type { Artifact } from "../emitters/artifact.js";
import { DEFAULT_ARTIFACT_GROUPS, type ArtifactGroup } from "../config/options.js";

/**
 * How the five artifact groups users choose from (config `artifacts`, `--artifacts`) map to the emitters of
 * src/emitters/index.ts, and which other artifacts' files each one imports. Choosing a group brings in what it
 * needs, so every selection compiles: `["client"]` on a WSDL also emits types.ts and xml.ts. A test fails when an
 * emitter is registered without an entry here.
 */
export const ARTIFACT_GROUP_OF: Readonly<Record<string, { readonly group: ArtifactGroup; readonly requires: readonly string[]; readonly summary: string }>> = {
  types: { group: "types", requires: [], summary: "the TypeScript types: interfaces, enums as literal unions, operations interfaces" },
  "json-validators": { group: "validators", requires: ["types"], summary: "`is<T>`, `validate<T>` and `assert<T>` for every type, and `<T>Schema` (Standard Schema v1)" },
  "json-serializers": { group: "serializers", requires: ["types", "json-validators"], summary: "`encode<T>Json` and `decode<T>Json` (strict JSON, validated)" },
  // The client writes and reads bodies holding bytes, dates or 64-bit integers with ./json.js's encoders and revivers.
  "rest-client": { group: "client", requires: ["types", "json-serializers"], summary: "a typed fetch client per API: `create<Api>Client(options)`" },
  // The server validates bodies with ./validate.js and writes response bodies with ./json.js's encoders.
  "rest-server": { group: "server", requires: ["types", "json-validators", "json-serializers"], summary: "typed handlers and a web-standard server per API: `create<Api>Server(handlers, options)`" },
  protojson: { group: "serializers", requires: ["types", "protobuf"], summary: "the proto3 JSON mapping: `toJson<T>`, `fromJson<T>` and their string forms" },
  protobuf: { group: "serializers", requires: ["types"], summary: "the binary wire format: `encode<T>` and `decode<T>`" },
  prototext: { group: "serializers", requires: ["types", "protobuf"], summary: "the protobuf text format: `toText<T>` (what `protoc --decode` prints) and `fromText<T>`" },
  "proto-checks": { group: "validators", requires: ["types"], summary: "`validate<T>` for every message, and `<T>Schema` (Standard Schema v1)" },
  "proto-feed": { group: "client", requires: ["types", "protobuf", "protojson"], summary: "fetch, iterate and serve paged feeds" },
  // Its server checks requests with ./validate.js (protovalidate rules) when a spec has rules, so it needs it.
  "proto-connect": { group: "client", requires: ["types", "protobuf", "protojson", "proto-checks"], summary: "Connect clients for the services" },
  "proto-openapi": { group: "openapi", requires: [], summary: "openapi.json: an OpenAPI 3.1 document of the google.api.http routes, with ProtoJSON schemas" },
  xml: { group: "serializers", requires: ["types"], summary: "XML codecs for every element: `encode<E>Element` and `decode<E>Element`" },
  "xml-validators": { group: "validators", requires: [], summary: "XSD validators for every type and element, and `<T>Schema` (Standard Schema v1)" },
  "soap-client": { group: "client", requires: ["types", "xml"], summary: "a typed SOAP client per service: `create<Service>Client(options)`" },
  "soap-server": { group: "server", requires: ["types", "xml", "xml-validators"], summary: "typed handlers and a web-standard SOAP server per service" },
};

/** The artifacts to run for a group selection (the default groups when undefined), in registry order. */
export function selectArtifacts(all: readonly Artifact[], selected: readonly ArtifactGroup[] | undefined): readonly Artifact[] {
  const groups = selected ?? DEFAULT_ARTIFACT_GROUPS;
  const wanted = new Set<string>();
  const add = (name: string) => {
    if (wanted.has(name)) return;
    wanted.add(name);
    for (const r of ARTIFACT_GROUP_OF[name]?.requires ?? []) add(r);
  };
  for (const a of all) {
    const entry = ARTIFACT_GROUP_OF[a.name];
    if (!entry) throw new Error(`internal: artifact ${a.name} has no group in src/pipeline/artifact-groups.ts`);
    if (groups.includes(entry.group)) add(a.name);
  }
  return all.filter((a) => wanted.has(a.name));
}

/** The artifacts named (e.g. "types", "protobuf"), with what they need, in registry order; unknown names throw. */
export function selectArtifactsByName(all: readonly Artifact[], names: readonly string[]): readonly Artifact[] {
  const wanted = new Set<string>();
  const add = (name: string) => {
    if (wanted.has(name)) return;
    if (!all.some((a) => a.name === name)) throw new Error(`unknown artifact "${name}"`);
    wanted.add(name);
    for (const r of ARTIFACT_GROUP_OF[name]?.requires ?? []) add(r);
  };
  names.forEach(add);
  return all.filter((a) => wanted.has(a.name));
}
