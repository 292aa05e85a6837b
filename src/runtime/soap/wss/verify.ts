/**
 * The server side of WS-Security: `wsSecurityVerifier(options)` gives a SoapServerOptions `security` value that
 * checks a request's wsse:Security header before anything else reads the request, and refuses it with a WS-Security
 * fault (wsse:FailedAuthentication, wsse:FailedCheck, wsse:MessageExpired, ...) unless:
 *  - its Timestamp is current (Created not in the future, Expires not past, both within the clock skew);
 *  - its UsernameToken names a user the callback knows, with the right password (PasswordDigest recomputed from
 *    the nonce and Created), a Created that is recent, and a nonce never seen before (the replay cache);
 *  - its ds:Signature is by a trusted certificate, every reference's digest matches the canonicalized element
 *    (exclusive c14n), the SignatureValue verifies over the canonicalized SignedInfo, and what it signs is what the
 *    server processes: the envelope's own Body and the header's own Timestamp, by Ids that occur once in the
 *    message (so a signed Body moved under a header and replaced, "signature wrapping", is refused).
 */
import { SOAP11_NS, SOAP12_NS } from "../envelope.js";
import type { XmlLimits } from "../../xml/limits.js";
import { XmlParseError } from "../../xml/errors.js";
import { base64ToBytes, bytesToBase64 } from "./base64.js";
import { excC14n } from "./c14n.js";
import {
  certificateDer,
  digest,
  digestNameOf,
  DSIG_NS,
  ENVELOPED_SIGNATURE,
  EXC_C14N,
  readCertificate,
  rsaVerify,
  sameBytes,
  signatureNameOf,
} from "./crypto.js";
import { allElements, childElements, domAttr, ownText, parseDom, type DomElement } from "./dom.js";
import { BASE64_BINARY, PASSWORD_DIGEST, PASSWORD_TEXT, parseUtcTime, WsSecurityError, WSSE_NS, WSU_NS, X509V3 } from "./names.js";

/** Remembers nonces until they expire; `add` answers false for a nonce already there (a replay). */
export interface WsNonceCache {
  add(nonce: string, expiresAt: number, now: number): boolean | Promise<boolean>;
}

/**
 * An in-memory nonce cache for one process. At most `maxEntries` live nonces: when full (after dropping the expired
 * ones) a new nonce is refused rather than an old one forgotten, so that a flood cannot make room for a replay.
 */
export function memoryNonceCache(maxEntries = 100_000): WsNonceCache {
  const seen = new Map<string, number>();
  return {
    add(nonce, expiresAt, now) {
      const known = seen.get(nonce);
      if (known !== undefined && known > now) return false;
      if (seen.size >= maxEntries) {
        for (const [n, at] of seen) if (at <= now) seen.delete(n);
        if (seen.size >= maxEntries) return false;
      }
      seen.set(nonce, expiresAt);
      return true;
    },
  };
}

export type WsSignedPart = "Body" | "Timestamp" | "UsernameToken";

export interface WsSecurityVerifierOptions {
  /** Require a UsernameToken and check it. */
  readonly usernameToken?: {
    /** The password of `username`, or undefined for an unknown user (refused like a wrong password). */
    readonly password: (username: string) => string | undefined | Promise<string | undefined>;
    /** Accept PasswordText (default true); false demands PasswordDigest. */
    readonly allowPasswordText?: boolean;
  };
  /** Require an X.509 signature and check it. */
  readonly signature?: {
    /** Certificates (PEM or DER) whose signatures are accepted, compared byte for byte. */
    readonly trustedCertificates?: readonly (string | Uint8Array)[];
    /** Accept another certificate (DER) when this answers true, e.g. after checking its chain with node:crypto. */
    readonly trust?: (certificate: Uint8Array) => boolean | Promise<boolean>;
    /** Accept RSA-SHA1 signatures and SHA-1 digests (default false). */
    readonly allowSha1?: boolean;
    /** The parts that must be signed (default Body and, when present, Timestamp). */
    readonly requiredParts?: readonly WsSignedPart[];
  };
  /** Require a Timestamp (default: true when a signature is required). */
  readonly requireTimestamp?: boolean;
  /** Clock difference tolerated between the sender and this server, in seconds (default 300). */
  readonly clockSkewSeconds?: number;
  /** Oldest UsernameToken Created accepted, in seconds (default 300); nonces are remembered this long. */
  readonly maxTokenAgeSeconds?: number;
  /** Where nonces are remembered (default: an in-memory cache per verifier). */
  readonly nonceCache?: WsNonceCache;
  /** The actor / role of the Security header to process; default the one without an actor. */
  readonly actor?: string;
  /** Bounds of the XML read for verification. */
  readonly limits?: Partial<XmlLimits>;
  /** The clock (milliseconds since the epoch), for tests; default Date.now. */
  readonly now?: () => number;
}

