/**
 * Do libxml2 (xmllint, XSD 1.0) and python's xmlschema (XSD 1.0 and 1.1 validators, judge.ts) agree on the suite's
 * XSD 1.0 groups? Over one group in <every> (default 25, the npm test sample's hash; `--every 1` for all): every
 * instance document as the suite has it, judged by both, and compared with the suite's expected validity.
 *   npx tsx conformance/xsd/compare-judges.ts [--every <n>]
 * Prints counts and the first disagreements.
 */
import path from "node:path";
import { inSample } from "./known-failures.js";
import { judgeFiles, stopJudge } from "./judge.js";
import { xmllint } from "./run.js";
import { readSuite, XSDTESTS } from "./suite.js";

const args = process.argv.slice(2);
const every = Number(args[args.indexOf("--every") + 1] || 25);
const groups = readSuite(undefined, { xsd11: false }).groups.filter((g) => every <= 1 || inSample(g.id, every));
const n = { groups: groups.length, instances: 0, agree10: 0, agree11: 0, libxml2Right: 0, xmlschema10Right: 0, xmlschema11Right: 0, schemaErrors: { libxml2: 0, xmlschema10: 0, xmlschema11: 0 } };
const disagreements: string[] = [];
for (const g of groups) {
  const schema = path.join(XSDTESTS, g.schema);
  const files = g.instances.map((i) => path.join(XSDTESTS, i.file));
  if (files.length === 0) continue;
  const a = xmllint(schema, files);
  const b = await judgeFiles(schema, files, "1.0");
  const c = await judgeFiles(schema, files, "1.1");
  if (a.schemaError) n.schemaErrors.libxml2++;
  if (b.schemaError) n.schemaErrors.xmlschema10++;
  if (c.schemaError) n.schemaErrors.xmlschema11++;
  g.instances.forEach((inst, i) => {
    const f = files[i]!;
    const x = a.schemaError ? undefined : a.files.get(f);
    const y = b.schemaError ? undefined : b.files.get(f)?.[0];
    const z = c.schemaError ? undefined : c.files.get(f)?.[0];
    n.instances++;
    if (x === y) n.agree10++;
    else if (disagreements.length < 30) disagreements.push(`${inst.id} expected ${inst.valid ? "valid" : "invalid"}: libxml2 ${x ?? "schema error"}, xmlschema 1.0 ${y ?? "schema error"} (${b.schemaError ?? b.files.get(f)?.[1] ?? ""})`.slice(0, 300));
    if (y === z) n.agree11++;
    if (x === inst.valid) n.libxml2Right++;
    if (y === inst.valid) n.xmlschema10Right++;
    if (z === inst.valid) n.xmlschema11Right++;
  });
}
stopJudge();
console.log(JSON.stringify(n, null, 1));
console.log(disagreements.join("\n"));
