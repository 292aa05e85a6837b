/** Swagger 2.0 `securityDefinitions` entries -> OpenAPI 3.0 security schemes. */
import type { Loc } from "../files.js";
import { child, entries, str, type JsonObject } from "../json.js";
import { deepClone, newObject } from "./converted-file.js";
import type { Swagger2Converter } from "./converter.js";
import { copy, copyExtensions } from "./parameters.js";

/** 2.0 oauth2 `flow` -> the 3.0 `flows` key, and the URLs that flow has. (A Map: "__proto__" must find nothing.) */
const FLOWS: ReadonlyMap<string, { key: string; urls: readonly string[] }> = new Map([
  ["implicit", { key: "implicit", urls: ["authorizationUrl"] }],
  ["password", { key: "password", urls: ["tokenUrl"] }],
  ["application", { key: "clientCredentials", urls: ["tokenUrl"] }],
  ["accessCode", { key: "authorizationCode", urls: ["authorizationUrl", "tokenUrl"] }],
]);

export function convertSecurityScheme(cv: Swagger2Converter, loc: Loc, name: string): JsonObject {
  const out = newObject();
  const type = str(loc, "type");
  switch (type) {
    case "basic":
      out["type"] = "http";
      out["scheme"] = "basic";
      break;
    case "apiKey": {
      const where = str(loc, "in");
      if (where !== "query" && where !== "header") {
        return cv.fail(child(loc, "in") ?? loc, `apiKey security definition "${name}" needs "in": query or header`);
      }
      if (str(loc, "name") === undefined) return cv.fail(loc, `apiKey security definition "${name}" needs a name`);
      out["type"] = "apiKey";
      copy(loc, out, ["name", "in"]);
      break;
    }
    case "oauth2": {
      const flow = str(loc, "flow");
      const spec = flow !== undefined ? FLOWS.get(flow) : undefined;
      if (!spec) {
        return cv.fail(child(loc, "flow") ?? loc, `oauth2 security definition "${name}" needs "flow": implicit, password, application or accessCode`);
      }
      const converted = newObject();
      for (const url of spec.urls) copy(loc, converted, [url]);
      const scopes = child(loc, "scopes");
      converted["scopes"] = scopes ? deepClone(scopes.value) : newObject();
      const flows = newObject();
      flows[spec.key] = converted;
      out["type"] = "oauth2";
      out["flows"] = flows;
      break;
    }
    default:
      return cv.fail(child(loc, "type") ?? loc, `security definition "${name}" needs "type": basic, apiKey or oauth2`);
  }
  copy(loc, out, ["description"]);
  copyExtensions(loc, out);
  return out;
}

export function convertSecurityDefinitions(cv: Swagger2Converter, loc: Loc): JsonObject {
  const out = newObject();
  for (const [name, scheme] of entries(loc)) out[name] = convertSecurityScheme(cv, scheme, name);
  return out;
}
