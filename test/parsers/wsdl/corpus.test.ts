import { readdirSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { SpecError } from "../../../src/errors.js";
import type { SoapService } from "../../../src/ir/model.js";
import { nodeSpecHost } from "../../../src/parsers/host.js";
import { parseWsdl } from "../../../src/parsers/wsdl/index.js";

const corpus = fileURLToPath(new URL("../../../../shared/corpus/wsdl", import.meta.url));

/** Expected SOAP operation count per portType service, or the exact errors of a known gap (with why): all of them, in one run. */
const expected: Record<string, { ops: Record<string, number> } | { gap: string[]; why: string }> = {
  "24sevenoffice-products.wsdl": { ops: { ProductService: 10 } },
  "cdyne-weather.wsdl": { ops: { Weather: 3 } },
  "cybersource/CyberSourceTransaction_1.26.wsdl": { ops: { TransactionProcessor: 1 } },
  "eu-vies-checkVatService.wsdl": { ops: { checkVatService: 2 } },
  "noaa-ndfdXML.wsdl": { ops: { ndfdXML: 12 } },
  "nodesoap-EVacSyncService_SPClient.wsdl": { ops: { ESyncNotifySPServiceService: 2 } },
  "nodesoap-mixed-sequence.wsdl": { ops: { AcmeService: 1 } },
  "nodesoap-rpcexample.wsdl": { ops: { RpcExample: 13 } },
  "sf-partner-v13.wsdl": { ops: { SforceService: 30 } },
  "sf-partner-v40.wsdl": { ops: { SforceService: 59 } },
  "xsdata-calculator.wsdl": { ops: { Calculator: 4 } },
  "zeep-soap.wsdl": { ops: { StockQuoteService: 2 } },
  "nodesoap-typeof_null_extend_check.wsdl": {
    gap: [
      "nodesoap-typeof_null_extend_check.wsdl:83:9: unknown element 'qas:QAFault' ({http://www.qas.com/web-2010-12}QAFault)",
    ],
    // Its missing types (QAConfigType, QALocator, ...) are warnings (XSD 1.0 §5.3, typed anyType); a message part
    // naming a missing element is still an error.
    why: "node-soap test fixture that references types and an element it never declares",
  },
  "strongsoap-xsi-type-readMetadata.wsdl": {
    gap: [
      "strongsoap-xsi-type-readMetadata.wsdl:94:3: unknown element 'tns:CallOptions' ({http://soap.sforce.com/2006/04/metadata}CallOptions)",
      "strongsoap-xsi-type-readMetadata.wsdl:95:3: unknown element 'tns:DebuggingHeader' ({http://soap.sforce.com/2006/04/metadata}DebuggingHeader)",
      "strongsoap-xsi-type-readMetadata.wsdl:96:3: unknown element 'tns:DebuggingInfo' ({http://soap.sforce.com/2006/04/metadata}DebuggingInfo)",
      "strongsoap-xsi-type-readMetadata.wsdl:97:3: unknown element 'tns:SessionHeader' ({http://soap.sforce.com/2006/04/metadata}SessionHeader)",
    ],
    why: "trimmed test fixture: header messages use elements (CallOptions, SessionHeader...) that its schema does not declare",
  },
  "onvif/devicemgmt.wsdl": {
    // The missing import is a warning (a schemaLocation is a hint); the types deriving from its components cannot be.
    gap: ["onvif/devicemgmt.wsdl:1979:6: unknown type 'tt:DeviceEntity' ({http://www.onvif.org/ver10/schema}DeviceEntity); the schema of 'http://www.onvif.org/ver10/schema' was not read (its schemaLocation at onvif/devicemgmt.wsdl:14:4 names no file)"],
    why: "imports onvif.xsd by its path in the ONVIF tree (outside the corpus; needs a catalog), and onvif.xsd imports remote http schemas",
  },
};

function wsdlFiles(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((f) => {
      const p = path.join(dir, f);
      return statSync(p).isDirectory() ? wsdlFiles(p) : f.endsWith(".wsdl") ? [p] : [];
    });
}

describe("WSDL corpus", () => {
  const files = wsdlFiles(corpus);
  const host = nodeSpecHost({ cwd: corpus });

  it("knows every corpus file", () => {
    expect(files.map((f) => path.relative(corpus, f).split(path.sep).join("/")).sort()).toEqual(Object.keys(expected).sort());
  });

  it.each(files.map((f) => [path.relative(corpus, f).split(path.sep).join("/"), f]))("%s", (rel, file) => {
    const want = expected[rel]!;
    if ("gap" in want) {
      let message = "";
      try {
        parseWsdl(file, host);
      } catch (e) {
        expect(e).toBeInstanceOf(SpecError);
        message = (e as Error).message;
      }
      expect(message.split("\n")).toEqual(want.gap.map((g) => g.replaceAll("$TARGET", path.resolve(corpus, "onvif", "../../../ver10/schema/onvif.xsd"))));
      return;
    }
    const ir = parseWsdl(file, host);
    expect(ir.format).toBe("wsdl");
    const ops = Object.fromEntries(ir.services.map((s) => [s.name, (s as SoapService).operations.length]));
    expect(ops).toEqual(want.ops);
    // Every type reference resolves to a declared type and every part element to a declared element.
    const ids = new Set(ir.types.map((t) => t.id));
    const elements = new Set(ir.elements.map((e) => e.id));
    const refs = JSON.stringify(ir).match(/"kind":"ref","id":"[^"]*"/g) ?? [];
    for (const r of refs) expect(ids.has(JSON.parse(`{${r}}`).id)).toBe(true);
    for (const s of ir.services as SoapService[]) {
      for (const o of s.operations) for (const p of [...(o.input?.parts ?? []), ...(o.output?.parts ?? [])]) if (p.element) expect(elements.has(p.element)).toBe(true);
    }
    expect(ids.size).toBe(ir.types.length);
  });

  it("standalone ONVIF schemas: local ones parse, remote imports need a catalog (test/parsers/xml/catalog.test.ts)", () => {
    const onvif = path.join(corpus, "onvif");
    expect(parseWsdl(path.join(onvif, "t-1.xsd"), host).types.length).toBeGreaterThan(5);
    expect(parseWsdl(path.join(onvif, "common.xsd"), host).format).toBe("xsd");
    const err = (f: string) => {
      try {
        parseWsdl(path.join(onvif, f), host);
      } catch (e) {
        return (e as Error).message;
      }
      return "";
    };
    expect(err("onvif.xsd")).toBe(`onvif/onvif.xsd:13:2: schema import 'http://www.w3.org/2005/05/xmlmime' is remote and specforge never fetches: map it to a local copy with an XML catalog (--catalog <file>, or "catalog" in specforge.config.json), e.g. <uri name="http://www.w3.org/2005/05/xmlmime" uri="local/copy.xsd"/>`);
    expect(err("b-2.xsd")).toBe(`onvif/b-2.xsd:29:3: schema import 'http://www.w3.org/2005/08/addressing/ws-addr.xsd' is remote and specforge never fetches: map it to a local copy with an XML catalog (--catalog <file>, or "catalog" in specforge.config.json), e.g. <uri name="http://www.w3.org/2005/08/addressing/ws-addr.xsd" uri="local/copy.xsd"/>`);
  });

  it("the cybersource schema is read through its relative xsd:import", () => {
    const ir = parseWsdl(path.join(corpus, "cybersource/CyberSourceTransaction_1.26.wsdl"), host);
    expect(ir.files).toEqual(["CyberSourceTransaction_1.26.wsdl", "CyberSourceTransaction_1.26.xsd"]);
    expect(ir.types.length).toBeGreaterThan(100);
  });
});
