import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";

/**
 * Throwaway RSA keys and self-signed certificates for the WS-Security tests, made by the openssl CLI in a temporary
 * folder at test time (never committed), and the xmlsec1 CLI as the independent signer and verifier.
 */
export interface TestKeys {
  readonly dir: string;
  readonly key: string;
  readonly cert: string;
  readonly keyFile: string;
  readonly certFile: string;
  /** A second pair nobody trusts. */
  readonly otherKey: string;
  readonly otherCert: string;
  readonly otherKeyFile: string;
  readonly otherCertFile: string;
  cleanup(): void;
}

function pair(dir: string, name: string): { keyFile: string; certFile: string } {
  const keyFile = path.join(dir, `${name}.key.pem`);
  const certFile = path.join(dir, `${name}.cert.pem`);
  execFileSync("openssl", ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", keyFile, "-out", certFile, "-days", "2", "-subj", `/CN=${name}`], {
    stdio: "ignore",
    timeout: 30_000,
  });
  return { keyFile, certFile };
}

export function makeTestKeys(): TestKeys {
  const dir = mkdtempSync(path.join(os.tmpdir(), "specforge-wss-"));
  const a = pair(dir, "specforge-test");
  const b = pair(dir, "untrusted");
  return {
    dir,
    key: readFileSync(a.keyFile, "utf8"),
    cert: readFileSync(a.certFile, "utf8"),
    keyFile: a.keyFile,
    certFile: a.certFile,
    otherKey: readFileSync(b.keyFile, "utf8"),
    otherCert: readFileSync(b.certFile, "utf8"),
    otherKeyFile: b.keyFile,
    otherCertFile: b.certFile,
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}

const SOAP11 = "http://schemas.xmlsoap.org/soap/envelope/";
const SOAP12 = "http://www.w3.org/2003/05/soap-envelope";
const WSU = "http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-utility-1.0.xsd";

/** xmlsec1's id attributes for a WS-Security message: wsu:Id on the Body (either SOAP version) and the Timestamp. */
const ID_ARGS = ["--id-attr:Id", `${SOAP11}:Body`, "--id-attr:Id", `${SOAP12}:Body`, "--id-attr:Id", `${WSU}:Timestamp`];

/** Run xmlsec1 --verify on `xml` with the certificate's key; returns { ok, output }. */
export function xmlsecVerify(keys: TestKeys, xml: string, certFile = keys.certFile): { ok: boolean; output: string } {
  const file = path.join(keys.dir, `verify-${Math.random().toString(36).slice(2)}.xml`);
  writeFileSync(file, xml);
  try {
    // xmlsec1 reports on stderr ("OK" and the reference counts, or the errors); the exit status says which.
    const r = spawnSync("xmlsec1", ["--verify", "--pubkey-cert-pem", certFile, ...ID_ARGS, file], { encoding: "utf8", timeout: 30_000 });
    if (r.error) throw r.error;
    return { ok: r.status === 0, output: `${r.stdout}${r.stderr}` };
  } finally {
    rmSync(file, { force: true });
  }
}

/** Have xmlsec1 fill in a signature template (DigestValues, SignatureValue, X509Certificate); `idElements` are
 * more "ns:local" elements whose Id attribute is an ID. */
export function xmlsecSign(keys: TestKeys, template: string, idElements: readonly string[] = []): string {
  const file = path.join(keys.dir, `sign-${Math.random().toString(36).slice(2)}.xml`);
  writeFileSync(file, template);
  try {
    return execFileSync("xmlsec1", ["--sign", "--privkey-pem", `${keys.keyFile},${keys.certFile}`, ...ID_ARGS, ...idElements.flatMap((e) => ["--id-attr:Id", e]), file], { encoding: "utf8", timeout: 30_000 });
  } finally {
    rmSync(file, { force: true });
  }
}

/** The base64 DER of a PEM certificate (what a BinarySecurityToken carries). */
export function certBase64(pem: string): string {
  return pem.replace(/-----(BEGIN|END) CERTIFICATE-----/g, "").replace(/\s+/g, "");
}
