import type { SoapNamespaceFamily } from "../../src/runtime/index.js";

/**
 * The real service's namespaces, as its published partner WSDLs declare them (v13 through v40 and later all use
 * these three), keyed by the placeholder namespace specs/partner.wsdl uses for the same schema. The emulator gives
 * this family to the generated server as `namespaceAliases`: a client generated from the real WSDL is read as if it
 * spoke the spec's namespaces and answered in its own.
 */
export const REAL_SERVICE_NAMESPACES: SoapNamespaceFamily = {
  "urn:partner.api.example": "urn:partner.soap.sforce.com",
  "urn:sobject.api.example": "urn:sobject.partner.soap.sforce.com",
  "urn:fault.api.example": "urn:fault.partner.soap.sforce.com",
};
