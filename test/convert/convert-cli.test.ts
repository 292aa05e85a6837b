import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { REPO } from "../helpers/seeds.js";

/**
 * `specforge convert` through the built bin (`npm test` builds first), the way users call it: stdin to stdout.
 * A private cache folder makes the first call exercise the transpile path and keeps /tmp clean.
 */
const BIN = path.join(REPO, "bin", "specforge.js");
const DATA = path.resolve(REPO, "..", "shared", "corpus", "data");
const cache = mkdtempSync(path.join(tmpdir(), "specforge-convert-test-"));
afterAll(() => rmSync(cache, { recursive: true, force: true }));
const env = { ...process.env, SPECFORGE_CACHE_DIR: cache };

function convert(args: string[], input: string | Buffer): { code: number | null; out: Buffer; err: string } {
  const r = spawnSync(process.execPath, [BIN, "convert", ...args], { cwd: REPO, input, env, timeout: 60_000, maxBuffer: 64 << 20 });
  return { code: r.status, out: r.stdout, err: r.stderr.toString() };
}

/** A failure is one message that says where, exit 1, and never a stack trace. */
function expectPayloadError(r: ReturnType<typeof convert>, where: RegExp): void {
  expect(r.code).toBe(1);
  expect(r.err).toMatch(where);
  expect(r.err).not.toMatch(/^\s+at /m);
  expect(r.out.length).toBe(0);
}

const PROTO = ["specs/content.proto", "--type", "contentApi.Response"];

