import type { Field, Group } from "../ir/model.js";

/**
 * protoc's lowerCamelCase rule for field names (what protobuf-es, ts-proto and protobufjs expose): underscores are
 * dropped and the letter after one is upper-cased ("mime_type" -> "mimeType", "field_name_2" -> "fieldName2").
 */
export function protoCamelCase(name: string): string {
  let out = "";
  let upper = false;
  for (const c of name) {
    if (c === "_") upper = true;
    else if (upper) {
      out += c.toUpperCase();
      upper = false;
    } else out += c;
  }
  return out;
}

/**
 * Names every plain object already has (Object.prototype's members). A message property with one of these names
 * would read the inherited member when the field is absent (`m.toString` is a function, `m.constructor` is
 * Object), and `__proto__` would set the prototype, so such proto and XML properties get a `$` (as protobuf-es
 * does). Neither proto nor XML names can contain `$`, so the escaped name never clashes with another field.
 */
const OBJECT_MEMBERS: ReadonlySet<string> = new Set([
  "constructor", "__proto__", "toString", "toLocaleString", "valueOf", "hasOwnProperty", "isPrototypeOf",
  "propertyIsEnumerable", "__defineGetter__", "__defineSetter__", "__lookupGetter__", "__lookupSetter__", "toJSON",
]);

function safeProperty(name: string): string {
  return OBJECT_MEMBERS.has(name) ? `${name}$` : name;
}

/**
 * The TypeScript property name of a field: proto fields are camel-cased like every proto library for JavaScript
 * does; XML and JSON fields keep their wire names (quoted when they are not identifiers). Proto and XML names of an
 * Object.prototype member get a `$`; JSON values are the parsed JSON itself, so their keys stay as they are (the
 * JSON codecs and validators only read own properties).
 */
export function fieldPropertyName(field: Field): string {
  if (field.wire.proto) return safeProperty(protoCamelCase(field.name));
  return field.wire.xml ? safeProperty(field.name) : field.name;
}

/**
 * The property of a repeating group kept in document order (an array of `{ kind, value }` items): the model
 * group's name when it is an `xsd:group ref`, else its item kinds joined with "Or" when there are at most three
 * (`aOrB`), else `items`. Clashes with the record's other properties are resolved like every property's.
 */
export function orderedGroupPropertyName(group: Group, kinds: readonly string[]): string {
  if (group.name !== undefined) return safeProperty(group.name);
  // A repeated reference to a substitution group head: the elements standing for the head, named after it.
  if (group.substitutionHead !== undefined) return safeProperty(group.substitutionHead.local);
  const words = kinds.map((k) => k.replace(/^\$/, ""));
  if (words.length <= 3 && words.every((w) => /^[\p{L}_][\p{L}\p{N}_]*$/u.test(w))) {
    return safeProperty(words.map((w, i) => (i === 0 ? w : w.charAt(0).toUpperCase() + w.slice(1))).join("Or"));
  }
  return "items";
}

export function oneofPropertyName(group: Group): string {
  return safeProperty(protoCamelCase(group.oneofName ?? group.name ?? "choice"));
}

/**
 * The method name of an operation on a generated client object: its name, with a `$` when it would make the client
 * a thenable (`then`, which `await` calls), set its prototype (`__proto__`), declare a construct signature instead
 * of a method in the client's interface (`new(...)`) or clash with one of the client's own members (`members`).
 */
export function clientMethodName(operation: string, members: readonly string[] = []): string {
  const special = operation === "then" || operation === "__proto__" || operation === "new";
  return special || members.includes(operation) ? `${operation}$` : operation;
}

/**
 * The key of an operation's function in a generated server's handlers object (and interface): its name, with a `$`
 * when it would make the handlers a thenable (`then`: `await`, and a module namespace imported with `import()`,
 * would call it), set its prototype (`__proto__`), declare a construct signature in the handlers interface
 * (`new(...)`) or be impossible as a method of a class implementing the interface (`constructor`).
 */
export function handlerName(operation: string): string {
  return operation === "then" || operation === "__proto__" || operation === "new" || operation === "constructor" ? `${operation}$` : operation;
}
