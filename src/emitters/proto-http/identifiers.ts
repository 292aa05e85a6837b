import { isIdentifier, stringLiteral } from "../../codegen/escape.js";

export function lowerFirst(name: string): string {
  return name.charAt(0).toLowerCase() + name.slice(1);
}

/** `object.name`, or `object["name"]` when the name is not a plain identifier. */
export function propertyAccess(object: string, name: string): string {
  return isIdentifier(name) ? `${object}.${name}` : `${object}[${stringLiteral(name)}]`;
}

/**
 * Claims exported names for one generated file, so two declarations never get the same name and none shadows a type
 * of the spec (which the file may import): a taken name gets "_2", "_3", ...
 */
export function nameClaimer(taken: Iterable<string>): (wanted: string) => string {
  const used = new Set(taken);
  return (wanted) => {
    let name = wanted;
    for (let i = 2; used.has(name); i++) name = `${wanted}_${i}`;
    used.add(name);
    return name;
  };
}