/** What the verifier established about a request (the handler sees it as `ctx.security`). */
export interface WsSecurityResult {
  /** The UsernameToken's user, when one was required. */
  readonly username?: string;
  /** The signing certificate (DER), when a signature was required. */
  readonly certificate?: Uint8Array;
  /** The signed parts of the message. */
  readonly signedParts: readonly WsSignedPart[];
}

/** What SoapServerOptions.security takes. */
export interface SoapSecurityVerifier {
  verify(text: string): Promise<WsSecurityResult>;
}

const MAX_REFERENCES = 32;
const ID_ATTRS = ["Id", "ID", "id"];
const EC_NS = EXC_C14N;

function refuse(code: ConstructorParameters<typeof WsSecurityError>[0], message: string): never {
  throw new WsSecurityError(code, message);
}

function only(el: DomElement, ns: string, local: string, what: string): DomElement | undefined {
  const found = childElements(el).filter((c) => c.ns === ns && c.local === local);
  if (found.length > 1) refuse("InvalidSecurity", `more than one ${what}`);
  return found[0];
}

function required(el: DomElement, ns: string, local: string, what: string): DomElement {
  return only(el, ns, local, what) ?? refuse("InvalidSecurity", `missing ${what}`);
}

export function wsSecurityVerifier(options: WsSecurityVerifierOptions): SoapSecurityVerifier {
  const skew = (options.clockSkewSeconds ?? 300) * 1000;
  const maxAge = (options.maxTokenAgeSeconds ?? 300) * 1000;
  const nonces = options.nonceCache ?? memoryNonceCache();
  const now = options.now ?? Date.now;
  const sig = options.signature;
  const trusted = (sig?.trustedCertificates ?? []).map(certificateDer);
  const requireTimestamp = options.requireTimestamp ?? sig !== undefined;
  const requiredParts = new Set<WsSignedPart>(sig?.requiredParts ?? ["Body", "Timestamp"]);
  return {
    async verify(text) {
      let root: DomElement;
      try {
        root = parseDom(text, options.limits);
      } catch (error) {
        if (error instanceof XmlParseError) refuse("InvalidSecurity", `malformed message: ${error.message}`);
        throw error;
      }
      const t = now();
      const envNs = root.ns;
      if (root.local !== "Envelope" || (envNs !== SOAP11_NS && envNs !== SOAP12_NS)) refuse("InvalidSecurity", "not a SOAP envelope");
      const parts = childElements(root);
      const headers = parts.filter((p) => p.ns === envNs && p.local === "Header");
      const bodies = parts.filter((p) => p.ns === envNs && p.local === "Body");
      if (headers.length > 1 || bodies.length !== 1 || parts.length !== headers.length + 1 || (headers[0] !== undefined && parts[0] !== headers[0])) {
        refuse("InvalidSecurity", "the envelope must hold one Header and one Body, in that order");
      }
      const body = bodies[0]!;
      const actorAttr = envNs === SOAP12_NS ? "role" : "actor";
      const securities =
        headers[0] === undefined
          ? []
          : childElements(headers[0]).filter((h) => h.ns === WSSE_NS && h.local === "Security" && actorMatches(domAttr(h, envNs, actorAttr), options.actor, envNs));
      if (securities.length > 1) refuse("InvalidSecurity", "more than one wsse:Security header for this actor");
      const security = securities[0] ?? refuse("InvalidSecurity", "the message has no wsse:Security header");

      // Every Id names one element: a second element under the same Id is how wrapped content would be slipped in.
      const byId = new Map<string, DomElement>();
      for (const el of allElements(root)) {
        for (const a of el.attrs) {
          if (!((a.ns === WSU_NS && a.local === "Id") || (a.ns === "" && ID_ATTRS.includes(a.local)))) continue;
          const other = byId.get(a.value);
          if (other !== undefined && other !== el) refuse("InvalidSecurity", `the Id ${JSON.stringify(a.value)} occurs more than once`);
          byId.set(a.value, el);
        }
      }

      const timestamp = only(security, WSU_NS, "Timestamp", "wsu:Timestamp");
      if (timestamp !== undefined) checkTimestamp(timestamp, t, skew);
      else if (requireTimestamp) refuse("InvalidSecurity", "the message has no wsu:Timestamp");

      let certificate: Uint8Array | undefined;
      const signed: WsSignedPart[] = [];
      if (sig !== undefined) {
        const signature = required(security, DSIG_NS, "Signature", "ds:Signature");
        const referenced = await checkSignature(signature, security, byId, sig.allowSha1 === true);
        certificate = referenced.certificate;
        if (!trusted.some((c) => sameBytes(c, certificate!)) && !(sig.trust !== undefined && (await sig.trust(certificate)))) {
          refuse("FailedAuthentication", "the signing certificate is not trusted");
        }
        const info = readCertificate(certificate);
        if (t + skew < info.notBefore || t - skew > info.notAfter) refuse("InvalidSecurityToken", "the signing certificate is not valid now");
        if (!(await rsaVerify(info.spki, referenced.algorithm, referenced.value, referenced.signedInfo))) {
          refuse("FailedCheck", "the signature value does not verify");
        }
        const ut = only(security, WSSE_NS, "UsernameToken", "wsse:UsernameToken");
        if (referenced.elements.has(body)) signed.push("Body");
        if (timestamp !== undefined && referenced.elements.has(timestamp)) signed.push("Timestamp");
        if (ut !== undefined && referenced.elements.has(ut)) signed.push("UsernameToken");
        for (const part of requiredParts) {
          const present = part === "Body" || (part === "Timestamp" ? timestamp !== undefined : ut !== undefined);
          if (present && !signed.includes(part)) refuse("FailedCheck", `the signature does not cover the message's ${part}`);
        }
      }

      let username: string | undefined;
      if (options.usernameToken !== undefined) {
        const ut = required(security, WSSE_NS, "UsernameToken", "wsse:UsernameToken");
        username = await checkUsernameToken(ut, options.usernameToken, t, skew, maxAge, nonces);
      }
      return { ...(username !== undefined ? { username } : {}), ...(certificate !== undefined ? { certificate } : {}), signedParts: signed };
    },
  };
}

