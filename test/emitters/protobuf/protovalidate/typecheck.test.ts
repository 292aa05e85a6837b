/** The validators generated for the protovalidate fixtures (standard rules, CEL, protoc-gen-validate, a service
 * with request validation) type-check under strict, with every other proto artifact, as users compile them. */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { nodeSpecHost } from "../../../../src/parsers/host.js";
import { generateSpec } from "../../../../src/pipeline/generate-files.js";
import { SHARED } from "../../../helpers/seeds.js";
import { typecheckFiles } from "../../../helpers/typecheck.js";
import { BUF_VALIDATE_STUB } from "./harness.js";

const FIXTURES = path.join(path.dirname(fileURLToPath(import.meta.url)), "fixtures");

describe("generated code for protovalidate rules", () => {
  it("type-checks under strict", () => {
    const stub = mkdtempSync(path.join(tmpdir(), "specforge-pv-stub-"));
    try {
      mkdirSync(path.join(stub, "buf/validate"), { recursive: true });
      mkdirSync(path.join(stub, "validate"), { recursive: true });
      writeFileSync(path.join(stub, "buf/validate/validate.proto"), BUF_VALIDATE_STUB);
      writeFileSync(path.join(stub, "validate/validate.proto"), 'syntax = "proto2";\npackage validate;\n');
      const files = new Map<string, string>();
      for (const entry of ["rules.proto", "cel.proto", "pgv.proto", "service.proto", "warnings.proto", "predefined.proto"]) {
        const out = generateSpec({ file: path.join(FIXTURES, entry), display: entry }, nodeSpecHost({ includeDirs: [FIXTURES, stub, path.join(SHARED, "corpus/proto")] }));
        for (const f of out.files) files.set(f.path, f.content);
      }
      expect([...files.keys()].filter((f) => f.endsWith("/validate.ts")).length).toBe(6);
      expect(typecheckFiles(files).filter((d) => !d.startsWith(".."))).toEqual([]);
    } finally {
      rmSync(stub, { recursive: true, force: true });
    }
  });
});
