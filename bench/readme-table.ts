import type { BenchResult } from "./harness.js";

/** The rows of the README's performance table and how they are written (used by scripts/bench-readme.ts). */

/** README label -> the result's name in bench/results.json (a prefix is enough). */
const ROWS: readonly (readonly [string, string])[] = [
  ["Generate `sf-partner-v40.wsdl` (386 KB), CLI, child process", "generate sf-partner-v40.wsdl"],
  ["Generate 26 corpus `.proto` files, CLI", "generate 26 corpus protos"],
  ["Generate `content.proto` repeated 100x, CLI", "generate content.proto x100"],
  ["Decode spinn3r_test2 (815 KB)", "protobuf decode spinn3r_test2"],
  ["Encode spinn3r_test2", "protobuf encode spinn3r_test2"],
  ["Decode vector_tile (125 KB)", "protobuf decode vector_tile"],
  ["Encode vector_tile", "protobuf encode vector_tile"],
  ["Decode bench_common (79 B)", "protobuf decode bench_common"],
  ["Encode bench_common (79 B)", "protobuf encode bench_common"],
  ["ProtoJSON fromJson spinn3r_test2", "protojson fromJson spinn3r_test2"],
  ["`isWebhook` on an invalid Webhook, vs typia", "Webhook invalid: isWebhook vs typia"],
  ["`isWebhook` on an invalid Webhook, vs ajv", "Webhook invalid: isWebhook vs ajv"],
  ["`validateWebhook` (all errors) on a valid Webhook, vs typia", "Webhook valid: validateWebhook vs typia"],
  ["`validateWebhook` (all errors) on a valid Webhook, vs ajv", "Webhook valid: validateWebhook vs ajv"],
  ["`validateWebhook` (all errors) on an invalid Webhook, vs typia", "Webhook invalid: validateWebhook vs typia"],
  ["`validateWebhook` (all errors) on an invalid Webhook, vs ajv", "Webhook invalid: validateWebhook vs ajv"],
  ["`isMember` on a valid Member, vs typia", "Member valid: isMember vs typia"],
  ["`isMember` on a valid Member, vs ajv", "Member valid: isMember vs ajv"],
  ["SOAP encode `create` of 200 sObjects, vs node-soap", "soap encode create (200 sObjects x 10 fields) vs node-soap"],
  ["SOAP encode `create`, vs fast-xml-parser XMLBuilder (untyped)", "soap encode create (200 sObjects x 10 fields) vs fast-xml-parser XMLBuilder"],
  ["SOAP decode 200-record `queryResponse` (client path), vs node-soap", "soap decode queryResponse (200 records) vs node-soap"],
  ["SOAP decode `queryResponse`, vs txml `parse` (untyped)", "soap decode queryResponse (200 records) vs txml"],
  ["SOAP decode `queryResponse`, vs fast-xml-parser (untyped)", "soap decode queryResponse (200 records) vs fast-xml-parser"],
  ["REST GET through the generated server, node:http on loopback", "rest server GET /webhooks/{id} (node:http loopback)"],
  ["gRPC unary, each stack's client + server, h2c loopback, vs grpc-js", "rpc gRPC unary (h2c loopback, client+server) vs grpc-js"],
  ["gRPC unary, vs connect-node", "rpc gRPC unary (h2c loopback, client+server) vs connect-node"],
  ["gRPC server stream, h2c loopback, vs grpc-js", "rpc gRPC server stream (h2c loopback) vs grpc-js"],
  ["gRPC server stream, vs connect-node", "rpc gRPC server stream (h2c loopback) vs connect-node"],
  // Bundle sizes (bench/bundle.bench.ts): esbuild-minified bytes a page carries; the ratio is > 1 when ours is smaller.
  ["Bundle: one validator (`isWebhook`), minified / +gzip", "bundle: one validator (isWebhook), minified"],
  ["", "bundle: one validator (isWebhook), minified+gzip"],
  ["Bundle: protobuf encode + decode of one message", "bundle: protobuf encode+decode of one message (Link), minified"],
  ["", "bundle: protobuf encode+decode of one message (Link), minified+gzip"],
  ["Bundle: Connect client, one server-streaming call", "bundle: Connect client, one server-streaming call, minified"],
  ["", "bundle: Connect client, one server-streaming call, minified+gzip"],
  ["Bundle: REST client, one call", "bundle: REST client, one call (listWebhooks), minified"],
  ["", "bundle: REST client, one call (listWebhooks), minified+gzip"],
  ["Bundle: SOAP client, one call (Salesforce partner `login`)", "bundle: SOAP client, one call (login), minified"],
  ["", "bundle: SOAP client, one call (login), minified+gzip"],
];

function figure(n: number): string {
  return n >= 100 ? Math.round(n).toLocaleString("en-US") : String(n);
}

function ratioCell(r: BenchResult): string {
  if (r.runs === undefined || r.runs < 2) return `x${r.ratio}`;
  return `x${r.ratio} (x${r.ratioMin}-x${r.ratioMax})`;
}

export function benchTable(results: readonly BenchResult[]): string {
  const lines = ["| Case | specforge | Fastest (smallest) peer | Ratio |", "|---|---|---|---|"];
  const runs = new Set<number>();
  for (const [label, name] of ROWS) {
    const r = results.find((x) => x.name.startsWith(name));
    if (r === undefined) throw new Error(`bench/results.json has no result named ${JSON.stringify(name)}: run npm run bench`);
    runs.add(r.runs ?? 1);
    // A row without a label continues the one above (the gzipped figure of a bundle).
    const shown = label === "" ? (r.name.endsWith("+gzip") ? "... gzipped" : r.name) : label;
    lines.push(`| ${shown} | ${figure(r.ours)} ${r.unit} | ${r.peerName}: ${figure(r.peer)} | ${ratioCell(r)} |`);
  }
  const counts = [...runs].sort((a, b) => a - b).join(" or ");
  lines.push("");
  lines.push(
    `Each ratio is the median of ${counts} full run(s) of \`npm run bench\`; in brackets, the lowest and highest ratio ` +
      "of those runs. The full table, every payload and case, is in `bench/results.json`. Bundle rows are bytes, so " +
      "their ratio is the smallest peer's size over ours (> 1: ours is smaller).",
  );
  return lines.join("\n");
}
export const TABLE_ROWS = ROWS.length;