function actorMatches(actor: string | undefined, wanted: string | undefined, envNs: string): boolean {
  if (wanted !== undefined) return actor === wanted;
  // No actor, or SOAP 1.2's explicit name for the ultimate receiver.
  return actor === undefined || (envNs === SOAP12_NS && actor === "http://www.w3.org/2003/05/soap-envelope/role/ultimateReceiver");
}

function checkTimestamp(ts: DomElement, t: number, skew: number): void {
  const created = parseUtcTime(ownText(required(ts, WSU_NS, "Created", "wsu:Created in the Timestamp")));
  const expiresEl = only(ts, WSU_NS, "Expires", "wsu:Expires in the Timestamp");
  const expires = expiresEl === undefined ? undefined : parseUtcTime(ownText(expiresEl));
  if (created === undefined || (expiresEl !== undefined && expires === undefined)) refuse("InvalidSecurity", "the Timestamp's times are not xsd:dateTime values");
  if (created > t + skew) refuse("MessageExpired", "the Timestamp was created in the future");
  if (expires !== undefined && expires <= t - skew) refuse("MessageExpired", "the Timestamp has expired");
}

async function checkUsernameToken(
  ut: DomElement,
  config: NonNullable<WsSecurityVerifierOptions["usernameToken"]>,
  t: number,
  skew: number,
  maxAge: number,
  nonces: WsNonceCache,
): Promise<string> {
  const username = ownText(required(ut, WSSE_NS, "Username", "wsse:Username")).trim();
  const passwordEl = required(ut, WSSE_NS, "Password", "wsse:Password");
  const type = domAttr(passwordEl, "", "Type") ?? PASSWORD_TEXT;
  const nonceEl = only(ut, WSSE_NS, "Nonce", "wsse:Nonce");
  const createdEl = only(ut, WSU_NS, "Created", "wsu:Created in the UsernameToken");
  if (type !== PASSWORD_TEXT && type !== PASSWORD_DIGEST) refuse("UnsupportedSecurityToken", `unsupported password type ${type}`);
  const isDigest = type === PASSWORD_DIGEST;
  if (!isDigest && config.allowPasswordText === false) refuse("UnsupportedSecurityToken", "PasswordText is not accepted: send a PasswordDigest");
  if (isDigest && (nonceEl === undefined || createdEl === undefined)) refuse("InvalidSecurityToken", "a PasswordDigest needs a Nonce and a Created");
  let nonce: Uint8Array | undefined;
  if (nonceEl !== undefined) {
    const encoding = domAttr(nonceEl, "", "EncodingType");
    if (encoding !== undefined && encoding !== BASE64_BINARY) refuse("InvalidSecurityToken", `unsupported Nonce encoding ${encoding}`);
    try {
      nonce = base64ToBytes(ownText(nonceEl));
    } catch {
      refuse("InvalidSecurityToken", "the Nonce is not base64");
    }
  }
  let created: number | undefined;
  const createdText = createdEl === undefined ? undefined : ownText(createdEl);
  if (createdText !== undefined) {
    created = parseUtcTime(createdText) ?? refuse("InvalidSecurityToken", "the UsernameToken's Created is not an xsd:dateTime");
    if (created > t + skew) refuse("MessageExpired", "the UsernameToken was created in the future");
    if (created < t - maxAge - skew) refuse("MessageExpired", "the UsernameToken is too old");
  }
  const password = await config.password(username);
  const given = ownText(passwordEl);
  let ok: boolean;
  if (password === undefined) ok = false;
  else if (isDigest) {
    const tail = new TextEncoder().encode(createdText! + password);
    const all = new Uint8Array(nonce!.length + tail.length);
    all.set(nonce!);
    all.set(tail, nonce!.length);
    ok = sameBytes(new TextEncoder().encode(bytesToBase64(await digest("sha1", all))), new TextEncoder().encode(given.trim()));
  } else ok = sameBytes(await digest("sha256", password), await digest("sha256", given));
  if (!ok) refuse("FailedAuthentication", "the user name or password is wrong");
  if (nonce !== undefined) {
    const key = `${username}\n${bytesToBase64(nonce)}`;
    if (!(await nonces.add(key, (created ?? t) + maxAge + 2 * skew, t))) refuse("FailedAuthentication", "the nonce was used before (a replayed message)");
  }
  return username;
}

