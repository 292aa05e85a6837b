/**
 * Protobuf binary wire format: the primitives generated `protobuf.ts` files call. Functions over two small state
 * objects (`PbReader`, `PbWriter`); nothing here knows about schemas.
 */
export {
  ProtobufDecodeError,
  ProtobufEncodeError,
  pbEncodeMissingRequired,
  pbFail,
  pbFieldError,
  pbMissingRequired,
  pbRootError,
  pbUnknownEnumName,
} from "./errors.js";
export * from "./reader.js";
export * from "./writer.js";
export {
  pbJoinUnknown,
  pbMapSet,
  pbOverrun,
  pbSkipField,
  pbTooDeep,
  pbUnterminatedGroup,
  pbVarintField,
  pbWrongWireType,
} from "./skip.js";
export { utf8Decode as pbUtf8Decode, utf8Length as pbUtf8Length, utf8Write as pbUtf8Write } from "./utf8.js";
export * from "./checks.js";
export * from "./rules.js";
export { pbWritePackedInt32, pbWritePackedSint32, pbWritePackedUint32 } from "./packed.js";
export { pbReadPackedInt32, pbReadPackedSint32, pbReadPackedUint32 } from "./packed-read.js";
export { pbDateOf, pbDateParts, pbReadDate, pbWriteDate } from "./dates.js";
