import { describe, expect, it } from "vitest";
import { parseXsdText, recordOf, s } from "./util.js";

const cases: [string, ReturnType<typeof s>][] = [
  ["xsd:string", s("string")],
  ["xsd:normalizedString", s("string", "xsd:normalizedString")],
  ["xsd:token", s("string", "xsd:token")],
  ["xsd:language", s("string", "xsd:language")],
  ["xsd:Name", s("string", "xsd:Name")],
  ["xsd:NCName", s("string", "xsd:NCName")],
  ["xsd:ID", s("string", "xsd:ID")],
  ["xsd:IDREF", s("string", "xsd:IDREF")],
  ["xsd:ENTITY", s("string", "xsd:ENTITY")],
  ["xsd:NMTOKEN", s("string", "xsd:NMTOKEN")],
  ["xsd:gYear", s("string", "xsd:gYear")],
  ["xsd:gMonthDay", s("string", "xsd:gMonthDay")],
  ["xsd:int", s("int32", "xsd:int")],
  ["xsd:short", s("int32", "xsd:short")],
  ["xsd:byte", s("int32", "xsd:byte")],
  ["xsd:long", s("int64", "xsd:long")],
  ["xsd:unsignedInt", s("uint32", "xsd:unsignedInt")],
  ["xsd:unsignedShort", s("uint32", "xsd:unsignedShort")],
  ["xsd:unsignedByte", s("uint32", "xsd:unsignedByte")],
  ["xsd:unsignedLong", s("uint64", "xsd:unsignedLong")],
  ["xsd:integer", s("integer")],
  ["xsd:nonNegativeInteger", s("integer", "xsd:nonNegativeInteger")],
  ["xsd:positiveInteger", s("integer", "xsd:positiveInteger")],
  ["xsd:negativeInteger", s("integer", "xsd:negativeInteger")],
  ["xsd:nonPositiveInteger", s("integer", "xsd:nonPositiveInteger")],
  ["xsd:decimal", s("decimal")],
  ["xsd:float", s("float")],
  ["xsd:double", s("double")],
  ["xsd:boolean", s("boolean")],
  ["xsd:base64Binary", s("bytes", "xsd:base64Binary")],
  ["xsd:hexBinary", s("bytes", "xsd:hexBinary")],
  ["xsd:date", s("date")],
  ["xsd:dateTime", s("dateTime")],
  ["xsd:time", s("time")],
  ["xsd:duration", s("duration")],
  ["xsd:anyURI", s("anyURI")],
  ["xsd:QName", s("QName")],
  ["xsd:anyType", s("any", "xsd:anyType")],
  ["xsd:anySimpleType", s("any", "xsd:anySimpleType")],
  ["enc:string", s("string")],
  ["enc:int", s("int32", "xsd:int")],
  ["enc:base64", s("bytes", "xsd:base64Binary")],
  ["enc:base64Binary", s("bytes", "xsd:base64Binary")],
  ["enc12:dateTime", s("dateTime")],
  ["enc:Array", s("any", "soapenc:Array")],
];

describe("builtin types", () => {
  it.each(cases)("%s", (type, expected) => {
    const ir = parseXsdText(
      `<xsd:complexType name="T" xmlns:enc="http://schemas.xmlsoap.org/soap/encoding/" xmlns:enc12="http://www.w3.org/2003/05/soap-encoding">
        <xsd:sequence><xsd:element name="f" type="${type}"/></xsd:sequence></xsd:complexType>`,
    );
    expect(recordOf(ir, "T").members[0]).toMatchObject({ name: "f", type: expected });
    expect((recordOf(ir, "T").members[0] as { type: object }).type).toEqual(expected);
  });

  it("an element without a type is xsd:anyType", () => {
    const ir = parseXsdText(`<xsd:complexType name="T"><xsd:sequence><xsd:element name="f"/></xsd:sequence></xsd:complexType>`);
    expect(recordOf(ir, "T").members[0]).toMatchObject({ type: s("any", "xsd:anyType") });
  });
});
