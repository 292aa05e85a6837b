import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { memorySpecHost } from "../../src/parsers/host.js";
import { loadSpec } from "../../src/pipeline/load-spec.js";
import { outputDirFor } from "../../src/pipeline/output-dir.js";
import { specKindOfText } from "../../src/pipeline/spec-kind.js";
import { listFiles } from "../../src/pipeline/write-output.js";
import { SHARED } from "../helpers/seeds.js";
import { runCli } from "../helpers/run-cli.js";

/** Published WSDLs as users save them: `.xml`, `service.asmx.xml`, no extension at all. */
const corpus = (rel: string) => readFileSync(path.join(SHARED, "corpus/wsdl", rel), "utf8");
const CALCULATOR = corpus("xsdata-calculator.wsdl");
const ZEEP = corpus("zeep-soap.wsdl");
const XSD = `<?xml version="1.0"?>
<!-- a licence header
     over several lines -->
<?some-pi here?>
<schema xmlns="http://www.w3.org/2001/XMLSchema" targetNamespace="urn:s" xmlns:s="urn:s">
  <element name="note" type="string"/>
</schema>`;
const PROTO = `// Copyright 2024
/* the API */
syntax = "proto3";
package demo;
message Ping { string id = 1; }
`;
const OPENAPI_YAML = "openapi: 3.0.3\ninfo: {title: T, version: '1'}\npaths: {}\n";

describe("the parser is chosen by content when the extension does not say", () => {
  it.each([
    ["a WSDL 1.1 definitions with a prefix", CALCULATOR, "wsdl"],
    ["a WSDL with a BOM and the default namespace", '\uFEFF<?xml version="1.0"?><definitions xmlns="http://schemas.xmlsoap.org/wsdl/"/>', "wsdl"],
    ["a schema after a comment and a processing instruction", XSD, "wsdl"],
    ["a WSDL 2.0 description (its parser says it is unsupported)", '<description xmlns="http://www.w3.org/ns/wsdl"/>', "wsdl"],
    ["a proto file after comments", PROTO, "proto"],
    ["a proto file starting with a package", "package a.b;\nmessage M {}\n", "proto"],
    ["an OpenAPI YAML document", OPENAPI_YAML, "openapi"],
    ["a Swagger JSON document", '{ "swagger": "2.0", "info": {} }', "openapi"],
  ])("%s", (_what, text, kind) => {
    expect(specKindOfText(text).kind).toBe(kind);
  });

  it.each([
    ["an XML document of another vocabulary", '<?xml version="1.0"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"/>', "its root element is <soap:Envelope> (http://schemas.xmlsoap.org/soap/envelope/)"],
    ["a definitions element in no namespace", "<definitions/>", "its root element is <definitions> (no namespace)"],
    ["a schema in the wrong namespace", '<xs:schema xmlns:xs="http://www.w3.org/1999/XMLSchema"/>', "(http://www.w3.org/1999/XMLSchema), not a WSDL 1.1"],
    ["plain text", "hello\nimport os\n", "its content is not XML"],
    ["broken XML before the root", "<?xml version='1.0'?><<", "not well-formed XML before its root element"],
  ])("refuses %s, saying why", (_what, text, why) => {
    const sniffed = specKindOfText(text);
    expect(sniffed.kind).toBeUndefined();
    expect(sniffed.kind === undefined && sniffed.why).toContain(why);
  });

  it("loads a WSDL named .xml, one with no extension, a schema named .xml and a proto named .txt", () => {
    const host = memorySpecHost({ "/s/Calculator.xml": CALCULATOR, "/s/zeep": ZEEP, "/s/notes.xml": XSD, "/s/demo.txt": PROTO, "/s/api": OPENAPI_YAML });
    const calc = loadSpec("/s/Calculator.xml", host);
    expect(calc.format).toBe("wsdl");
    expect(calc.services.flatMap((s) => (s.kind === "soap" ? s.operations.map((o) => o.name) : []))).toContain("Add");
    expect(loadSpec("/s/zeep", host).format).toBe("wsdl");
    expect(loadSpec("/s/notes.xml", host)).toMatchObject({ format: "xsd", elements: [{ name: { ns: "urn:s", local: "note" } }] });
    expect(loadSpec("/s/demo.txt", host).format).toBe("proto");
    expect(loadSpec("/s/api", host).format).toBe("openapi");
  });

  it("says what an unknown file is and what would be read", () => {
    const host = memorySpecHost({ "/s/payload.xml": '<Envelope xmlns="http://schemas.xmlsoap.org/soap/envelope/"/>' });
    expect(() => loadSpec("/s/payload.xml", host)).toThrow(
      "/s/payload.xml: unknown spec type: its root element is <Envelope> (http://schemas.xmlsoap.org/soap/envelope/), not a WSDL 1.1 wsdl:definitions (http://schemas.xmlsoap.org/wsdl/) or an XML Schema xs:schema (http://www.w3.org/2001/XMLSchema) (by extension: .wsdl, .xsd, .proto, .yaml, .yml or .json)",
    );
    expect(() => loadSpec("/s/missing.xml", host)).toThrow("/s/missing.xml: cannot read spec: ENOENT");
  });

  it("names the output folder without the .xml", () => {
    expect(outputDirFor("specs/Calculator.xml")).toBe("Calculator");
    expect(outputDirFor("specs/Service.wsdl.xml")).toBe("Service");
    expect(outputDirFor("specs/demo.txt")).toBe("demo");
  });
});

describe("specs named .xml in a project", () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });

  const run = runCli;

  it("init lists .xml WSDLs and schemas (not other XML), and generate reads a folder of them", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "specforge-spec-kind-"));
    dirs.push(dir);
    mkdirSync(path.join(dir, "specs"));
    writeFileSync(path.join(dir, "specs/Calculator.asmx.xml"), CALCULATOR);
    writeFileSync(path.join(dir, "specs/notes.xml"), XSD);
    writeFileSync(path.join(dir, "specs/sample-request.xml"), '<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body/></soap:Envelope>');
    writeFileSync(path.join(dir, "specs/pom.xml"), '<project xmlns="http://maven.apache.org/POM/4.0.0"/>');
    writeFileSync(path.join(dir, "specs/README"), "The calculator service.\n");

    const init = await run(dir, "init", "-q");
    expect(init).toMatchObject({ code: 0, err: "" });
    expect(JSON.parse(readFileSync(path.join(dir, "specforge.config.json"), "utf8")).specs).toEqual(["specs/Calculator.asmx.xml", "specs/notes.xml"]);

    const gen = await run(dir, "generate", "-q", "specs");
    expect(gen).toMatchObject({ code: 0, err: "" });
    expect(listFiles(path.join(dir, "generated"))).toEqual(expect.arrayContaining(["Calculator.asmx/client.ts", "Calculator.asmx/xml.ts", "notes/xml.ts"]));
    expect(listFiles(path.join(dir, "generated")).some((f) => f.startsWith("sample-request") || f.startsWith("pom"))).toBe(false);
  });

  it("an explicit file that is not a spec is an error naming its root element", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "specforge-spec-kind-"));
    dirs.push(dir);
    writeFileSync(path.join(dir, "pom.xml"), '<project xmlns="http://maven.apache.org/POM/4.0.0"/>');
    const res = await run(dir, "generate", "pom.xml");
    expect(res.code).not.toBe(0);
    expect(res.err).toContain("pom.xml: unknown spec type: its root element is <project> (http://maven.apache.org/POM/4.0.0)");
  });
});
