import { test } from "vitest";
import { execSync } from "node:child_process";
import { writeFileSync, mkdirSync } from "node:fs";
import { parseProto } from "../../../src/parsers/proto/index.js";
import { nodeSpecHost } from "../../../src/parsers/host.js";
test("scratch", () => {
  const dir = "/work/shared/corpus/proto";
  const files = execSync(`find ${dir} -name '*.proto'`).toString().trim().split("\n").sort();
  for (const f of files) {
    try {
      const doc = parseProto(f, nodeSpecHost({ includeDirs: [dir] }));
      mkdirSync("/tmp/ir", { recursive: true });
      writeFileSync("/tmp/ir/" + f.slice(dir.length + 1).replace(/\//g, "_") + ".json", JSON.stringify(doc, null, 1));
      console.log("OK", f.slice(dir.length + 1), doc.types.length, doc.extensions.length, doc.services.length, doc.files.length);
    } catch (e) {
      console.log("FAIL", f.slice(dir.length + 1), (e as Error).message);
    }
  }
});
