import { partnerServiceFault, type ExceptionCode } from "../../generated/partner/index.js";
import type { QueryError } from "./query/errors.js";

/**
 * The call-level faults the emulator throws. The faultcode is the exception code as a QName in the fault namespace
 * (fns:INVALID_LOGIN); the faultstring repeats code and message, as the service does; the detail is the typed element.
 */
const text = (code: string, message: string) => `${code}: ${message}`;

export function apiFault(code: ExceptionCode, message: string) {
  return partnerServiceFault("ApiFault", { exceptionCode: code, exceptionMessage: message }, { code, message: text(code, message) });
}

export function loginFault(code: ExceptionCode, message: string) {
  return partnerServiceFault("LoginFault", { $type: "LoginFault", exceptionCode: code, exceptionMessage: message }, { code, message: text(code, message) });
}

export function invalidIdFault(code: ExceptionCode, message: string) {
  return partnerServiceFault("InvalidIdFault", { $type: "InvalidIdFault", exceptionCode: code, exceptionMessage: message }, { code, message: text(code, message) });
}

export function invalidNewPasswordFault(message: string) {
  const code = "INVALID_NEW_PASSWORD";
  return partnerServiceFault("InvalidNewPasswordFault", { $type: "InvalidNewPasswordFault", exceptionCode: code, exceptionMessage: message }, { code, message: text(code, message) });
}

export function invalidQueryLocatorFault(message: string) {
  const code = "INVALID_QUERY_LOCATOR";
  return partnerServiceFault("InvalidQueryLocatorFault", { $type: "InvalidQueryLocatorFault", exceptionCode: code, exceptionMessage: message }, { code, message: text(code, message) });
}

/** MALFORMED_QUERY, INVALID_FIELD, INVALID_TYPE, MALFORMED_SEARCH with the row and column of the offending token. */
export function queryFault(e: QueryError) {
  const code = e.code as ExceptionCode;
  return partnerServiceFault(
    "ApiQueryFault",
    { $type: "ApiQueryFault", exceptionCode: code, exceptionMessage: e.message, row: e.row, column: e.column },
    { code, message: text(code, e.message) },
  );
}
