import { isIdentifier, stringLiteral } from "../../codegen/escape.js";

export function lowerFirst(name: string): string {
  return name.charAt(0).toLowerCase() + name.slice(1);
}

/** `object.name`, or `object["name"]` when the name is not a plain identifier. */
export function propertyAccess(object: string, name: string): string {
  return isIdentifier(name) ? `${object}.${name}` : `${object}[${stringLiteral(name)}]`;
}

/**
 * A simple English plural for generated function names ("Entry" -> "Entries", "Status" -> "Statuses",
 * "Item" -> "Items"). Only the common rules: a name it gets wrong is still a valid, unique identifier.
 */
export function plural(name: string): string {
  if (/[^aeiou]y$/i.test(name)) return `${name.slice(0, -1)}ies`;
  if (/(s|x|z|ch|sh)$/i.test(name)) return `${name}es`;
  return `${name}s`;
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

/**
 * A type name as the stem of derived names: the naming pass marks names that clash with globals with a trailing "$"
 * ("Response$"), which "fetchResponse" or "responseCodec" do not need.
 */
export function stem(typeName: string): string {
  return typeName.replace(/\$$/, "");
}