interface CheckedSignature {
  readonly certificate: Uint8Array;
  readonly algorithm: NonNullable<ReturnType<typeof signatureNameOf>>;
  readonly value: Uint8Array;
  readonly signedInfo: string;
  readonly elements: ReadonlySet<DomElement>;
}

function inclusivePrefixes(method: DomElement): string[] | undefined {
  const incl = childElements(method).find((c) => c.ns === EC_NS && c.local === "InclusiveNamespaces");
  const list = incl === undefined ? undefined : domAttr(incl, "", "PrefixList");
  return list === undefined ? undefined : list.split(/\s+/).filter((p) => p !== "");
}

/** Structure, references and digests of a ds:Signature; the signature value is checked by the caller. */
async function checkSignature(signature: DomElement, security: DomElement, byId: ReadonlyMap<string, DomElement>, allowSha1: boolean): Promise<CheckedSignature> {
  const signedInfo = required(signature, DSIG_NS, "SignedInfo", "ds:SignedInfo");
  const c14nMethod = required(signedInfo, DSIG_NS, "CanonicalizationMethod", "ds:CanonicalizationMethod");
  if (domAttr(c14nMethod, "", "Algorithm") !== EXC_C14N) {
    refuse("UnsupportedAlgorithm", `unsupported canonicalization ${domAttr(c14nMethod, "", "Algorithm")}: only exclusive c14n is accepted`);
  }
  const methodUri = domAttr(required(signedInfo, DSIG_NS, "SignatureMethod", "ds:SignatureMethod"), "", "Algorithm") ?? "";
  const algorithm = signatureNameOf(methodUri);
  if (algorithm === undefined || (algorithm === "rsa-sha1" && !allowSha1)) refuse("UnsupportedAlgorithm", `unsupported signature method ${methodUri}`);
  const references = childElements(signedInfo).filter((c) => c.ns === DSIG_NS && c.local === "Reference");
  if (references.length === 0) refuse("InvalidSecurity", "the signature has no references");
  if (references.length > MAX_REFERENCES) refuse("InvalidSecurity", `more than ${MAX_REFERENCES} references`);
  const elements = new Set<DomElement>();
  for (const ref of references) {
    const uri = domAttr(ref, "", "URI") ?? "";
    if (!uri.startsWith("#") || uri.length === 1) refuse("UnsupportedAlgorithm", `reference ${JSON.stringify(uri)}: only same-document references by Id are accepted`);
    const target = byId.get(uri.slice(1)) ?? refuse("InvalidSecurity", `reference ${uri} names no element`);
    const transforms = only(ref, DSIG_NS, "Transforms", "ds:Transforms");
    let c14n: DomElement | undefined;
    let enveloped = false;
    for (const tr of transforms === undefined ? [] : childElements(transforms)) {
      if (c14n !== undefined) refuse("UnsupportedAlgorithm", "exclusive c14n must be the last transform");
      const alg = domAttr(tr, "", "Algorithm");
      if (alg === EXC_C14N) c14n = tr;
      else if (alg === ENVELOPED_SIGNATURE) enveloped = true;
      else refuse("UnsupportedAlgorithm", `unsupported transform ${alg}`);
    }
    if (c14n === undefined) refuse("UnsupportedAlgorithm", `reference ${uri}: exclusive c14n is required`);
    const digestUri = domAttr(required(ref, DSIG_NS, "DigestMethod", "ds:DigestMethod"), "", "Algorithm") ?? "";
    const digestName = digestNameOf(digestUri);
    if (digestName === undefined || (digestName === "sha1" && !allowSha1)) refuse("UnsupportedAlgorithm", `unsupported digest ${digestUri}`);
    let expected: Uint8Array;
    try {
      expected = base64ToBytes(ownText(required(ref, DSIG_NS, "DigestValue", "ds:DigestValue")));
    } catch {
      refuse("InvalidSecurity", `reference ${uri}: the DigestValue is not base64`);
    }
    const prefixes = inclusivePrefixes(c14n);
    const canonical = excC14n(target, { ...(prefixes ? { inclusivePrefixes: prefixes } : {}), ...(enveloped ? { exclude: signature } : {}) });
    if (!sameBytes(await digest(digestName, canonical), expected)) refuse("FailedCheck", `the digest of ${uri} does not match: the signed part was changed`);
    elements.add(target);
  }
  let value: Uint8Array;
  try {
    value = base64ToBytes(ownText(required(signature, DSIG_NS, "SignatureValue", "ds:SignatureValue")));
  } catch {
    refuse("InvalidSecurity", "the SignatureValue is not base64");
  }
  const prefixes = inclusivePrefixes(c14nMethod);
  return {
    certificate: signingCertificate(signature, security, byId),
    algorithm,
    value,
    signedInfo: excC14n(signedInfo, prefixes ? { inclusivePrefixes: prefixes } : {}),
    elements,
  };
}

