import { jsonParse } from "../json/parse.js";

/**
 * A JSON body parsed with integers beyond 2^53 kept exact as bigint: what the generated client passes to restSend
 * and the generated server to restOperation's body for types holding 64-bit integers as bigint or string, before
 * their revivers (json.ts `revive<T>`) give each field its in-memory shape.
 */
export function restParseJsonBigints(text: string): unknown {
  return jsonParse(text, { bigints: true });
}
