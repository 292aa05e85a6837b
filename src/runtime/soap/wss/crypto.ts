/**
 * The cryptography WS-Security needs, on WebCrypto only (`globalThis.crypto`: browsers, Node 20+, Deno, Bun, workers):
 * digests, RSA PKCS#1 v1.5 signatures, PEM and the few fields of an X.509 certificate a verifier reads (its public
 * key and validity), found with a small DER walker rather than a certificate library.
 */
import { base64ToBytes, bytesToBase64 } from "./base64.js";

export const DSIG_NS = "http://www.w3.org/2000/09/xmldsig#";
export const EXC_C14N = "http://www.w3.org/2001/10/xml-exc-c14n#";
export const ENVELOPED_SIGNATURE = "http://www.w3.org/2000/09/xmldsig#enveloped-signature";

export type DigestName = "sha1" | "sha256" | "sha512";
export type SignatureName = "rsa-sha1" | "rsa-sha256" | "rsa-sha512";

export const DIGEST_URIS: Readonly<Record<DigestName, string>> = {
  sha1: "http://www.w3.org/2000/09/xmldsig#sha1",
  sha256: "http://www.w3.org/2001/04/xmlenc#sha256",
  sha512: "http://www.w3.org/2001/04/xmlenc#sha512",
};

export const SIGNATURE_URIS: Readonly<Record<SignatureName, string>> = {
  "rsa-sha1": "http://www.w3.org/2000/09/xmldsig#rsa-sha1",
  "rsa-sha256": "http://www.w3.org/2001/04/xmldsig-more#rsa-sha256",
  "rsa-sha512": "http://www.w3.org/2001/04/xmldsig-more#rsa-sha512",
};

const WEB_HASH: Readonly<Record<DigestName, string>> = { sha1: "SHA-1", sha256: "SHA-256", sha512: "SHA-512" };

export function digestNameOf(uri: string): DigestName | undefined {
  for (const name of Object.keys(DIGEST_URIS) as DigestName[]) if (DIGEST_URIS[name] === uri) return name;
  return undefined;
}

export function signatureNameOf(uri: string): SignatureName | undefined {
  for (const name of Object.keys(SIGNATURE_URIS) as SignatureName[]) if (SIGNATURE_URIS[name] === uri) return name;
  return undefined;
}

function subtle(): SubtleCrypto {
  const c = globalThis.crypto;
  if (c?.subtle === undefined) throw new Error("WS-Security needs WebCrypto (globalThis.crypto.subtle)");
  return c.subtle;
}

const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text);

export async function digest(name: DigestName, data: string | Uint8Array): Promise<Uint8Array> {
  return new Uint8Array(await subtle().digest(WEB_HASH[name], (typeof data === "string" ? utf8(data) : data) as BufferSource));
}

export async function digestBase64(name: DigestName, data: string | Uint8Array): Promise<string> {
  return bytesToBase64(await digest(name, data));
}

export function randomBytes(n: number): Uint8Array {
  return globalThis.crypto.getRandomValues(new Uint8Array(n));
}

/** A hash of the signature algorithm for RSASSA-PKCS1-v1_5. */
function rsaParams(name: SignatureName): RsaHashedImportParams {
  return { name: "RSASSA-PKCS1-v1_5", hash: WEB_HASH[name === "rsa-sha1" ? "sha1" : name === "rsa-sha512" ? "sha512" : "sha256"] };
}

/** The DER bytes of the first PEM block labelled `label` (or of any block when label is omitted). */
export function pemToDer(pem: string, label?: string): Uint8Array {
  const re = /-----BEGIN ([A-Z0-9 ]+)-----([\s\S]*?)-----END \1-----/g;
  for (let m = re.exec(pem); m !== null; m = re.exec(pem)) {
    if (label === undefined || m[1] === label) return base64ToBytes(m[2]!.replace(/\s+/g, ""));
  }
  throw new TypeError(`no PEM ${label ?? ""} block found`.replace("  ", " "));
}

/** A certificate given as PEM text or DER bytes, as DER. */
export function certificateDer(cert: string | Uint8Array): Uint8Array {
  return typeof cert === "string" ? pemToDer(cert, "CERTIFICATE") : cert;
}

