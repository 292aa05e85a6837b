export { wsSecurity, type SoapEnvelopeParts, type SoapEnvelopeSecurity, type WsSecurityOptions, type WsSignatureOptions, type WsUsernameTokenOptions } from "./client.js";
export {
  memoryNonceCache, wsSecurityVerifier, type SoapSecurityVerifier, type WsNonceCache, type WsSecurityResult, type WsSecurityVerifierOptions,
  type WsSignedPart,
} from "./verify.js";
export { WsSecurityError, WSSE_NS, WSU_NS, type WsSecurityFaultCode } from "./names.js";
export type { DigestName as WsDigestName, SignatureName as WsSignatureName } from "./crypto.js";