/** The certificate KeyInfo points to: a BinarySecurityToken of this header by reference, or an X509Certificate. */
function signingCertificate(signature: DomElement, security: DomElement, byId: ReadonlyMap<string, DomElement>): Uint8Array {
  const keyInfo = required(signature, DSIG_NS, "KeyInfo", "ds:KeyInfo");
  const str = only(keyInfo, WSSE_NS, "SecurityTokenReference", "wsse:SecurityTokenReference");
  let base64: string;
  if (str !== undefined) {
    const ref = only(str, WSSE_NS, "Reference", "wsse:Reference") ?? refuse("UnsupportedSecurityToken", "only a SecurityTokenReference by wsse:Reference is supported");
    const uri = domAttr(ref, "", "URI") ?? "";
    const token = uri.startsWith("#") ? byId.get(uri.slice(1)) : undefined;
    if (token === undefined || token.parent !== security || token.ns !== WSSE_NS || token.local !== "BinarySecurityToken") {
      refuse("SecurityTokenUnavailable", `the token ${JSON.stringify(uri)} is not a BinarySecurityToken of this Security header`);
    }
    const valueType = domAttr(token, "", "ValueType");
    if (valueType !== X509V3) refuse("UnsupportedSecurityToken", `unsupported token type ${valueType}`);
    const encoding = domAttr(token, "", "EncodingType");
    if (encoding !== undefined && encoding !== BASE64_BINARY) refuse("UnsupportedSecurityToken", `unsupported token encoding ${encoding}`);
    base64 = ownText(token);
  } else {
    const data = only(keyInfo, DSIG_NS, "X509Data", "ds:X509Data") ?? refuse("UnsupportedSecurityToken", "KeyInfo names no certificate");
    base64 = ownText(required(data, DSIG_NS, "X509Certificate", "ds:X509Certificate"));
  }
  try {
    const der = base64ToBytes(base64);
    readCertificate(der);
    return der;
  } catch {
    return refuse("InvalidSecurityToken", "the token is not an X.509 certificate");
  }
}
