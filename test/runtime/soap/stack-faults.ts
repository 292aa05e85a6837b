/**
 * Fault responses shaped the way real SOAP stacks write them (reconstructed from their documented output, not copied
 * from their code): which prefix or default namespace the envelope uses, where the fault code's prefix is declared,
 * what sits in detail, and which HTTP status comes with it. Each lists what a client must read from it.
 */
export interface StackFault {
  readonly stack: string;
  readonly status: number;
  readonly body: string;
  readonly code: { readonly ns: string; readonly local: string };
  readonly message: string;
  readonly actor?: string;
  /** The detail element the partner binding declares ({urn:fault.api.example}fault), when present. */
  readonly exceptionCode?: string;
}

const S11 = "http://schemas.xmlsoap.org/soap/envelope/";
const S12 = "http://www.w3.org/2003/05/soap-envelope";
const XSI = "http://www.w3.org/2001/XMLSchema-instance";
const FAULT_NS = "urn:fault.api.example";
const WCF_DISPATCHER = "http://schemas.microsoft.com/net/2005/12/windowscommunicationfoundation/dispatcher";

const partnerDetail = (prefix: string, declare: string): string =>
  `<${prefix}fault${declare}><${prefix}exceptionCode>INVALID_SESSION_ID</${prefix}exceptionCode>` +
  `<${prefix}exceptionMessage>Invalid Session ID found in SessionHeader</${prefix}exceptionMessage></${prefix}fault>`;

