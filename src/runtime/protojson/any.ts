import { childPath, describeJson, ProtoJsonError, protoJsonError } from "./errors.js";
import { hasOwnJson, jsonObjectAt, jsonSet } from "./json-shape.js";
import type { ProtoFromJsonOptions, ProtoJsonMessageType, ProtoJsonObject, ProtoJsonRegistry, ProtoJsonValue, ProtoToJsonOptions } from "./types.js";

/**
 * google.protobuf.Any: {"@type": url, ...fields of the packed message}, or {"@type": url, "value": ...} when the
 * packed message is a well-known type with its own JSON form. Packing and unpacking need the packed type's binary
 * codec, found by full name (the part of the URL after the last "/") in a registry.
 */
export interface AnyShape {
  readonly typeUrl: string;
  readonly value: Uint8Array;
}

function lookup(registry: ProtoJsonRegistry, typeUrl: string): ProtoJsonMessageType | undefined {
  return registry.get(typeUrl.slice(typeUrl.lastIndexOf("/") + 1));
}

export function anyToJson(any: AnyShape, options: ProtoToJsonOptions, registry: ProtoJsonRegistry): ProtoJsonValue {
  if (any.typeUrl === "" && any.value.length === 0) return {};
  const type = lookup(registry, any.typeUrl);
  if (!type) throw new ProtoJsonError("", `google.protobuf.Any holds ${describeJson(any.typeUrl)}, which is not in the type registry`);
  if (!type.decode) throw new ProtoJsonError("", `no binary codec registered for ${type.typeName}`);
  const json = type.toJson(type.decode(any.value), options);
  const out: ProtoJsonObject = { "@type": any.typeUrl };
  if (type.wellKnown) out["value"] = json;
  else for (const [k, v] of Object.entries(json as ProtoJsonObject)) jsonSet(out, k, v);
  return out;
}

export function anyFromJson(
  json: unknown,
  options: ProtoFromJsonOptions,
  registry: ProtoJsonRegistry,
  path: string,
  key?: string | number,
): { typeUrl: string; value: Uint8Array } {
  const object = jsonObjectAt(json, path, key);
  const keys = Object.keys(object);
  if (keys.length === 0) return { typeUrl: "", value: new Uint8Array(0) };
  const here = childPath(path, key);
  const typeUrl = hasOwnJson(object, "@type") ? object["@type"] : undefined;
  if (typeof typeUrl !== "string") throw protoJsonError(here, "@type", "google.protobuf.Any needs a string @type");
  const type = lookup(registry, typeUrl);
  if (!type) throw protoJsonError(here, "@type", `${describeJson(typeUrl)} is not in the type registry`);
  if (!type.encode) throw protoJsonError(here, "@type", `no binary codec registered for ${type.typeName}`);
  let body: unknown;
  if (type.wellKnown) {
    for (const k of keys) {
      if (k !== "@type" && k !== "value" && !options.ignoreUnknownFields) throw protoJsonError(here, k, "unknown field in google.protobuf.Any");
    }
    if (!hasOwnJson(object, "value")) throw protoJsonError(here, "value", "google.protobuf.Any of a well-known type needs a value");
    body = object["value"];
  } else {
    const rest: ProtoJsonObject = {};
    for (const k of keys) if (k !== "@type") jsonSet(rest, k, object[k]!);
    body = rest;
  }
  try {
    return { typeUrl, value: type.encode(type.fromJson(body, options)) };
  } catch (e) {
    // The packed message reports paths from its own root; place them under this Any.
    if (e instanceof ProtoJsonError) throw new ProtoJsonError(`${here}${type.wellKnown ? "/value" : ""}${e.path}`, e.detail);
    throw e;
  }
}
