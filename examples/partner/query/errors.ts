/**
 * A query or search the emulator refuses. The handlers turn it into an ApiQueryFault whose row and column point at
 * the token that went wrong (1-based, like the service's own messages).
 */
export class QueryError extends Error {
  readonly row: number;
  readonly column: number;

  constructor(
    /** ExceptionCode: MALFORMED_QUERY, INVALID_FIELD, INVALID_TYPE, MALFORMED_SEARCH. */
    readonly code: string,
    message: string,
    where: { readonly row: number; readonly column: number },
  ) {
    super(`${message} at row ${where.row}, column ${where.column}`);
    this.name = "QueryError";
    this.row = where.row;
    this.column = where.column;
  }
}
