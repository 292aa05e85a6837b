/**
 * The client side of WS-Security 1.0/1.1: `wsSecurity(options)` gives a SoapClientOptions `security` value that
 * writes a wsse:Security header (Timestamp, UsernameToken with PasswordText or PasswordDigest, X.509
 * BinarySecurityToken) and signs the Body and the Timestamp (by wsu:Id) with exclusive c14n and RSA-SHA256 (or
 * SHA-1), KeyInfo a SecurityTokenReference to the token. WebCrypto only, so it runs wherever the client runs.
 */
import { SOAP11_NS, SOAP12_NS, type SoapVersion } from "../envelope.js";
import { escapeAttribute, escapeText } from "../../xml/escape.js";
import { bytesToBase64 } from "./base64.js";
import { excC14n } from "./c14n.js";
import {
  certificateDer,
  digest,
  DIGEST_URIS,
  DSIG_NS,
  EXC_C14N,
  importSigningKey,
  randomBytes,
  rsaSign,
  SIGNATURE_URIS,
  type DigestName,
  type SignatureName,
} from "./crypto.js";
import { allElements, domAttr, parseDom, type DomElement } from "./dom.js";
import { BASE64_BINARY, PASSWORD_DIGEST, PASSWORD_TEXT, utcTime, WSSE_NS, WSU_NS, X509V3 } from "./names.js";

/** The outgoing envelope's parts, before anything is written: what a SoapEnvelopeSecurity turns into the envelope. */
export interface SoapEnvelopeParts {
  readonly version: SoapVersion;
  /** The encoded SOAP header elements of the call. */
  readonly headers: readonly string[];
  /** The encoded body element. */
  readonly body: string;
}

/** An envelope-level security mechanism: writes the whole envelope (adding headers, signing). */
export interface SoapEnvelopeSecurity {
  secureEnvelope(parts: SoapEnvelopeParts): Promise<string>;
}

export interface WsUsernameTokenOptions {
  readonly username: string;
  readonly password: string;
  /** "text" (PasswordText, the default) or "digest" (PasswordDigest: Base64(SHA-1(nonce + created + password))). */
  readonly passwordType?: "text" | "digest";
  /** Send a wsse:Nonce (always sent with a digest; default false for text). */
  readonly nonce?: boolean;
  /** Send wsu:Created (always sent with a digest; default true). */
  readonly created?: boolean;
}

export interface WsSignatureOptions {
  /** The signing key: unencrypted PKCS#8 PEM ("BEGIN PRIVATE KEY"), or a WebCrypto RSASSA-PKCS1-v1_5 key. */
  readonly privateKey: string | CryptoKey;
  /** The certificate of that key (PEM or DER), sent as a BinarySecurityToken. */
  readonly certificate: string | Uint8Array;
  /** Default "rsa-sha256"; "rsa-sha1" for services that still require it. */
  readonly algorithm?: SignatureName;
  /** Reference digest; default "sha256". */
  readonly digest?: DigestName;
  /** What is signed, by wsu:Id: default the Body and the Timestamp. */
  readonly parts?: readonly ("Body" | "Timestamp" | "UsernameToken" | "BinarySecurityToken")[];
}

export interface WsSecurityOptions {
  readonly usernameToken?: WsUsernameTokenOptions;
  /** Add a wsu:Timestamp (default true), valid for `ttlSeconds` (default 300). */
  readonly timestamp?: boolean | { readonly ttlSeconds?: number };
  readonly signature?: WsSignatureOptions;
  /** Mark the Security header mustUnderstand (default true). */
  readonly mustUnderstand?: boolean;
  /** The actor (SOAP 1.1) / role (SOAP 1.2) the header is meant for; default none (the ultimate receiver). */
  readonly actor?: string;
  /** The clock (milliseconds since the epoch), for tests; default Date.now. */
  readonly now?: () => number;
}

function hexId(prefix: string): string {
  let out = prefix;
  for (const b of randomBytes(12)) out += b.toString(16).padStart(2, "0");
  return out;
}

async function passwordDigest(nonce: Uint8Array, created: string, password: string): Promise<string> {
  const tail = new TextEncoder().encode(created + password);
  const all = new Uint8Array(nonce.length + tail.length);
  all.set(nonce);
  all.set(tail, nonce.length);
  return bytesToBase64(await digest("sha1", all));
}

/** The UsernameToken element (in a wsse/wsu scope), with a fresh nonce when one is sent. */
export async function usernameTokenXml(options: WsUsernameTokenOptions, created: string, id?: string): Promise<string> {
  const isDigest = options.passwordType === "digest";
  const nonce = isDigest || options.nonce === true ? randomBytes(16) : undefined;
  const password = isDigest
    ? `<wsse:Password Type="${PASSWORD_DIGEST}">${await passwordDigest(nonce!, created, options.password)}</wsse:Password>`
    : `<wsse:Password Type="${PASSWORD_TEXT}">${escapeText(options.password)}</wsse:Password>`;
  return (
    `<wsse:UsernameToken${id === undefined ? "" : ` wsu:Id="${id}"`}><wsse:Username>${escapeText(options.username)}</wsse:Username>` +
    password +
    (nonce === undefined ? "" : `<wsse:Nonce EncodingType="${BASE64_BINARY}">${bytesToBase64(nonce)}</wsse:Nonce>`) +
    (isDigest || options.created !== false ? `<wsu:Created>${created}</wsu:Created>` : "") +
    `</wsse:UsernameToken>`
  );
}

