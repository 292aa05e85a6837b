import type { IrDocument } from "../ir/model.js";
import type { Names } from "../naming/assign-names.js";
import { jsonParse } from "../runtime/json/parse.js";
import { DEFAULT_XML_LIMITS } from "../runtime/xml/limits.js";
import { text, utf8, type Codec } from "./codec.js";
import type { ConvertTarget } from "./resolve-type.js";
import { xmlJsonForm } from "./xml-json-form.js";

/**
 * The JSON side of an XSD element gets the bounds the XML decoder has: the same size limit, and a nesting limit
 * that admits every document the XML side admits (each XML level is at most two JSON levels: an object and the
 * array of a repeated element or of open content) and nothing much deeper.
 */
export const JSON_FORM_LIMITS = Object.freeze({
  maxBytes: DEFAULT_XML_LIMITS.maxBytes,
  maxDepth: 2 * DEFAULT_XML_LIMITS.maxDepth + 1,
});

/** Input over a size limit (the JSON parser bounds depth itself, with a position). */
export class JsonLimitError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "JsonLimitError";
  }
}

/** `--from json` / `--to json` for an XSD element: the generated value in its documented JSON form. */
export function xmlElementJsonCodec(doc: IrDocument, names: Names, target: ConvertTarget): Codec {
  const element = target.kind === "element" ? doc.elements.find((e) => `{${e.name.ns}}${e.name.local}` === target.display) : undefined;
  if (element === undefined) throw new Error(`internal: ${target.display} is not an element of the spec`);
  const form = xmlJsonForm(doc, names, element);
  return {
    decode(bytes) {
      if (bytes.length > JSON_FORM_LIMITS.maxBytes) {
        throw new JsonLimitError(`the JSON input is larger than ${JSON_FORM_LIMITS.maxBytes} bytes`);
      }
      return form.fromJson(jsonParse(utf8(bytes), { maxDepth: JSON_FORM_LIMITS.maxDepth }));
    },
    encode(value) {
      return text(`${JSON.stringify(form.toJson(value), null, 2)}\n`);
    },
  };
}
