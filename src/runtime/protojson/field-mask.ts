import { describeJson, ProtoJsonError, protoJsonError } from "./errors.js";

/**
 * google.protobuf.FieldMask as one string of comma-separated paths in lowerCamelCase ("user.displayName,photo").
 * Only paths that survive snake_case -> lowerCamelCase -> snake_case are representable, as protoc insists.
 */
export function fieldMaskToJson(paths: readonly string[]): string {
  return paths.map((p) => {
    let out = "";
    for (let i = 0; i < p.length; i++) {
      const c = p[i]!;
      if (c >= "A" && c <= "Z") throw new ProtoJsonError("", `field mask path ${describeJson(p)} is not snake_case`);
      if (c === "_") {
        const next = p[i + 1];
        if (next === undefined || next < "a" || next > "z") {
          throw new ProtoJsonError("", `field mask path ${describeJson(p)} cannot be written in lowerCamelCase`);
        }
        out += next.toUpperCase();
        i++;
      } else out += c;
    }
    return out;
  }).join(",");
}

export function fieldMaskFromJson(value: unknown, path: string, key?: string | number): string[] {
  if (typeof value !== "string") throw protoJsonError(path, key, `expected a field mask string, got ${describeJson(value)}`);
  if (value === "") return [];
  return value.split(",").map((p) => {
    if (p.includes("_")) throw protoJsonError(path, key, `field mask path ${describeJson(p)} must be lowerCamelCase`);
    return p.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
  });
}
