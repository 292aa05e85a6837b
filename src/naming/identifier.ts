import { RESERVED_TYPE_NAMES } from "./reserved.js";

/**
 * Turn a source name into a TypeScript type identifier: PascalCase over segments separated by characters that
 * cannot appear in an identifier ("Parent.child" -> "ParentChild", "sObject" -> "SObject", "my-type" -> "MyType"),
 * a leading digit prefixed with "_", and reserved words suffixed with "$".
 */
export function typeIdentifier(sourceName: string): string {
  const segments = sourceName.split(/[^\p{ID_Continue}$]+/u).filter((s) => s.length > 0);
  let name = segments.map((s) => s.charAt(0).toUpperCase() + s.slice(1)).join("");
  if (name === "") name = "_";
  if (!/^[\p{ID_Start}$_]/u.test(name)) name = `_${name}`;
  if (RESERVED_TYPE_NAMES.has(name)) name = `${name}$`;
  return name;
}
