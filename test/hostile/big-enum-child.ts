/**
 * Child process of limits.test.ts: parse an OpenAPI file holding a 50 MB enum value (argv[2]) and print the value's
 * length. Run with a bounded heap, it shows the parse does not need gigabytes.
 */
import { nodeSpecHost } from "../../src/parsers/host.js";
import { loadSpec } from "../../src/pipeline/load-spec.js";

const doc = loadSpec(process.argv[2]!, nodeSpecHost({}));
const big = doc.types.find((t) => t.kind === "enum");
const values = big?.kind === "enum" ? big.values.map((v) => String(v.value).length) : [];
process.stdout.write(JSON.stringify({ values, rss: process.memoryUsage().rss }));
