import type { Token } from "./lexer.js";

/** The parsed form of the documented query subset (see examples/partner/README.md). Field names keep their token. */
export interface SelectQuery {
  readonly fields: readonly Token[];
  readonly from: Token;
  readonly where?: Condition;
  readonly orderBy: readonly OrderItem[];
  readonly limit?: number;
}

export interface OrderItem {
  readonly field: Token;
  readonly descending: boolean;
  /** NULLS FIRST / NULLS LAST; by default nulls sort first ascending and last descending. */
  readonly nullsLast: boolean;
}

export type Literal =
  | { readonly kind: "string"; readonly value: string; readonly token: Token }
  | { readonly kind: "number"; readonly value: number; readonly token: Token }
  | { readonly kind: "boolean"; readonly value: boolean; readonly token: Token }
  | { readonly kind: "date"; readonly value: string; readonly token: Token }
  | { readonly kind: "null"; readonly token: Token };

export type CompareOp = "=" | "!=" | "<" | "<=" | ">" | ">=";

export type Condition =
  | { readonly kind: "and" | "or"; readonly left: Condition; readonly right: Condition }
  | { readonly kind: "not"; readonly of: Condition }
  | { readonly kind: "compare"; readonly field: Token; readonly op: CompareOp; readonly value: Literal }
  | { readonly kind: "in"; readonly field: Token; readonly values: readonly Literal[]; readonly negated: boolean }
  | { readonly kind: "like"; readonly field: Token; readonly pattern: string };
