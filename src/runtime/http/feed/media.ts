/** The binary media type feed servers answer with by default and feed clients ask for. */
export const PROTOBUF_MEDIA_TYPE = "application/x-protobuf";
export const JSON_MEDIA_TYPE = "application/json";

/**
 * What a feed server offers, in its order of preference (binary first): "application/protobuf" is the newer IANA
 * registration of the same format, accepted so clients of either convention are served.
 */
export const FEED_MEDIA_TYPES: readonly string[] = [PROTOBUF_MEDIA_TYPE, "application/protobuf", JSON_MEDIA_TYPE];

export function isJsonMediaType(essence: string): boolean {
  return essence === JSON_MEDIA_TYPE;
}

export function isProtobufMediaType(essence: string): boolean {
  return essence === PROTOBUF_MEDIA_TYPE || essence === "application/protobuf" || essence === "application/vnd.google.protobuf";
}
