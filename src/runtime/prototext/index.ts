/** The protobuf text format: the printer generated `prototext.ts` files call, and the tables they describe messages with. */
export { printText } from "./print.js";
export type { TextField, TextMessage, TextScalar, TextValue } from "./table.js";
export { textDouble, textFloat, textQuoteBytes, textQuoteString } from "./escape.js";
