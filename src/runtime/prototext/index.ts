/** The protobuf text format: the printer and parser generated `prototext.ts` files call, and their field tables. */
export { printText, type TextPrintOptions } from "./print.js";
export { parseTextToBinary } from "./parse.js";
export { TextFormatError } from "./tokens.js";
export type { TextField, TextMessage, TextScalar, TextType, TextTypes, TextValue } from "./table.js";
export { textDouble, textFloat, textQuoteBytes, textQuoteString } from "./escape.js";
