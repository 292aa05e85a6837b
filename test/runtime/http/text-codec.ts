import type { HttpMessageCodec } from "../../../src/runtime/http/message-codec.js";

/**
 * A stand-in for generated codecs in runtime tests: a message is `{ text, next? }`; binary is "text\nnext" as UTF-8
 * (fatal decoding, so invalid bytes fail like a real decoder), JSON is the object itself, checked on the way in.
 */
export interface TextMessage {
  text: string;
  next?: string;
  items?: string[];
}

const utf8 = new TextDecoder("utf-8", { fatal: true });

export const textCodec: HttpMessageCodec<TextMessage> = {
  encode: (m) => new TextEncoder().encode(JSON.stringify(m)),
  decode: (bytes) => textCodec.fromJson(JSON.parse(utf8.decode(bytes))),
  toJson: (m) => ({ ...m, format: "json" }),
  fromJson: (json) => {
    if (typeof json !== "object" || json === null || typeof (json as { text?: unknown }).text !== "string") {
      throw new TypeError("not a text message");
    }
    const { text, next, items } = json as TextMessage;
    return { text, ...(next === undefined ? {} : { next }), ...(items === undefined ? {} : { items }) };
  },
};
