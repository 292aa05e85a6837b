/**
 * Field defaults as a FieldDescriptorProto carries them, turned into the form the text parser puts into the IR
 * (ProtoFieldHint.default): bytes defaults arrive C-escaped and become one char per byte.
 */

const SIMPLE_ESCAPES: Readonly<Record<string, number>> = { n: 10, r: 13, t: 9, a: 7, b: 8, f: 12, v: 11, "\\": 92, "'": 39, '"': 34, "?": 63 };

/** protoc's CEscape undone: simple escapes, \NNN octal and \xHH hex, every other char one byte (char code & 0xff). */
export function unescapeBytesDefault(text: string): string | undefined {
  let out = "";
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c !== "\\") {
      out += String.fromCharCode(c.charCodeAt(0) & 0xff);
      continue;
    }
    const rest = text.slice(i + 1, i + 4);
    const octal = /^[0-7]{1,3}/.exec(rest);
    const hex = /^x([0-9a-fA-F]{1,2})/.exec(rest);
    if (octal) {
      out += String.fromCharCode(parseInt(octal[0], 8) & 0xff);
      i += octal[0].length;
    } else if (hex) {
      out += String.fromCharCode(parseInt(hex[1]!, 16));
      i += hex[0].length;
    } else if (rest !== "" && Object.hasOwn(SIMPLE_ESCAPES, rest[0]!)) {
      out += String.fromCharCode(SIMPLE_ESCAPES[rest[0]!]!);
      i += 1;
    } else {
      return undefined;
    }
  }
  return out;
}