/** A `security` value for SoapClientOptions: WS-Security as `options` says, on every call of the client. */
export function wsSecurity(options: WsSecurityOptions): SoapEnvelopeSecurity {
  const sig = options.signature;
  const algorithm: SignatureName = sig?.algorithm ?? "rsa-sha256";
  const digestName: DigestName = sig?.digest ?? "sha256";
  if (sig !== undefined && !(algorithm in SIGNATURE_URIS)) throw new TypeError(`unsupported signature algorithm ${algorithm}`);
  if (sig !== undefined && !(digestName in DIGEST_URIS)) throw new TypeError(`unsupported digest ${digestName}`);
  const certBase64 = sig === undefined ? "" : bytesToBase64(certificateDer(sig.certificate));
  let key: Promise<CryptoKey> | undefined;
  const ttl = typeof options.timestamp === "object" ? (options.timestamp.ttlSeconds ?? 300) : 300;
  const withTimestamp = options.timestamp !== false;
  const parts = new Set(sig?.parts ?? ["Body", "Timestamp"]);
  const now = options.now ?? Date.now;
  return {
    async secureEnvelope(input) {
      const env = input.version === "1.2" ? SOAP12_NS : SOAP11_NS;
      const t = now();
      const created = utcTime(t);
      const ids = { ts: hexId("TS-"), body: hexId("id-"), ut: hexId("UsernameToken-"), bst: hexId("X509-") };
      let security = "";
      if (withTimestamp) security += `<wsu:Timestamp wsu:Id="${ids.ts}"><wsu:Created>${created}</wsu:Created><wsu:Expires>${utcTime(t + ttl * 1000)}</wsu:Expires></wsu:Timestamp>`;
      if (sig !== undefined) security += `<wsse:BinarySecurityToken EncodingType="${BASE64_BINARY}" ValueType="${X509V3}" wsu:Id="${ids.bst}">${certBase64}</wsse:BinarySecurityToken>`;
      if (options.usernameToken !== undefined) security += await usernameTokenXml(options.usernameToken, created, sig !== undefined ? ids.ut : undefined);
      const attrs =
        (options.mustUnderstand !== false ? ` soapenv:mustUnderstand="${input.version === "1.2" ? "true" : "1"}"` : "") +
        (options.actor !== undefined ? ` soapenv:${input.version === "1.2" ? "role" : "actor"}="${escapeAttribute(options.actor)}"` : "");
      const head = `<?xml version="1.0" encoding="UTF-8"?><soapenv:Envelope xmlns:soapenv="${env}"><soapenv:Header><wsse:Security xmlns:wsse="${WSSE_NS}" xmlns:wsu="${WSU_NS}"${attrs}>${security}`;
      const tail =
        `</wsse:Security>${input.headers.join("")}</soapenv:Header>` +
        `<soapenv:Body${sig !== undefined && parts.has("Body") ? ` xmlns:wsu="${WSU_NS}" wsu:Id="${ids.body}"` : ""}>${input.body}</soapenv:Body></soapenv:Envelope>`;
      if (sig === undefined) return head + tail;
      key ??= importSigningKey(sig.privateKey, algorithm);
      const signature = await signatureXml(head + tail, parts, withTimestamp, ids, await key, algorithm, digestName);
      return head + signature + tail;
    },
  };
}

/** The ds:Signature over the parts' elements of `envelope` (found by the ids this writer gave them). */
async function signatureXml(
  envelope: string,
  parts: ReadonlySet<string>,
  withTimestamp: boolean,
  ids: { ts: string; body: string; ut: string; bst: string },
  key: CryptoKey,
  algorithm: SignatureName,
  digestName: DigestName,
): Promise<string> {
  const wanted: string[] = [];
  if (parts.has("Timestamp") && withTimestamp) wanted.push(ids.ts);
  if (parts.has("BinarySecurityToken")) wanted.push(ids.bst);
  if (parts.has("UsernameToken")) wanted.push(ids.ut);
  if (parts.has("Body")) wanted.push(ids.body);
  const byId = new Map<string, DomElement>();
  for (const el of allElements(parseDom(envelope))) {
    const id = domAttr(el, WSU_NS, "Id");
    if (id !== undefined && wanted.includes(id)) byId.set(id, el);
  }
  let references = "";
  for (const id of wanted) {
    const el = byId.get(id);
    if (el === undefined) continue; // a part this message does not have (no UsernameToken configured)
    const value = bytesToBase64(await digest(digestName, excC14n(el)));
    references +=
      `<ds:Reference URI="#${id}"><ds:Transforms><ds:Transform Algorithm="${EXC_C14N}"></ds:Transform></ds:Transforms>` +
      `<ds:DigestMethod Algorithm="${DIGEST_URIS[digestName]}"></ds:DigestMethod><ds:DigestValue>${value}</ds:DigestValue></ds:Reference>`;
  }
  // Written canonical already (exclusive c14n of this element is this text): what is signed is what is sent.
  const signedInfo =
    `<ds:SignedInfo xmlns:ds="${DSIG_NS}"><ds:CanonicalizationMethod Algorithm="${EXC_C14N}"></ds:CanonicalizationMethod>` +
    `<ds:SignatureMethod Algorithm="${SIGNATURE_URIS[algorithm]}"></ds:SignatureMethod>${references}</ds:SignedInfo>`;
  const value = bytesToBase64(await rsaSign(key, signedInfo));
  return (
    `<ds:Signature xmlns:ds="${DSIG_NS}">${signedInfo}<ds:SignatureValue>${value}</ds:SignatureValue>` +
    `<ds:KeyInfo><wsse:SecurityTokenReference><wsse:Reference URI="#${ids.bst}" ValueType="${X509V3}"/></wsse:SecurityTokenReference></ds:KeyInfo></ds:Signature>`
  );
}
