/**
 * The corpus documents whose examples the agreement test checks, with what the walk must find in each (so an example
 * the walk stops finding is noticed). Adding a document is one line; the test checks every entry document of
 * shared/corpus/openapi is listed.
 */

export interface DocumentCase {
  /** Path under shared/corpus/openapi. */
  readonly file: string;
  /** Examples found (with a value), of which `withoutSchema` have no schema to check; `skipped` were not read. */
  readonly examples: number;
  readonly withoutSchema?: number;
  readonly skipped?: number;
  /** A document specforge cannot generate yet: the test checks it still fails with this error, and why. */
  readonly gap?: { readonly error: string; readonly reason: string };
}

/** Run in the unit project (test/openapi-examples/agreement.test.ts). */
export const DOCUMENTS: readonly DocumentCase[] = [
  { file: "oai/v3.0-api-with-examples.yaml", examples: 4, withoutSchema: 4 },
  { file: "oai/v3.0-callback-example.yaml", examples: 2 },
  { file: "oai/v3.0-link-example.yaml", examples: 0 },
  { file: "oai/v3.0-petstore-expanded.yaml", examples: 0 },
  { file: "oai/v3.0-petstore.yaml", examples: 0 },
  { file: "oai/v3.0-uspto.yaml", examples: 3 },
  { file: "oai/v3.1-non-oauth-scopes.yaml", examples: 0 },
  { file: "oai/v3.1-tictactoe.yaml", examples: 7 },
  { file: "oai/v3.1-webhook-example.yaml", examples: 0 },
  { file: "oai/v2.0/api-with-examples.yaml", examples: 4, withoutSchema: 4 },
  { file: "oai/v2.0/petstore-expanded.yaml", examples: 0 },
  { file: "oai/v2.0/petstore-minimal.yaml", examples: 0 },
  { file: "oai/v2.0/petstore-simple.yaml", examples: 0 },
  { file: "oai/v2.0/petstore-with-external-docs.yaml", examples: 0 },
  { file: "oai/v2.0/petstore.yaml", examples: 0 },
  { file: "oai/v2.0/uber.yaml", examples: 0 },
  { file: "oai/v2.0/petstore-separate/spec/swagger.yaml", examples: 0 },
];

/** Run in the "large" project (test/large/openapi-examples.test.ts): seconds to read, tens of seconds to compare. */
export const LARGE_DOCUMENTS: readonly DocumentCase[] = [
  // Stripe's 2022-03 document carries no `example` or `examples` at all: nothing to compare until a version does.
  { file: "stripe/spec3.json", examples: 0 },
  {
    file: "digitalocean/DigitalOcean-public.v2.yaml",
    examples: 1969,
    // One application/yaml example (not a JSON value).
    skipped: 1,
  },
];