export const STACK_FAULTS: readonly StackFault[] = [
  {
    stack: "default-namespace envelope (no prefixes at all), HTTP 500",
    status: 500,
    body:
      `<?xml version="1.0" encoding="utf-8"?>\n<Envelope xmlns="${S11}">\n  <Body>\n    <Fault>\n      <faultcode>Client</faultcode>\n` +
      `      <faultstring>Invalid Session ID found in SessionHeader</faultstring>\n      <detail>\n        ` +
      partnerDetail("", ` xmlns="${FAULT_NS}"`) +
      `\n      </detail>\n    </Fault>\n  </Body>\n</Envelope>\n`,
    code: { ns: S11, local: "Client" },
    message: "Invalid Session ID found in SessionHeader",
    exceptionCode: "INVALID_SESSION_ID",
  },
  {
    stack: "Salesforce (soapenv:, sf: declared on the envelope, xsi:type on the detail), HTTP 500",
    status: 500,
    body:
      `<?xml version="1.0" encoding="UTF-8"?><soapenv:Envelope xmlns:soapenv="${S11}" xmlns:sf="${FAULT_NS}" xmlns:xsi="${XSI}">` +
      `<soapenv:Body><soapenv:Fault><faultcode>sf:INVALID_SESSION_ID</faultcode>` +
      `<faultstring>INVALID_SESSION_ID: Invalid Session ID found in SessionHeader: Illegal Session</faultstring>` +
      `<detail><sf:fault xsi:type="sf:ApiFault"><sf:exceptionCode>INVALID_SESSION_ID</sf:exceptionCode>` +
      `<sf:exceptionMessage>Invalid Session ID found in SessionHeader: Illegal Session</sf:exceptionMessage></sf:fault></detail>` +
      `</soapenv:Fault></soapenv:Body></soapenv:Envelope>`,
    code: { ns: FAULT_NS, local: "INVALID_SESSION_ID" },
    message: "INVALID_SESSION_ID: Invalid Session ID found in SessionHeader: Illegal Session",
    exceptionCode: "INVALID_SESSION_ID",
  },
  {
    stack: ".NET WCF SOAP 1.1 (s:, code prefix declared on faultcode, xml:lang), HTTP 500, no detail",
    status: 500,
    body:
      `<s:Envelope xmlns:s="${S11}"><s:Body><s:Fault><faultcode xmlns:a="${WCF_DISPATCHER}">a:InternalServiceFault</faultcode>` +
      `<faultstring xml:lang="en-US">The server was unable to process the request due to an internal error.</faultstring>` +
      `</s:Fault></s:Body></s:Envelope>`,
    code: { ns: WCF_DISPATCHER, local: "InternalServiceFault" },
    message: "The server was unable to process the request due to an internal error.",
  },
  {
    stack: ".NET WCF SOAP 1.1 FaultException<T> (detail in a default namespace, i: for xsi), HTTP 500",
    status: 500,
    body:
      `<s:Envelope xmlns:s="${S11}"><s:Body><s:Fault><faultcode>s:Client</faultcode>` +
      `<faultstring xml:lang="en-US">Invalid Session ID found in SessionHeader</faultstring>` +
      `<detail>${partnerDetail("", ` xmlns="${FAULT_NS}" xmlns:i="${XSI}"`)}</detail></s:Fault></s:Body></s:Envelope>`,
    code: { ns: S11, local: "Client" },
    message: "Invalid Session ID found in SessionHeader",
    exceptionCode: "INVALID_SESSION_ID",
  },
  {
    stack: ".NET WCF SOAP 1.2 (s:, WS-Addressing header, Receiver + Subcode), HTTP 500",
    status: 500,
    body:
      `<s:Envelope xmlns:s="${S12}" xmlns:a="http://www.w3.org/2005/08/addressing"><s:Header>` +
      `<a:Action s:mustUnderstand="1">http://www.w3.org/2005/08/addressing/soap/fault</a:Action></s:Header>` +
      `<s:Body><s:Fault><s:Code><s:Value>s:Receiver</s:Value><s:Subcode><s:Value xmlns:a="${WCF_DISPATCHER}">a:InternalServiceFault</s:Value>` +
      `</s:Subcode></s:Code><s:Reason><s:Text xml:lang="en-US">The server was unable to process the request.</s:Text></s:Reason>` +
      `</s:Fault></s:Body></s:Envelope>`,
    code: { ns: WCF_DISPATCHER, local: "InternalServiceFault" },
    message: "The server was unable to process the request.",
  },
  {
    stack: "JAX-WS RI SOAP 1.1 (S:, Fault under its own ns2: prefix, stack trace detail first), HTTP 500",
    status: 500,
    body:
      `<S:Envelope xmlns:S="${S11}"><S:Body><ns2:Fault xmlns:ns2="${S11}" xmlns:ns3="${S12}"><faultcode>ns2:Server</faultcode>` +
      `<faultstring>Invalid Session ID found in SessionHeader</faultstring><detail>` +
      `<ns2:exception xmlns:ns2="http://jax-ws.dev.java.net/" class="com.example.ApiFault" note="To disable this feature, set com.sun.xml.ws.fault.SOAPFaultBuilder.disableCaptureStackTrace system property to false">` +
      `<message>Invalid Session ID found in SessionHeader</message><ns2:stackTrace><ns2:frame class="com.example.Api" file="Api.java" line="42" method="query"/></ns2:stackTrace></ns2:exception>` +
      `${partnerDetail("ns3:", ` xmlns:ns3="${FAULT_NS}"`)}</detail></ns2:Fault></S:Body></S:Envelope>`,
    code: { ns: S11, local: "Server" },
    message: "Invalid Session ID found in SessionHeader",
    exceptionCode: "INVALID_SESSION_ID",
  },
  {
    stack: "JAX-WS RI SOAP 1.2 (S:, Sender, Detail), HTTP 500",
    status: 500,
    body:
      `<S:Envelope xmlns:S="${S12}"><S:Body><S:Fault xmlns:ns4="${S11}"><S:Code><S:Value>S:Sender</S:Value></S:Code>` +
      `<S:Reason><S:Text xml:lang="en">Invalid Session ID found in SessionHeader</S:Text></S:Reason>` +
      `<S:Detail>${partnerDetail("ns2:", ` xmlns:ns2="${FAULT_NS}"`)}</S:Detail></S:Fault></S:Body></S:Envelope>`,
    code: { ns: S12, local: "Sender" },
    message: "Invalid Session ID found in SessionHeader",
    exceptionCode: "INVALID_SESSION_ID",
  },
  {
    stack: "Apache Axis 1 (soapenv:, Server.userException, hostname in detail, faultactor), HTTP 500",
    status: 500,
    body:
      `<?xml version="1.0" encoding="UTF-8"?>\n<soapenv:Envelope xmlns:soapenv="${S11}" xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:xsi="${XSI}">\n` +
      ` <soapenv:Body>\n  <soapenv:Fault>\n   <faultcode xmlns:ns1="http://xml.apache.org/axis/">ns1:Server.userException</faultcode>\n` +
      `   <faultstring>java.rmi.RemoteException: session expired</faultstring>\n   <faultactor>http://partner.example/services/Soap</faultactor>\n   <detail>\n` +
      `    <ns2:hostname xmlns:ns2="http://xml.apache.org/axis/">app01</ns2:hostname>\n   </detail>\n  </soapenv:Fault>\n </soapenv:Body>\n</soapenv:Envelope>`,
    code: { ns: "http://xml.apache.org/axis/", local: "Server.userException" },
    message: "java.rmi.RemoteException: session expired",
    actor: "http://partner.example/services/Soap",
  },
  {
    stack: "Apache Axis2 (soapenv:, empty detail), HTTP 500",
    status: 500,
    body:
      `<?xml version='1.0' encoding='UTF-8'?><soapenv:Envelope xmlns:soapenv="${S11}"><soapenv:Body><soapenv:Fault>` +
      `<faultcode>soapenv:Server</faultcode><faultstring>Exception occurred while trying to invoke service method query</faultstring>` +
      `<detail /></soapenv:Fault></soapenv:Body></soapenv:Envelope>`,
    code: { ns: S11, local: "Server" },
    message: "Exception occurred while trying to invoke service method query",
  },
  {
    stack: "node-soap (soap:, tns: declared on the envelope, fault code in no namespace), HTTP 500",
    status: 500,
    body:
      `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="${S11}" xmlns:tns="urn:partner.api.example">` +
      `<soap:Body><soap:Fault><faultcode>Server</faultcode><faultstring>Invalid Session ID found in SessionHeader</faultstring>` +
      `<detail>${partnerDetail("fns:", ` xmlns:fns="${FAULT_NS}"`)}</detail></soap:Fault></soap:Body></soap:Envelope>`,
    code: { ns: S11, local: "Server" },
    message: "Invalid Session ID found in SessionHeader",
    exceptionCode: "INVALID_SESSION_ID",
  },
  {
    stack: "SOAP 1.2 (soap:, two Reason texts, Role, a Subcode whose prefix the sender forgot to declare), HTTP 500",
    status: 500,
    body:
      `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="${S12}"><soap:Body><soap:Fault>` +
      `<soap:Code><soap:Value>soap:Sender</soap:Value><soap:Subcode><soap:Value>rpc:BadArguments</soap:Value></soap:Subcode></soap:Code>` +
      `<soap:Reason><soap:Text xml:lang="de">Ungültige Sitzung</soap:Text><soap:Text xml:lang="en">Invalid session</soap:Text></soap:Reason>` +
      `<soap:Role>urn:partner:gateway</soap:Role></soap:Fault></soap:Body></soap:Envelope>`,
    // rpc: is undeclared in this fault: the code is kept as written rather than losing the whole fault.
    code: { ns: "", local: "rpc:BadArguments" },
    message: "Invalid session",
    actor: "urn:partner:gateway",
  },
  {
    stack: "Python spyne (soap11env:, dotted Client.ValidationError, empty faultactor), HTTP 500",
    status: 500,
    body:
      `<?xml version='1.0' encoding='UTF-8'?>\n<soap11env:Envelope xmlns:soap11env="${S11}"><soap11env:Body><soap11env:Fault>` +
      `<faultcode>soap11env:Client.ValidationError</faultcode><faultstring>The value "'x'" could not be validated.</faultstring>` +
      `<faultactor></faultactor></soap11env:Fault></soap11env:Body></soap11env:Envelope>`,
    code: { ns: S11, local: "Client.ValidationError" },
    message: `The value "'x'" could not be validated.`,
    actor: "",
  },
  {
    stack: "SOAP-ENV: with the fault sent as HTTP 200 (as some gateways and older PHP SoapServer setups do)",
    status: 200,
    body:
      `<?xml version="1.0" encoding="UTF-8"?>\n<SOAP-ENV:Envelope xmlns:SOAP-ENV="${S11}"><SOAP-ENV:Body><SOAP-ENV:Fault>` +
      `<faultcode>SOAP-ENV:Client</faultcode><faultstring>Invalid Session ID found in SessionHeader</faultstring>` +
      `<detail>${partnerDetail("ns1:", ` xmlns:ns1="${FAULT_NS}"`)}</detail></SOAP-ENV:Fault></SOAP-ENV:Body></SOAP-ENV:Envelope>`,
    code: { ns: S11, local: "Client" },
    message: "Invalid Session ID found in SessionHeader",
    exceptionCode: "INVALID_SESSION_ID",
  },
  {
    stack: "env: SOAP 1.2 with a default-namespace Fault inside, HTTP 200",
    status: 200,
    body:
      `<env:Envelope xmlns:env="${S12}"><env:Body><Fault xmlns="${S12}"><Code><Value>env:Receiver</Value></Code>` +
      `<Reason><Text xml:lang="en">Internal error</Text></Reason><Detail>${partnerDetail("f:", ` xmlns:f="${FAULT_NS}"`)}</Detail></Fault>` +
      `</env:Body></env:Envelope>`,
    code: { ns: S12, local: "Receiver" },
    message: "Internal error",
    exceptionCode: "INVALID_SESSION_ID",
  },
];
