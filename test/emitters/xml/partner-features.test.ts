import { describe, expect, it } from "vitest";
import * as p from "../../../generated/partner/index.js";
import { XmlWriter } from "specforge/runtime"; // the writer class generated code is typed against
import { parseXml, XmlDecodeError, XmlEncodeError, XmlParseError } from "../../../src/runtime/index.js";

const TNS = "urn:partner.api.example";
const ENS = "urn:sobject.api.example";
const FNS = "urn:fault.api.example";
const XSI = "http://www.w3.org/2001/XMLSchema-instance";
const ID = "001000000000000AAA";

describe("partner codecs: XML features", () => {
  it("writes elements in schema order whatever the key order", () => {
    const xml = p.encodeLoginElement({ password: "pw", username: "u" } as p.Login);
    expect(xml.indexOf("<ns1:username>")).toBeLessThan(xml.indexOf("<ns1:password>"));
  });

  // Children of a record without a wildcard may come in any order; an sObject's fixed elements must come first
  // (after them, the same names are open content: test/emitters/xml/open-content-order.test.ts).
  it("decodes the same message under any prefixes and default namespaces", () => {
    const want: p.QueryResponse = { result: { done: false, queryLocator: "L1", size: 1, records: [{ type: "Account", Id: ID }] } };
    const variants = [
      `<q:queryResponse xmlns:q="${TNS}" xmlns:s="${ENS}"><q:result><q:done>false</q:done><q:queryLocator>L1</q:queryLocator><q:records><s:type>Account</s:type><s:Id>${ID}</s:Id></q:records><q:size>1</q:size></q:result></q:queryResponse>`,
      `<queryResponse xmlns="${TNS}"><result><done>0</done><queryLocator>L1</queryLocator><records><type xmlns="${ENS}">Account</type><x:Id xmlns:x="${ENS}">${ID}</x:Id></records><size> 1 </size></result></queryResponse>`,
      `<a:queryResponse xmlns:a="${TNS}"><a:result xmlns:b="${ENS}"><a:size>1</a:size><a:records><b:type>Account</b:type><b:Id>${ID}</b:Id></a:records><a:queryLocator>L1</a:queryLocator><a:done>false</a:done><a:unknownExtra>ignored</a:unknownExtra></a:result></a:queryResponse>`,
    ];
    for (const xml of variants) expect(p.decodeQueryResponseElement(xml)).toEqual(want);
  });

  it("writes and honours xsi:type for Email, ProcessRequest and ApiFault subtypes", () => {
    const single: p.SingleEmailMessage = {
      $type: "SingleEmailMessage", bccSender: null, emailPriority: "High", replyTo: null, saveAsActivity: true, senderDisplayName: null,
      subject: "s", useSignature: null, charset: null, htmlBody: null, plainTextBody: "b", targetObjectId: null, templateId: null,
      whatId: null, toAddresses: ["a@example.com"],
    };
    const mass: p.MassEmailMessage = {
      $type: "MassEmailMessage", bccSender: null, emailPriority: null, replyTo: null, saveAsActivity: null, senderDisplayName: null,
      subject: null, useSignature: null, description: null, templateId: ID, targetObjectIds: [ID, ID],
    };
    const xml = p.encodeSendEmailElement({ messages: [single, mass] });
    expect(xml).toContain('<ns1:messages xsi:type="ns1:SingleEmailMessage">');
    expect(xml).toContain('<ns1:messages xsi:type="ns1:MassEmailMessage">');
    expect(p.decodeSendEmailElement(xml)).toEqual({ messages: [single, mass] });

    const submit: p.ProcessSubmitRequest = { $type: "ProcessSubmitRequest", comments: null, objectId: ID };
    const workitem: p.ProcessWorkitemRequest = { $type: "ProcessWorkitemRequest", comments: "ok", action: "Approve", workitemId: ID };
    expect(p.decodeProcessElement(p.encodeProcessElement({ actions: [submit, workitem] }))).toEqual({ actions: [submit, workitem] });

    const fault: p.ApiQueryFault = { $type: "ApiQueryFault", exceptionCode: "MALFORMED_QUERY", exceptionMessage: "bad", row: 1, column: 7 };
    const faultXml = p.encodeFaultElement(fault);
    expect(faultXml).toContain('xsi:type="ns2:ApiQueryFault"');
    expect(p.decodeFaultElement(faultXml)).toEqual(fault);
    // The base type without $type writes no xsi:type and reads back without one.
    expect(p.decodeFaultElement(p.encodeFaultElement({ exceptionCode: "INVALID_SESSION_ID", exceptionMessage: "m" }))).toEqual({
      exceptionCode: "INVALID_SESSION_ID", exceptionMessage: "m",
    });
    // Another prefix for the type's namespace is resolved, an unrelated type is refused.
    const other = `<f:fault xmlns:f="${FNS}" xmlns:i="${XSI}" xmlns:z="${FNS}" i:type="z:LoginFault"><f:exceptionCode>INVALID_LOGIN</f:exceptionCode><f:exceptionMessage>m</f:exceptionMessage></f:fault>`;
    expect(p.decodeFaultElement(other)).toEqual({ $type: "LoginFault", exceptionCode: "INVALID_LOGIN", exceptionMessage: "m" });
    expect(() => p.decodeFaultElement(other.replace("z:LoginFault", "z:Nope"))).toThrow(/xsi:type \{urn:fault.api.example\}Nope is not ApiFault/);
  });

  it("writes and reads xsi:nil", () => {
    const xml = p.encodeLoginResponseElement({
      result: { metadataServerUrl: null, passwordExpired: false, sandbox: true, serverUrl: null, sessionId: "S", userId: null },
    });
    expect(xml).toContain('<ns1:serverUrl xsi:nil="true"/>');
    const back = p.decodeLoginResponseElement(xml);
    expect(back.result.serverUrl).toBeNull();
    expect(back.result.sessionId).toBe("S");
    expect(back.result).not.toHaveProperty("userInfo");
  });

  it("decodes a list with one item as an array, and leaves absent optional elements absent", () => {
    const xml = `<r:retrieve xmlns:r="${TNS}"><r:fieldList>Name</r:fieldList><r:sObjectType>Account</r:sObjectType><r:ids>${ID}</r:ids></r:retrieve>`;
    expect(p.decodeRetrieveElement(xml)).toEqual({ fieldList: "Name", sObjectType: "Account", ids: [ID] });
    const none = p.decodeRetrieveElement(`<r:retrieve xmlns:r="${TNS}"><r:fieldList>Name</r:fieldList><r:sObjectType>A</r:sObjectType></r:retrieve>`);
    expect(Object.keys(none)).toEqual(["fieldList", "sObjectType"]);
  });

  it("keeps sObject open content in order, with nested sObjects and nested query results", () => {
    const record: p.SObject = {
      type: "Account",
      Id: ID,
      $any: [
        { ns: ENS, name: "Name", value: "Acme & Co" },
        { ns: ENS, name: "Phone", value: null },
        { ns: ENS, name: "Owner", value: { $type: "sObject", type: "User", Id: null, $any: [{ ns: ENS, name: "Name", value: "Ann" }] } },
        {
          ns: ENS, name: "Contacts",
          value: { $type: "QueryResult", done: true, queryLocator: null, size: 1, records: [{ type: "Contact", Id: ID, $any: [{ ns: ENS, name: "LastName", value: "Lee" }] }] },
        },
        { ns: ENS, name: "Address", value: [{ ns: ENS, name: "City", value: "Oslo" }, { ns: ENS, name: "Zip", value: "0150" }] },
        { ns: ENS, name: "Amount", value: "12.50" },
      ],
    };
    const xml = p.encodeQueryResponseElement({ result: { done: true, queryLocator: null, size: 1, records: [record] } });
    expect(xml).toContain('<ns3:Owner xsi:type="ns3:sObject">');
    expect(xml).toContain('<ns3:Contacts xsi:type="ns1:QueryResult">');
    expect(p.decodeQueryResponseElement(xml).result.records).toEqual([record]);
    // Numbers, booleans and bytes are written by XSD lexical rules (and read back as text: open content is untyped).
    const typed = p.encodeCreateElement({ sObjects: [{ type: "A", Id: null, $any: [{ ns: ENS, name: "N", value: 1.5 }, { ns: ENS, name: "B", value: true }, { ns: ENS, name: "Y", value: new Uint8Array([1, 2]) }] }] });
    expect(p.decodeCreateElement(typed).sObjects![0]!.$any!.map((i) => i.value)).toEqual(["1.5", "true", "AQI="]);
    // Elements outside the wildcard's namespace are not open content.
    const foreign = `<c:create xmlns:c="${TNS}" xmlns:s="${ENS}"><c:sObjects><s:type>A</s:type><s:Id>${ID}</s:Id><c:NotMine>x</c:NotMine><s:Mine>y</s:Mine></c:sObjects></c:create>`;
    expect(p.decodeCreateElement(foreign).sObjects![0]!.$any).toEqual([{ ns: ENS, name: "Mine", value: "y" }]);
  });

  it("base64, numbers and dates by XSD lexical rules", () => {
    const att: p.EmailFileAttachment = { body: new Uint8Array([0, 255, 16]), contentType: null, fileName: "f.bin", inline: true };
    const xml = p.encodeSendEmailElement({ messages: [{
      $type: "SingleEmailMessage", bccSender: null, emailPriority: null, replyTo: null, saveAsActivity: null, senderDisplayName: null,
      subject: null, useSignature: null, charset: null, htmlBody: null, plainTextBody: null, targetObjectId: null, templateId: null,
      whatId: null, fileAttachments: [att],
    }] });
    expect(xml).toContain("<ns1:body>AP8Q</ns1:body>");
    expect((p.decodeSendEmailElement(xml).messages?.[0] as p.SingleEmailMessage | undefined)?.fileAttachments).toEqual([att]);
    const ts = `<t:getServerTimestampResponse xmlns:t="${TNS}"><t:result><t:timestamp>2024-01-02T03:04:05Z</t:timestamp></t:result></t:getServerTimestampResponse>`;
    expect(p.decodeGetServerTimestampResponseElement(ts).result.timestamp).toBe("2024-01-02T03:04:05Z");
    expect(() => p.decodeGetServerTimestampResponseElement(ts.replace("2024-01-02T", "yesterday "))).toThrow(XmlDecodeError);
  });

  it("reports bad payloads with their path, never a crash", () => {
    const q = (inner: string) => `<q:queryResponse xmlns:q="${TNS}"><q:result>${inner}</q:result></q:queryResponse>`;
    expect(() => p.decodeQueryResponseElement(q("<q:done>true</q:done><q:size>1</q:size>"))).toThrow(/\/result: required element queryLocator is missing/);
    expect(() => p.decodeQueryResponseElement(q("<q:done>maybe</q:done><q:queryLocator/><q:size>1</q:size>"))).toThrow(/\/result\/done: "maybe" is not a valid xsd:boolean/);
    expect(() => p.decodeQueryResponseElement(q("<q:done>true</q:done><q:queryLocator/><q:size>99999999999</q:size>"))).toThrow(/\/result\/size: .*outside the range/);
    expect(() => p.decodeDebuggingHeaderElement(`<d:DebuggingHeader xmlns:d="${TNS}"><d:debugLevel>Loud</d:debugLevel></d:DebuggingHeader>`)).toThrow(/"Loud" is not a value of DebugLevel/);
    expect(() => p.decodeLoginElement(`<x:other xmlns:x="${TNS}"/>`)).toThrow(/expected element \{urn:partner.api.example\}login/);
    expect(() => p.decodeLoginElement(`<!DOCTYPE x><x/>`)).toThrow(XmlParseError);
    expect(() => p.decodeLoginElement("<l:login xmlns:l='urn:partner.api.example'><l:username>")).toThrow(XmlParseError);
  });

  it("refuses to write characters XML cannot carry, and escapes the specials", () => {
    expect(() => p.encodeLoginElement({ username: "a\u0000b", password: "p" })).toThrow(XmlEncodeError);
    const xml = p.encodeLoginElement({ username: `<&>"'`, password: "p" });
    expect(xml).toContain("<ns1:username>&lt;&amp;&gt;&quot;&apos;</ns1:username>");
    expect(p.decodeLoginElement(xml).username).toBe(`<&>"'`);
  });

  it("encodes and decodes through the dispatch map with a caller's writer", () => {
    const codec = p.xmlElements[`{${TNS}}SessionHeader`]!;
    const w = new XmlWriter();
    codec.encode({ sessionId: "abc" }, w);
    expect(w.toString()).toBe(`<ns1:SessionHeader xmlns:ns1="${TNS}"><ns1:sessionId>abc</ns1:sessionId></ns1:SessionHeader>`);
    expect(codec.decode(parseXml(w.toString()))).toEqual({ sessionId: "abc" });
  });
});
