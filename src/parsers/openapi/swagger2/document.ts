/**
 * The root of a Swagger 2.0 document -> an OpenAPI 3.0 root: `host` / `basePath` / `schemes` become `servers`, and
 * the reusable `definitions`, `parameters`, `responses` and `securityDefinitions` move under `components`.
 */
import type { Loc } from "../files.js";
import { child, entries, isObject, items, type JsonObject } from "../json.js";
import { childPointer } from "../pointer.js";
import type { JsonValue } from "../read.js";
import { deepClone, newObject } from "./converted-file.js";
import type { Swagger2Converter } from "./converter.js";
import { convertPathItem } from "./operations.js";
import { convertParameter } from "./parameters.js";
import { convertResponse } from "./responses.js";
import { convertSchema } from "./schema.js";
import { convertSecurityDefinitions } from "./security.js";

/** The version a converted document declares: the 3.0 dialect the lowering reads (`nullable`, boolean exclusive bounds). */
const CONVERTED_VERSION = "3.0.3";
const SCHEMES = new Set(["http", "https", "ws", "wss"]);
/** Copied unchanged: they mean the same in 3.0. */
const COPIED = ["info", "tags", "externalDocs", "security"];

/** `components` key -> the 2.0 section it comes from. */
const SECTIONS = [
  ["schemas", "definitions"],
  ["parameters", "parameters"],
  ["responses", "responses"],
  ["securitySchemes", "securityDefinitions"],
] as const;

export function convertRoot(cv: Swagger2Converter, root: Loc): JsonObject {
  const version = child(root, "swagger")!;
  if (version.value !== "2.0") {
    cv.fail(version, `unsupported Swagger version ${JSON.stringify(version.value)}: expected "2.0" (as a string), or an OpenAPI 3.0/3.1 document`);
  }
  const map = cv.mapOf(root.file);
  const out = newObject();
  out["openapi"] = CONVERTED_VERSION;
  map.alias("#/openapi", "#/swagger");
  for (const key of COPIED) {
    const sub = child(root, key);
    if (sub) out[key] = deepClone(sub.value);
  }
  const servers = serversOf(cv, root);
  if (servers.length > 0) {
    out["servers"] = servers;
    map.alias("#/servers", child(root, "host") ? "#/host" : "#/basePath");
  }

  const paths = child(root, "paths");
  if (paths) {
    if (!isObject(paths.value)) cv.fail(paths, "paths must be an object");
    const converted = newObject();
    for (const [p, item] of entries(paths)) {
      converted[p] = p.startsWith("x-") ? deepClone(item.value) : convertPathItem(cv, item, item.pointer);
    }
    out["paths"] = converted;
  }

  const components = newObject();
  for (const [key, section] of SECTIONS) {
    const loc = child(root, section);
    if (!loc) continue;
    if (!isObject(loc.value)) cv.fail(loc, `${section} must be an object`);
    const at = childPointer("#/components", key);
    map.relocate(loc.pointer, at);
    components[key] = convertSection(cv, key, loc, at);
  }
  if (Object.keys(components).length > 0) out["components"] = components;

  for (const [key, sub] of entries(root)) if (key.startsWith("x-")) out[key] = deepClone(sub.value);
  return out;
}

function convertSection(cv: Swagger2Converter, key: (typeof SECTIONS)[number][0], loc: Loc, at: string): JsonValue {
  if (key === "securitySchemes") return convertSecurityDefinitions(cv, loc);
  const out = newObject();
  for (const [name, entry] of entries(loc)) {
    const entryAt = childPointer(at, name);
    if (key === "schemas") {
      cv.markConverted(entry, "schema");
      out[name] = convertSchema(cv, entry);
    } else if (key === "parameters") {
      cv.markConverted(entry, "parameter");
      out[name] = convertParameter(cv, entry, entryAt);
    } else {
      cv.markConverted(entry, "response");
      // A shared response has no operation: its content takes the document's `produces`.
      out[name] = convertResponse(cv, entry, entryAt, cv.produces);
    }
  }
  return out;
}

/**
 * `scheme://host/basePath` for each of `schemes` (https when none is given: 2.0's default is "the scheme used to
 * access the definition", which a generator cannot know), or just `basePath` when there is no host.
 */
function serversOf(cv: Swagger2Converter, root: Loc): JsonValue[] {
  const host = child(root, "host");
  const basePath = child(root, "basePath");
  if (host && (typeof host.value !== "string" || !/^[^\s/?#@]+$/.test(host.value))) {
    cv.fail(host, "host must be a host name or IP address with an optional port, without scheme or path");
  }
  if (basePath && (typeof basePath.value !== "string" || !basePath.value.startsWith("/"))) {
    cv.fail(basePath, 'basePath must be a string starting with "/"');
  }
  const schemesLoc = child(root, "schemes");
  const schemes = items(schemesLoc).map((s) => {
    if (typeof s.value !== "string" || !SCHEMES.has(s.value)) return cv.fail(s, "schemes must be http, https, ws or wss");
    return s.value;
  });
  const base = basePath ? (basePath.value as string) : "";
  const urls = host ? (schemes.length > 0 ? schemes : ["https"]).map((s) => `${s}://${host.value as string}${base}`) : base ? [base] : [];
  return urls.map((url) => {
    const server = newObject();
    server["url"] = url;
    return server;
  });
}