describe("specforge convert: protobuf", () => {
  for (const file of ["spinn3r_test2.protobuf", "spinn3r_test3.protobuf"]) {
    it(`${file}: binary -> json | json -> binary gives the same bytes`, () => {
      const payload = path.join(DATA, file);
      // Exactly the documented pipeline, through a shell pipe.
      const script = `set -o pipefail; "$NODE" "$BIN" convert ${PROTO.join(" ")} --from binary --to json < "$IN" | "$NODE" "$BIN" convert ${PROTO.join(" ")} --from json --to binary`;
      const r = spawnSync("bash", ["-c", script], {
        cwd: REPO,
        env: { ...env, NODE: process.execPath, BIN, IN: payload },
        maxBuffer: 64 << 20,
        timeout: 60_000,
      });
      expect(r.stderr.toString()).toBe("");
      expect(r.status).toBe(0);
      expect(Buffer.compare(r.stdout, readFileSync(payload))).toBe(0);
    });
  }

  it("--to text prints what protoc --decode prints; --from text reads it back to the same bytes", () => {
    const bytes = readFileSync(path.join(DATA, "spinn3r_test3.protobuf"));
    const r = convert([...PROTO, "--from", "binary", "--to", "text"], bytes);
    expect(r.err).toBe("");
    expect(r.code).toBe(0);
    const protoc = spawnSync("protoc", ["-Ispecs", "--decode=contentApi.Response", "content.proto"], { cwd: REPO, input: bytes, maxBuffer: 64 << 20 });
    expect(r.out.toString()).toBe(protoc.stdout.toString());
    const back = convert([...PROTO, "--from", "text", "--to", "binary"], r.out);
    expect(back.code).toBe(0);
    expect(Buffer.compare(back.out, bytes)).toBe(0);
  });

  it("bad text input names the line and column", () => {
    expectPayloadError(convert([...PROTO, "--from", "text", "--to", "json"], "next_request_url: 1\n"), /^contentApi\.Response: cannot read the text input: 1:19: expected a string, got "1"$/m);
  });

  it("writes ProtoJSON with json names", () => {
    const r = convert([...PROTO, "--from", "binary", "--to", "json"], readFileSync(path.join(DATA, "spinn3r_test2.protobuf")));
    expect(r.code).toBe(0);
    const json = JSON.parse(r.out.toString()) as { nextRequestUrl?: string; entry?: unknown[] };
    expect(json.nextRequestUrl).toMatch(/^http:\/\/api\.spinn3r\.com\//);
    expect(json.entry?.length).toBeGreaterThan(0);
  });

  it("accepts the TS name and the name inside the package", () => {
    const bytes = readFileSync(path.join(DATA, "spinn3r_test3.protobuf"));
    const a = convert(["specs/content.proto", "--type", "Response$", "--from", "binary", "--to", "json"], bytes);
    const b = convert(["specs/content.proto", "--type", ".contentApi.Response", "--from", "binary", "--to", "json"], bytes);
    expect(a.code).toBe(0);
    expect(b.out.equals(a.out)).toBe(true);
  });

  it("a truncated payload names the field path and the byte offset", () => {
    const r = convert([...PROTO, "--from", "binary", "--to", "json"], readFileSync(path.join(DATA, "spinn3r_test2.protobuf")).subarray(0, 5000));
    expectPayloadError(r, /^contentApi\.Response: cannot read the binary input: Response\.entry\[\d+\].*\(at byte \d+\)$/m);
  });

  it("a JSON value of the wrong type names its JSON pointer", () => {
    const r = convert([...PROTO, "--from", "json", "--to", "binary"], '{"entry":[{"source":{"title":5}}]}');
    expectPayloadError(r, /\/entry\/0\/source\/title: expected a string/);
  });

  it("malformed JSON names line and column", () => {
    const r = convert([...PROTO, "--from", "json", "--to", "binary"], '{\n  "entry": [,]\n}');
    expectPayloadError(r, /line 2/);
  });
});

describe("specforge convert: OpenAPI JSON and XML", () => {
  it("OpenAPI: decodes and re-encodes with the generated JSON serializer", () => {
    const r = convert(["specs/webhooks.openapi.yaml", "--type", "Webhook", "--from", "json", "--to", "json"], '{ "id": 7 }');
    expect(r.err).toBe("");
    expect(r.out.toString()).toBe('{"id":7}\n');
  });

  it("OpenAPI: an invalid value is reported with its path", () => {
    const r = convert(["specs/webhooks.openapi.yaml", "--type", "Webhook", "--from", "json", "--to", "json"], '{ "id": "seven" }');
    expectPayloadError(r, /^Webhook: cannot read the json input: \/id: /m);
  });

  const LOGIN = '<login xmlns="urn:partner.api.example"><username>a</username><password>b</password></login>';
  it("XML: an element by local name or {ns}local round-trips through the generated codec", () => {
    for (const type of ["login", "{urn:partner.api.example}login"]) {
      const r = convert(["specs/partner.wsdl", "--type", type, "--from", "xml", "--to", "xml"], LOGIN);
      expect(r.err).toBe("");
      expect(r.out.toString()).toMatch(/<ns1:login [^>]*><ns1:username>a<\/ns1:username><ns1:password>b<\/ns1:password><\/ns1:login>\n$/);
    }
  });

  it("XML: a missing required element is an error naming it", () => {
    const r = convert(["specs/partner.wsdl", "--type", "login", "--from", "xml", "--to", "xml"], LOGIN.replace(/<password>b<\/password>/, ""));
    expectPayloadError(r, /\{urn:partner\.api\.example\}login: cannot read the xml input: \/: required element password is missing/);
  });

  it("--validate runs the generated validator and lists every issue", () => {
    const xml = '<retrieve xmlns="urn:partner.api.example"><fieldList>Id</fieldList><sObjectType>Account</sObjectType><ids>short</ids></retrieve>';
    const args = ["specs/partner.wsdl", "--type", "retrieve", "--from", "xml", "--to", "xml"];
    expect(convert(args, xml).code).toBe(0);
    const r = convert([...args, "--validate"], xml);
    expectPayloadError(r, /2 issue\(s\)/);
    expect(r.err).toContain("/ids/0: length must be 18");
    expect(r.err).toContain("/ids/0: must match the pattern");
  });
});

describe("specforge convert: usage errors", () => {
  it("an unknown type lists the known ones", () => {
    const r = convert(["specs/content.proto", "--type", "Respons", "--from", "json", "--to", "binary"], "{}");
    expectPayloadError(r, /--type Respons: no such type in the spec \(did you mean: contentApi\.Response/);
  });

  it("a form the spec has no codec for is refused", () => {
    const r = convert(["specs/webhooks.openapi.yaml", "--type", "Webhook", "--from", "json", "--to", "binary"], "{}");
    expectPayloadError(r, /--to binary: an OpenAPI spec converts between json only/);
  });

  it("an unknown form is a commander usage error (exit 2)", () => {
    const r = convert([...PROTO, "--from", "yaml", "--to", "json"], "{}");
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/Allowed choices are binary, json, xml/);
  });
});