/** Import a PKCS#8 private key (PEM "PRIVATE KEY"); a CryptoKey is used as it is. */
export async function importSigningKey(key: string | CryptoKey, algorithm: SignatureName): Promise<CryptoKey> {
  if (typeof key !== "string") return key;
  if (/-----BEGIN (RSA |ENCRYPTED )PRIVATE KEY-----/.test(key)) {
    throw new TypeError("the private key must be an unencrypted PKCS#8 PEM (BEGIN PRIVATE KEY); convert it with `openssl pkcs8 -topk8 -nocrypt`");
  }
  return subtle().importKey("pkcs8", pemToDer(key, "PRIVATE KEY") as BufferSource, rsaParams(algorithm), false, ["sign"]);
}

export async function rsaSign(key: CryptoKey, data: string): Promise<Uint8Array> {
  return new Uint8Array(await subtle().sign("RSASSA-PKCS1-v1_5", key, utf8(data) as BufferSource));
}

export async function rsaVerify(spki: Uint8Array, algorithm: SignatureName, signature: Uint8Array, data: string): Promise<boolean> {
  let key: CryptoKey;
  try {
    key = await subtle().importKey("spki", spki as BufferSource, rsaParams(algorithm), false, ["verify"]);
  } catch {
    return false;
  }
  return subtle().verify("RSASSA-PKCS1-v1_5", key, signature as BufferSource, utf8(data) as BufferSource);
}

/** Equal bytes, compared without an early exit. */
export function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a[i]! ^ b[i]!;
  return diff === 0;
}

interface Tlv {
  readonly tag: number;
  /** Offset of the tag byte, of the contents, and just past the contents. */
  readonly at: number;
  readonly body: number;
  readonly end: number;
}

function tlv(der: Uint8Array, at: number, limit: number): Tlv {
  if (at + 2 > limit) throw new TypeError("truncated DER");
  const tag = der[at]!;
  let len = der[at + 1]!;
  let body = at + 2;
  if (len & 0x80) {
    const n = len & 0x7f;
    if (n === 0 || n > 4 || body + n > limit) throw new TypeError("bad DER length");
    len = 0;
    for (let i = 0; i < n; i++) len = len * 256 + der[body + i]!;
    body += n;
  }
  if (body + len > limit) throw new TypeError("truncated DER");
  return { tag, at, body, end: body + len };
}

function children(der: Uint8Array, parent: Tlv): Tlv[] {
  const out: Tlv[] = [];
  for (let at = parent.body; at < parent.end; ) {
    const t = tlv(der, at, parent.end);
    out.push(t);
    at = t.end;
  }
  return out;
}

export interface CertificateInfo {
  /** SubjectPublicKeyInfo, DER: what WebCrypto imports as "spki". */
  readonly spki: Uint8Array;
  readonly notBefore: number;
  readonly notAfter: number;
}

/** The public key and validity of a DER X.509 certificate. Throws TypeError on anything that is not one. */
export function readCertificate(der: Uint8Array): CertificateInfo {
  const cert = tlv(der, 0, der.length);
  if (cert.tag !== 0x30 || cert.end !== der.length) throw new TypeError("not a DER certificate");
  const tbs = children(der, cert)[0];
  if (tbs?.tag !== 0x30) throw new TypeError("not a DER certificate");
  const fields = children(der, tbs);
  const i = fields[0]?.tag === 0xa0 ? 1 : 0; // [0] version
  const validity = fields[i + 3];
  const spki = fields[i + 5];
  if (validity?.tag !== 0x30 || spki?.tag !== 0x30) throw new TypeError("not a DER certificate");
  const [from, to] = children(der, validity);
  if (from === undefined || to === undefined) throw new TypeError("not a DER certificate");
  return { spki: der.slice(spki.at, spki.end), notBefore: derTime(der, from), notAfter: derTime(der, to) };
}

function derTime(der: Uint8Array, t: Tlv): number {
  const text = new TextDecoder().decode(der.subarray(t.body, t.end));
  const m = (t.tag === 0x17 ? /^(\d\d)(\d\d)(\d\d)(\d\d)(\d\d)(\d\d)Z$/ : /^(\d{4})(\d\d)(\d\d)(\d\d)(\d\d)(\d\d)Z$/).exec(text);
  if (m === null || (t.tag !== 0x17 && t.tag !== 0x18)) throw new TypeError("bad certificate time");
  let year = Number(m[1]);
  if (t.tag === 0x17) year += year >= 50 ? 1900 : 2000;
  return Date.UTC(year, Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5]), Number(m[6]));
}
