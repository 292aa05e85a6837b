import { describe, expect, it } from "vitest";
import * as partner from "../../../generated/partner/index.js";
import { encodeBase64, encodeHex, formatXsdDateTime, XmlEncodeError, XmlValueTypeError, XmlWriter } from "../../../src/runtime/index.js";
import { encodeLocation, openElements } from "../../../src/runtime/xml/encode-location.js";

/**
 * A value of the wrong JavaScript type (through a cast or from JSON) is refused with the path of the value, instead
 * of being written as something else (a string given for base64Binary used to encode zeros).
 */
const email = { bccSender: null, emailPriority: null, replyTo: null, saveAsActivity: null, senderDisplayName: null, subject: "s", useSignature: null };
const single = { charset: null, htmlBody: null, plainTextBody: "hi", targetObjectId: null, templateId: null, whatId: null };

function sendEmail(body: unknown): unknown {
  const files = [{ fileName: "ok.bin", body: new Uint8Array([1]) }, { fileName: "a.bin", body }];
  return { messages: [{ $type: "SingleEmailMessage", ...email, ...single }, { $type: "SingleEmailMessage", ...email, ...single, fileAttachments: files }] };
}

describe("encode errors for values of the wrong type", () => {
  it("base64Binary given a string (as JSON would give it) names the path", () => {
    expect(() => partner.encodeSendEmailElement(sendEmail("AAEC") as never)).toThrow(/^sendEmail\.messages\[1\]\.fileAttachments\[1\]\.body: expected Uint8Array, got string$/);
    expect(() => partner.encodeSendEmailElement(sendEmail([1, 2, 3]) as never)).toThrow(/^sendEmail\.messages\[1\]\.fileAttachments\[1\]\.body: expected Uint8Array, got an array$/);
    // The right type still encodes.
    expect(partner.encodeSendEmailElement(sendEmail(new Uint8Array([0, 255])) as never)).toContain("AP8=");
  });

  it("a dateTime string given a Date, or a string field given a number, names the element", () => {
    const when = new Date("2026-11-27T03:00:00Z");
    expect(() => partner.encodeGetUpdatedElement({ sObjectType: "Account", startDate: when, endDate: "2026-11-28T00:00:00Z" } as never)).toThrow(/^getUpdated\.startDate: expected string, got Date$/);
    expect(() => partner.encodeRetrieveElement({ fieldList: "Id", sObjectType: "Account", ids: ["001000000000000AAA", 42] } as never)).toThrow(/^retrieve\.ids\[1\]: expected string, got number$/);
  });

  it("the runtime conversions check their argument (hexBinary, base64Binary, Date mode dateTime)", () => {
    expect(() => encodeHex("00ff" as never)).toThrow(XmlValueTypeError);
    expect(() => encodeHex("00ff" as never)).toThrow(XmlEncodeError);
    expect(() => encodeBase64("abc" as never)).toThrow(/^expected Uint8Array, got string$/);
    expect(() => formatXsdDateTime("2026-11-27" as never)).toThrow(/^expected Date, got string$/);
    expect(() => formatXsdDateTime(new Date("nope"))).toThrow(/^expected a valid Date, got Date$/);
    expect(formatXsdDateTime(new Date(Date.UTC(2026, 10, 27)))).toBe("2026-11-27T00:00:00.000Z");
  });

  it("attribute values are checked too", () => {
    const w = new XmlWriter();
    w.startElement("", "a");
    expect(() => w.attribute("", "size", 5 as never)).toThrow(XmlValueTypeError);
  });
});

describe("encodeLocation", () => {
  it("reads the open elements of partial output, with sibling indexes, quotes and self-closing tags", () => {
    const partial = '<p:root xmlns:p="urn:x"><p:item a=">"/><p:item><p:x>1</p:x></p:item><p:item b="/"><p:x>2</p:x><p:x';
    expect(openElements(partial).map((e) => [e.local, e.index])).toEqual([["root", 0], ["item", 2], ["x", 1]]);
  });

  it("maps them onto the value, and finds a property not written yet", () => {
    const value = { item: [{}, {}, { x: ["1", "2"], y: 7 }] };
    expect(encodeLocation('<root><item/><item/><item><x>1</x><x>2</x>', value, 7, false)).toBe("root.item[2].y");
    expect(encodeLocation("<root><item/><item/><item><x>1</x><x", value, "2", true)).toBe("root.item[2].x[1]");
  });
});
