import { RESERVED_TYPE_NAMES } from "./reserved.js";

/**
 * How a source name is cut into words before it is cased. XSD and proto names are already identifiers, so only
 * characters that cannot appear in one separate words there (`Parent.child`, `my-type`) and `_` stays (proto's
 * `Outer_Inner` and XSD's `Address_Type` keep their underscores). OpenAPI schema keys and operationIds are free
 * text (`billing_portal.session`, `find pet by id`, `list-data-sets`), so `_` separates words too and every name of a
 * document comes out in the same PascalCase/camelCase. `$` always separates words: it is the naming pass's own mark
 * (`Error$`, `isWebhook$1`), so no source name may produce it.
 */
export type WordStyle = "keep-underscores" | "free-text";

const SEPARATORS: Record<WordStyle, RegExp> = {
  "keep-underscores": /[^\p{ID_Continue}]+|\$+/u,
  "free-text": /[^\p{ID_Continue}]+|[_$]+/u,
};

function words(sourceName: string, style: WordStyle): string[] {
  return sourceName.split(SEPARATORS[style]).filter((s) => s.length > 0);
}

function upperFirst(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}

/** A leading digit (or combining mark) cannot start an identifier: prefix "_". */
function startable(name: string): string {
  if (name === "") return "_";
  return /^[\p{ID_Start}_]/u.test(name) ? name : `_${name}`;
}

/**
 * Turn a source name into a TypeScript type identifier: PascalCase over its words ("Parent.child" -> "ParentChild",
 * "sObject" -> "SObject", "my-type" -> "MyType", with free text "billing_portal.session" -> "BillingPortalSession"),
 * a leading digit prefixed with "_", and reserved words suffixed with "$".
 */
export function typeIdentifier(sourceName: string, style: WordStyle = "keep-underscores"): string {
  const name = startable(words(sourceName, style).map(upperFirst).join(""));
  return RESERVED_TYPE_NAMES.has(name) ? `${name}$` : name;
}

/**
 * A function or method identifier in camelCase: "find pet by id" -> "findPetById", "list-data-sets" ->
 * "listDataSets", "GetAccountsAccount" -> "getAccountsAccount", "URLList" -> "urlList", "getURLs" stays. Only the
 * first word's leading capitals are lowered (an acronym in front is lowered whole, keeping the capital that starts
 * the next word); later words keep their casing and get a capital first letter.
 */
export function functionIdentifier(sourceName: string): string {
  const parts = words(sourceName, "free-text");
  if (parts.length === 0) return "_";
  const [first, ...rest] = parts as [string, ...string[]];
  return startable(lowerLeadingCapitals(first) + rest.map(upperFirst).join(""));
}

function lowerLeadingCapitals(word: string): string {
  const run = /^\p{Lu}+/u.exec(word)?.[0] ?? "";
  if (run.length <= 1 || run.length === word.length) return run.length === word.length ? word.toLowerCase() : word.charAt(0).toLowerCase() + word.slice(1);
  // "URLList": the run is "URLL"; its last capital starts the next word when a lower-case letter follows.
  const keep = /\p{Ll}/u.test(word.charAt(run.length)) ? run.length - 1 : run.length;
  return word.slice(0, keep).toLowerCase() + word.slice(keep);
}

/** PascalCase of a camelCase identifier ("findPetById" -> "FindPetById"), for names derived from a method. */
export function pascalOf(identifier: string): string {
  return upperFirst(identifier);
}
