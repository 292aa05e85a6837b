import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { convertPayload } from "../../../src/convert/convert.js";
import { memorySpecHost, nodeSpecHost } from "../../../src/parsers/host.js";
import { XmlCatalog } from "../../../src/parsers/xml/catalog.js";
import { generateSpec } from "../../../src/pipeline/generate-files.js";
import { loadSpec } from "../../../src/pipeline/load-spec.js";
import { SHARED } from "../../helpers/seeds.js";
import { typecheckFiles } from "../../helpers/typecheck.js";
import { runCli } from "../../helpers/run-cli.js";

/**
 * XML catalogs map the locations a WSDL's schemas import to local files. ONVIF is the real case (corpus README): its
 * WSDL imports "../../../ver10/schema/onvif.xsd" (the folder layout of onvif.org, not of any copy) and its schemas
 * import from www.w3.org and docs.oasis-open.org over http. The catalog below is the one a user would write: the
 * OASIS schemas that are in the corpus are mapped there, the W3C ones to small local stand-ins (this test's own,
 * written next to the catalog). libxml2 reads the same catalog (xmlcatalog, xmllint with XML_CATALOG_FILES).
 */
const ONVIF = path.join(SHARED, "corpus/wsdl/onvif");
const tmp = mkdtempSync(path.join(os.tmpdir(), "specforge-catalog-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const STAND_INS: Record<string, string> = {
  "w3c/xmlmime.xsd": `<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" targetNamespace="http://www.w3.org/2005/05/xmlmime">
  <xs:attribute name="contentType"><xs:simpleType><xs:restriction base="xs:string"><xs:minLength value="3"/></xs:restriction></xs:simpleType></xs:attribute>
</xs:schema>`,
  "w3c/soap-envelope.xsd": `<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:tns="http://www.w3.org/2003/05/soap-envelope" targetNamespace="http://www.w3.org/2003/05/soap-envelope" elementFormDefault="qualified">
  <xs:complexType name="Envelope"><xs:sequence><xs:any namespace="##any" processContents="lax" minOccurs="0" maxOccurs="unbounded"/></xs:sequence></xs:complexType>
  <xs:element name="Envelope" type="tns:Envelope"/>
  <xs:complexType name="Fault"><xs:sequence><xs:element name="Reason" type="xs:string"/></xs:sequence></xs:complexType>
  <xs:element name="Fault" type="tns:Fault"/>
</xs:schema>`,
  "w3c/xop.xsd": `<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" targetNamespace="http://www.w3.org/2004/08/xop/include">
  <xs:element name="Include"><xs:complexType><xs:attribute name="href" type="xs:anyURI" use="required"/></xs:complexType></xs:element>
</xs:schema>`,
  "w3c/ws-addr.xsd": `<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:tns="http://www.w3.org/2005/08/addressing" targetNamespace="http://www.w3.org/2005/08/addressing" elementFormDefault="qualified">
  <xs:complexType name="EndpointReferenceType"><xs:sequence><xs:element name="Address" type="xs:anyURI"/><xs:any namespace="##other" processContents="lax" minOccurs="0" maxOccurs="unbounded"/></xs:sequence></xs:complexType>
  <xs:element name="EndpointReference" type="tns:EndpointReferenceType"/>
</xs:schema>`,
  "w3c/xml.xsd": `<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" targetNamespace="http://www.w3.org/XML/1998/namespace">
  <xs:attribute name="lang" type="xs:language"/>
</xs:schema>`,
};
for (const [rel, text] of Object.entries(STAND_INS)) {
  mkdirSync(path.dirname(path.join(tmp, rel)), { recursive: true });
  writeFileSync(path.join(tmp, rel), `<?xml version="1.0" encoding="UTF-8"?>\n${text}\n`);
}

/** Where devicemgmt.wsdl's relative import points (a folder no copy of ONVIF's files has), as libxml2 spells it. */
const MISSING_ONVIF_FOLDER = path.resolve(ONVIF, "../../../ver10/schema") + "/";
const onvifUrl = pathToFileURL(ONVIF).href + "/";

const CATALOG = path.join(tmp, "catalog.xml");
writeFileSync(
  CATALOG,
  `<?xml version="1.0"?>
<!DOCTYPE catalog PUBLIC "-//OASIS//DTD XML Catalogs V1.1//EN" "http://www.oasis-open.org/committees/entity/release/1.1/catalog.dtd">
<catalog xmlns="urn:oasis:names:tc:entity:xmlns:xml:catalog" prefer="system">
  <!-- ONVIF's own layout: ver10/schema/ is where the corpus keeps the files. -->
  <rewriteURI uriStartString="${MISSING_ONVIF_FOLDER}" rewritePrefix="${onvifUrl}"/>
  <rewriteURI uriStartString="http://docs.oasis-open.org/wsn/" rewritePrefix="${onvifUrl}"/>
  <rewriteSystem systemIdStartString="http://docs.oasis-open.org/wsrf/" rewritePrefix="${onvifUrl}"/>
  <uri name="http://www.w3.org/2005/05/xmlmime" uri="w3c/xmlmime.xsd"/>
  <system systemId="http://www.w3.org/2003/05/soap-envelope" uri="w3c/soap-envelope.xsd"/>
  <group xml:base="w3c/">
    <uri name="http://www.w3.org/2001/xml.xsd" uri="xml.xsd"/>
  </group>
  <nextCatalog catalog="more/catalog.xml"/>
</catalog>
`,
);
mkdirSync(path.join(tmp, "more"));
writeFileSync(
  path.join(tmp, "more/catalog.xml"),
  `<catalog xmlns="urn:oasis:names:tc:entity:xmlns:xml:catalog">
  <uri name="http://www.w3.org/2004/08/xop/include" uri="../w3c/xop.xsd"/>
  <rewriteURI uriStartString="http://www.w3.org/2005/08/addressing/" rewritePrefix="../w3c/"/>
</catalog>
`,
);

/** Every location the ONVIF files import that is remote or missing: what the catalog must answer. */
const LOCATIONS = [
  `${MISSING_ONVIF_FOLDER}onvif.xsd`,
  "http://www.w3.org/2005/05/xmlmime",
  "http://www.w3.org/2003/05/soap-envelope",
  "http://docs.oasis-open.org/wsn/b-2.xsd",
  "http://www.w3.org/2004/08/xop/include",
  "http://www.w3.org/2005/08/addressing/ws-addr.xsd",
  "http://docs.oasis-open.org/wsrf/bf-2.xsd",
  "http://docs.oasis-open.org/wsn/t-1.xsd",
  "http://www.w3.org/2001/xml.xsd",
];

const hasTool = (tool: string) => spawnSync(tool, ["--version"], { timeout: 10_000 }).error === undefined;

describe("XML catalogs: ONVIF device management", () => {
  it("generates with the catalog, reading the corpus schemas and the stand-ins it maps to; client and server type-check strict", () => {
    const out = generateSpec({ file: path.join(ONVIF, "devicemgmt.wsdl"), display: "devicemgmt.wsdl" }, nodeSpecHost({ catalog: CATALOG }));
    expect(out.doc.files).toEqual([
      "devicemgmt.wsdl",
      "onvif.xsd",
      "common.xsd",
      path.relative(ONVIF, path.join(tmp, "w3c/xmlmime.xsd")),
      path.relative(ONVIF, path.join(tmp, "w3c/soap-envelope.xsd")),
      "b-2.xsd",
      path.relative(ONVIF, path.join(tmp, "w3c/xop.xsd")),
      path.relative(ONVIF, path.join(tmp, "w3c/ws-addr.xsd")),
      "bf-2.xsd",
      "t-1.xsd",
    ]);
    expect(out.doc.services.map((s) => [s.name, s.kind === "rpc" ? s.methods.length : s.operations.length])).toEqual([["Device", 90]]);
    // t-1.xsd's xs:unique constraints (WS-Topics) reach the WSDL's document too, so xml.ts checks them on decode.
    expect(out.doc.identityConstraints?.map((c) => `${c.kind} ${c.name.local} on ${c.element.local}`)).toEqual([
      "unique rootTopicUniqueness on TopicNamespace",
      "unique childTopicUniqueness on Topic",
    ]);
    expect(out.files.find((f) => f.path === "devicemgmt/xml.ts")!.content).toContain(`"unique", "{http://docs.oasis-open.org/wsn/t-1}rootTopicUniqueness"`);
    const files = new Map(out.files.filter((f) => f.path.endsWith(".ts")).map((f) => [f.path, f.content]));
    expect([...files.keys()].sort()).toEqual(["devicemgmt/client.ts", "devicemgmt/index.ts", "devicemgmt/server.ts", "devicemgmt/types.ts", "devicemgmt/validate.ts", "devicemgmt/xml.ts"]);
    expect(typecheckFiles(files)).toEqual([]);
  }, 120_000);

  it("without a catalog, the first remote import is an error naming the location and how to map it", () => {
    // The schema alone (its WSDL's relative import is a missing file, reported as such).
    expect(() => loadSpec(path.join(ONVIF, "onvif.xsd"), nodeSpecHost({ cwd: ONVIF }))).toThrow(
      `onvif.xsd:13:2: schema import 'http://www.w3.org/2005/05/xmlmime' is remote and specforge never fetches: map it to a local copy with an XML catalog (--catalog <file>, or "catalog" in specforge.config.json), e.g. <uri name="http://www.w3.org/2005/05/xmlmime" uri="local/copy.xsd"/>`,
    );
  });

  it("a catalog that leaves a location out says so, with the catalog's name", () => {
    const partial = path.join(tmp, "partial.xml");
    writeFileSync(partial, `<catalog xmlns="urn:oasis:names:tc:entity:xmlns:xml:catalog"><uri name="http://www.w3.org/2005/05/xmlmime" uri="w3c/xmlmime.xsd"/></catalog>`);
    expect(() => loadSpec(path.join(ONVIF, "onvif.xsd"), nodeSpecHost({ cwd: ONVIF, catalog: partial }))).toThrow(
      `onvif.xsd:14:2: schema import 'http://www.w3.org/2003/05/soap-envelope' is remote and the XML catalog ${partial} does not map it (specforge never fetches)`,
    );
  });

  it.skipIf(!hasTool("xmlcatalog"))("resolves every location as libxml2's xmlcatalog does with the same catalog", () => {
    const ours = new XmlCatalog(nodeSpecHost(), CATALOG);
    for (const location of LOCATIONS) {
      const res = spawnSync("xmlcatalog", [CATALOG, location], { encoding: "utf8", timeout: 10_000 });
      expect(res.status, `${location}: ${res.stdout}${res.stderr}`).toBe(0);
      const line = res.stdout.trim().split("\n").at(-1)!;
      const theirs = line.startsWith("file:") ? new URL(line).pathname : line;
      expect({ location, resolved: ours.resolve(location) }).toEqual({ location, resolved: path.normalize(decodeURIComponent(theirs)) });
    }
    expect(ours.resolve("http://example.com/unmapped.xsd")).toBeUndefined();
    expect(spawnSync("xmlcatalog", [CATALOG, "http://example.com/unmapped.xsd"], { timeout: 10_000 }).status).not.toBe(0);
  });

  it.skipIf(!hasTool("xmllint"))("what the generated codecs write for a WS-Notification element is valid for xmllint reading the schemas through the same catalog", async () => {
    // devicemgmt's own schemas do not compile in libxml2 (onvif.xsd:536 "content model is not determinist"), so the
    // cross-check uses b-2.xsd, whose imports (WS-Addressing, WSRF, topics, xml.xsd) all go through the catalog.
    const out = generateSpec({ file: path.join(ONVIF, "b-2.xsd"), display: "b-2.xsd" }, nodeSpecHost({ catalog: CATALOG }));
    const dir = path.join(tmp, "gen");
    for (const f of out.files) {
      mkdirSync(path.dirname(path.join(dir, f.path)), { recursive: true });
      writeFileSync(path.join(dir, f.path), f.content);
    }
    const xml = (await import(pathToFileURL(path.join(dir, out.dir, "xml.ts")).href)) as Record<string, (v: unknown) => string>;
    const subscribe = xml.encodeSubscribeElement!({ ConsumerReference: { Address: "http://camera.local/events" }, InitialTerminationTime: "PT1H" });
    const doc = path.join(tmp, "subscribe.xml");
    writeFileSync(doc, subscribe);
    const lint = (env: NodeJS.ProcessEnv) => spawnSync("xmllint", ["--nonet", "--noout", "--schema", path.join(ONVIF, "b-2.xsd"), doc], { encoding: "utf8", timeout: 60_000, env });
    const withCatalog = lint({ ...process.env, XML_CATALOG_FILES: CATALOG });
    expect(withCatalog.stderr).toContain("subscribe.xml validates");
    expect(withCatalog.status).toBe(0);
    // And libxml2 needs the catalog as much as we do.
    expect(lint({ ...process.env, XML_CATALOG_FILES: "" }).stderr).toContain("failed to compile");
  }, 60_000);
});

describe("XML catalog rules", () => {
  const cat = (body: string, extra: Record<string, string> = {}) =>
    new XmlCatalog(memorySpecHost({ "/c/catalog.xml": `<catalog xmlns="urn:oasis:names:tc:entity:xmlns:xml:catalog">${body}</catalog>`, ...extra }), "/c/catalog.xml");

  it("an exact entry beats a rewrite, the longest rewrite prefix wins, system is looked up before uri", () => {
    const c = cat(`
      <rewriteURI uriStartString="http://x.org/" rewritePrefix="short/"/>
      <rewriteURI uriStartString="http://x.org/deep/" rewritePrefix="/abs/deep/"/>
      <uri name="http://x.org/deep/a.xsd" uri="exact-uri.xsd"/>
      <system systemId="http://x.org/deep/a.xsd" uri="exact-system.xsd"/>
      <uri name="http://x.org/deep/b.xsd" uri="b.xsd"/>`);
    expect(c.resolve("http://x.org/deep/a.xsd")).toBe("/c/exact-system.xsd");
    expect(c.resolve("http://x.org/deep/b.xsd")).toBe("/c/b.xsd");
    expect(c.resolve("http://x.org/deep/c/d.xsd")).toBe("/abs/deep/c/d.xsd");
    expect(c.resolve("http://x.org/e.xsd")).toBe("/c/short/e.xsd");
    expect(c.resolve("http://y.org/e.xsd")).toBeUndefined();
  });

  it("delegates consult only their catalogs; nextCatalog is tried after the entries; a missing next catalog is skipped", () => {
    const c = cat(
      `<delegateURI uriStartString="http://d.org/" catalog="d.xml"/>
       <nextCatalog catalog="gone.xml"/>
       <nextCatalog catalog="n.xml"/>`,
      {
        "/c/d.xml": `<catalog xmlns="urn:oasis:names:tc:entity:xmlns:xml:catalog"><uri name="http://d.org/a.xsd" uri="sub/a.xsd"/></catalog>`,
        "/c/n.xml": `<catalog xmlns="urn:oasis:names:tc:entity:xmlns:xml:catalog"><uri name="http://d.org/b.xsd" uri="never.xsd"/><uri name="http://n.org/x.xsd" uri="n/x.xsd"/></catalog>`,
      },
    );
    expect(c.resolve("http://d.org/a.xsd")).toBe("/c/sub/a.xsd");
    expect(c.resolve("http://d.org/b.xsd")).toBeUndefined();
    expect(c.resolve("http://n.org/x.xsd")).toBe("/c/n/x.xsd");
  });

  it("xml:base on a group and on an entry; non-ASCII characters compare escaped", () => {
    const c = cat(`<group xml:base="/lib/"><uri name="urn:x:a" uri="a.xsd"/><uri xml:base="/other/" name="urn:x:b" uri="b.xsd"/></group>
      <uri name="http://x.org/sch%C3%A9ma.xsd" uri="schema.xsd"/>`);
    expect(c.resolve("urn:x:a")).toBe("/lib/a.xsd");
    expect(c.resolve("urn:x:b")).toBe("/other/b.xsd");
    expect(c.resolve("http://x.org/schéma.xsd")).toBe("/c/schema.xsd");
  });

  it.each([
    ["not a catalog", `<catalogue/>`, "/c/catalog.xml:1:1: expected an OASIS XML catalog"],
    ["an entry without its attribute", `<catalog xmlns="urn:oasis:names:tc:entity:xmlns:xml:catalog">\n  <uri name="urn:a"/></catalog>`, "/c/catalog.xml:2:3: catalog <uri> without uri="],
    ["a DOCTYPE with an internal subset", `<!DOCTYPE catalog [<!ENTITY e "x">]><catalog xmlns="urn:oasis:names:tc:entity:xmlns:xml:catalog"/>`, "/c/catalog.xml:1:1: DOCTYPE is not allowed"],
    ["a remote next catalog", `<catalog xmlns="urn:oasis:names:tc:entity:xmlns:xml:catalog"><nextCatalog catalog="http://x.org/c.xml"/></catalog>`, "catalog 'http://x.org/c.xml' is not a local file (specforge never fetches)"],
  ])("%s is a located error", (_what, text, message) => {
    const c = new XmlCatalog(memorySpecHost({ "/c/catalog.xml": text }), "/c/catalog.xml");
    expect(() => c.resolve("urn:anything")).toThrow(message);
  });

  it("a location the catalog maps to another remote URI is refused (nothing is fetched)", () => {
    const host = memorySpecHost(
      {
        "/s/a.xsd": `<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" targetNamespace="urn:a"><xs:import namespace="urn:b" schemaLocation="http://b.org/b.xsd"/></xs:schema>`,
        "/c/catalog.xml": `<catalog xmlns="urn:oasis:names:tc:entity:xmlns:xml:catalog"><uri name="http://b.org/b.xsd" uri="https://mirror.example/b.xsd"/></catalog>`,
      },
      undefined,
      "/c/catalog.xml",
    );
    expect(() => loadSpec("/s/a.xsd", host)).toThrow(
      "/s/a.xsd:1:80: schema import 'http://b.org/b.xsd': the XML catalog maps http://b.org/b.xsd to https://mirror.example/b.xsd, which is not a local file (specforge never fetches)",
    );
  });

  it("WSDL imports go through the catalog too, and a mapped document's relative imports resolve against its remote URI first", () => {
    const host = memorySpecHost(
      {
        "/s/main.wsdl": `<definitions xmlns="http://schemas.xmlsoap.org/wsdl/" targetNamespace="urn:main"><import namespace="urn:svc" location="http://vendor.example/wsdl/svc.wsdl"/></definitions>`,
        "/mirror/wsdl/svc.wsdl": `<definitions xmlns="http://schemas.xmlsoap.org/wsdl/" xmlns:xs="http://www.w3.org/2001/XMLSchema" targetNamespace="urn:svc"><types><xs:schema targetNamespace="urn:svc"><xs:import namespace="urn:t" schemaLocation="../xsd/t.xsd"/></xs:schema></types></definitions>`,
        "/mirror/xsd/t.xsd": `<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" targetNamespace="urn:t"><xs:element name="t" type="xs:string"/></xs:schema>`,
        "/c/catalog.xml": `<catalog xmlns="urn:oasis:names:tc:entity:xmlns:xml:catalog"><rewriteURI uriStartString="http://vendor.example/" rewritePrefix="/mirror/"/></catalog>`,
      },
      undefined,
      "/c/catalog.xml",
    );
    const doc = loadSpec("/s/main.wsdl", host);
    expect(doc.files).toEqual(["main.wsdl", "../mirror/wsdl/svc.wsdl", "../mirror/xsd/t.xsd"]);
    expect(doc.elements.map((e) => e.name)).toEqual([{ ns: "urn:t", local: "t" }]);
  });
});

describe("--catalog and the catalog config key", () => {
  const run = runCli;

  const project = () => {
    const dir = mkdtempSync(path.join(tmp, "project-"));
    mkdirSync(path.join(dir, "specs"));
    mkdirSync(path.join(dir, "xml"));
    writeFileSync(path.join(dir, "specs/a.xsd"), `<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:b="urn:b" targetNamespace="urn:a">
  <xs:import namespace="urn:b" schemaLocation="http://b.example/b.xsd"/>
  <xs:element name="a" type="b:B"/>
</xs:schema>`);
    writeFileSync(path.join(dir, "xml/b.xsd"), `<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" targetNamespace="urn:b"><xs:simpleType name="B"><xs:restriction base="xs:string"/></xs:simpleType></xs:schema>`);
    writeFileSync(path.join(dir, "xml/catalog.xml"), `<catalog xmlns="urn:oasis:names:tc:entity:xmlns:xml:catalog"><uri name="http://b.example/b.xsd" uri="b.xsd"/></catalog>`);
    return dir;
  };

  it("generate --catalog <file> (relative to the working folder), and the error without it names the flag", async () => {
    const dir = project();
    const without = await run(dir, "generate", "specs/a.xsd");
    expect(without.code).toBe(1);
    expect(without.err).toContain("specs/a.xsd:2:3: schema import 'http://b.example/b.xsd' is remote and specforge never fetches: map it to a local copy with an XML catalog (--catalog <file>");
    const withFlag = await run(dir, "generate", "-q", "specs/a.xsd", "--catalog", "xml/catalog.xml");
    expect(withFlag).toMatchObject({ code: 0, err: "" });
    const inspected = await run(dir, "inspect", "--ir", "specs/a.xsd", "--catalog", "xml/catalog.xml");
    expect(JSON.parse(inspected.out).files).toEqual(["a.xsd", "../xml/b.xsd"]);
    expect(await run(dir, "generate", "specs/a.xsd", "--catalog", "nope.xml")).toMatchObject({ code: 1, err: `${path.join(dir, "nope.xml")}: the XML catalog does not exist\n` });
  });

  it('"catalog" in specforge.config.json, relative to the config, also in worker threads; inspect --inputs lists the catalog', async () => {
    const dir = project();
    writeFileSync(path.join(dir, "specs/c.xsd"), `<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" targetNamespace="urn:c"><xs:import namespace="urn:b" schemaLocation="http://b.example/b.xsd"/></xs:schema>`);
    writeFileSync(path.join(dir, "specforge.config.json"), JSON.stringify({ specs: ["specs"], catalog: "xml/catalog.xml" }));
    expect(await run(dir, "generate", "-q", "--jobs", "2")).toMatchObject({ code: 0, err: "" });
    rmSync(path.join(dir, "specs/c.xsd"));
    writeFileSync(path.join(dir, "specforge.config.json"), JSON.stringify({ specs: ["specs/a.xsd"], catalog: "xml/catalog.xml" }));
    expect(await run(dir, "generate", "-q")).toMatchObject({ code: 0, err: "" });
    expect(await run(dir, "check", "-q")).toMatchObject({ code: 0 });
    const inputs = JSON.parse((await run(dir, "inspect", "--inputs")).out) as { specs: { inputs: string[] }[] };
    expect(inputs.specs[0]!.inputs).toEqual(["specs/a.xsd", "xml/b.xsd", "xml/catalog.xml"]);
  });

  it("the folders a catalog maps into may be read (they are outside the run's roots), and nothing escapes them", async () => {
    const dir = project();
    const mirror = mkdtempSync(path.join(tmp, "mirror-"));
    mkdirSync(path.join(mirror, "b"));
    writeFileSync(path.join(mirror, "b/b.xsd"), `<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" targetNamespace="urn:b"><xs:simpleType name="B"><xs:restriction base="xs:string"/></xs:simpleType></xs:schema>`);
    writeFileSync(path.join(mirror, "secret.xsd"), `<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" targetNamespace="urn:s"/>`);
    writeFileSync(path.join(dir, "xml/catalog.xml"), `<catalog xmlns="urn:oasis:names:tc:entity:xmlns:xml:catalog"><rewriteURI uriStartString="http://b.example/" rewritePrefix="${pathToFileURL(mirror).href}/b/"/></catalog>`);
    expect(await run(dir, "generate", "-q", "specs/a.xsd", "--catalog", "xml/catalog.xml")).toMatchObject({ code: 0, err: "" });
    writeFileSync(path.join(dir, "specs/a.xsd"), `<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" targetNamespace="urn:a"><xs:import namespace="urn:s" schemaLocation="http://b.example/../secret.xsd"/></xs:schema>`);
    const escaped = await run(dir, "generate", "specs/a.xsd", "--catalog", "xml/catalog.xml");
    expect(escaped.code).toBe(1);
    expect(escaped.err).toContain("outside the folders specs may be read from");
  });

  it("convert takes the catalog too", async () => {
    const dir = project();
    const bytes = new TextEncoder().encode(`<a xmlns="urn:a">hello</a>`);
    const json = await convertPayload({ spec: "specs/a.xsd", type: "a", from: "xml", to: "json", cwd: dir, catalog: "xml/catalog.xml", cacheDir: path.join(dir, "cache") }, bytes);
    expect(JSON.parse(new TextDecoder().decode(json))).toBe("hello");
    await expect(convertPayload({ spec: "specs/a.xsd", type: "a", from: "xml", to: "json", cwd: dir, cacheDir: path.join(dir, "cache") }, bytes)).rejects.toThrow("is remote and specforge never fetches");
  });
});
