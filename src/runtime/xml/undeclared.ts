/**
 * What the decoder read past without a declaration to put it in: an undeclared child element or attribute, an
 * element of a single field met again, content where the type allows none. The decoder stays lenient (a SOAP
 * service may add elements and attributes to its responses, and clients must keep working), so it does not throw;
 * it notes each on the record value it builds, in a non-enumerable slot, and the generated validator
 * (`validate<Type>`, checkXsdRecord) reports them as issues at the record's path. The slot exists only when there
 * is something to note: the hot path pays for one test per attribute or child of no field, nothing else.
 *
 * The slot is keyed by a registered symbol (Symbol.for), so two copies of the runtime in one program (a bundle and a
 * test) agree on it; being non-enumerable, it is left out by Object.keys, spread, JSON.stringify, structuredClone
 * and node's deep equality, so a decoded value looks and compares as before. A copy of the value (spread, JSON)
 * leaves the notes behind: validate the value the decoder returned.
 */
export const XML_UNDECLARED: unique symbol = Symbol.for("specforge.xml.undeclared") as never;

/** One note: where below the record (a JSON-pointer suffix, "" for the record itself) and what. */
export interface XmlUndeclaredNote {
  readonly path: string;
  readonly rule: string;
  readonly message: string;
}

/** Adds a note to a list made on the first one. */
export function xmlNote(list: XmlUndeclaredNote[] | undefined, rule: string, message: string, path = ""): XmlUndeclaredNote[] {
  const out = list ?? [];
  out.push({ path, rule, message });
  return out;
}

/** Puts the notes on a decoded record (non-enumerable). */
export function attachXmlNotes(value: object, notes: readonly XmlUndeclaredNote[]): void {
  Object.defineProperty(value, XML_UNDECLARED, { value: notes, enumerable: false, configurable: true, writable: true });
}

/** The notes the decoder put on a record value, if any. */
export function xmlNotesOf(value: object): readonly XmlUndeclaredNote[] | undefined {
  return (value as { [XML_UNDECLARED]?: readonly XmlUndeclaredNote[] })[XML_UNDECLARED];
}

/** An element's or attribute's name for a message: `{ns}local`, or `local` in no namespace. */
export function xmlNoteName(ns: string, local: string): string {
  return ns === "" ? local : `{${ns}}${local}`;
}
