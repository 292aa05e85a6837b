import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import ts from "typescript";
import { afterEach, describe, expect, it } from "vitest";
import { check, generate } from "../../src/api.js";
import type { PipelineEvent } from "../../src/pipeline/events.js";
import { listFiles } from "../../src/pipeline/write-output.js";
import { STRICT_OPTIONS } from "../helpers/typecheck.js";

/**
 * One output module per input file (src/pipeline/module-layout.ts): two entry protos importing a common one get
 * the common file's code once, in a folder of its own, and both use its one declaration of the shared message.
 */
const roots: string[] = [];
afterEach(() => roots.splice(0).forEach((r) => rmSync(r, { recursive: true, force: true })));

const COMMON = `syntax = "proto3";
package shop;
// A sum of money.
message Money {
  int64 units = 1;
  string currency = 2;
  Kind kind = 3;
  repeated Money parts = 4;
}
enum Kind { KIND_UNSPECIFIED = 0; CASH = 1; CARD = 2; }
`;

const ORDERS = `syntax = "proto3";
package shop;
import "protos/common.proto";
message Order {
  Money total = 1;
  repeated Money lines = 2;
  map<string, Money> by_tax = 3;
  Kind paid_with = 4;
}
service Orders { rpc Place(Order) returns (Money); }
`;

const INVOICES = `syntax = "proto3";
package billing;
import "protos/common.proto";
message Invoice {
  shop.Money amount = 1;
  oneof due { shop.Money now = 2; string later = 3; }
}
`;

function project(): string {
  const dir = mkdtempSync(path.join(tmpdir(), "specforge-modules-"));
  roots.push(dir);
  mkdirSync(path.join(dir, "protos"));
  writeFileSync(path.join(dir, "protos/common.proto"), COMMON);
  writeFileSync(path.join(dir, "orders.proto"), ORDERS);
  writeFileSync(path.join(dir, "invoices.proto"), INVOICES);
  writeFileSync(path.join(dir, "specforge.config.json"), JSON.stringify({ out: "gen", specs: ["orders.proto", "invoices.proto"], protoPaths: ["."] }));
  return dir;
}

/** Every file under the output root, path -> text. */
function outputFiles(dir: string): Map<string, string> {
  const out = path.join(dir, "gen");
  return new Map(listFiles(out).map((f) => [f, readFileSync(path.join(out, f), "utf8")]));
}

describe("one output module per input file (protos)", () => {
  it("emits the common file once, in its own folder, and the entries import it", () => {
    const dir = project();
    const events: PipelineEvent[] = [];
    const result = generate({ cwd: dir, onEvent: (e) => events.push(e) });
    expect(result.outputs.map((o) => o.dir)).toEqual(["orders", "invoices", "common"]);
    const files = outputFiles(dir);
    // The shared message is declared in exactly one file, and its codec written once.
    const declaring = [...files].filter(([, text]) => /export interface Money\b/.test(text)).map(([f]) => f);
    expect(declaring).toEqual(["common/types.ts"]);
    const writers = [...files].filter(([, text]) => /^function writeMoney\(/m.test(text)).map(([f]) => f);
    expect(writers).toEqual(["common/protobuf.ts"]);
    for (const entry of ["orders", "invoices"]) {
      expect(files.get(`${entry}/protobuf.ts`)).toContain('from "../common/protobuf.js"');
      expect(files.get(`${entry}/types.ts`)).toContain('from "../common/types.js"');
    }
    // The common module is a folder like a spec's: its manifest, and its own `generated` event.
    expect(JSON.parse(files.get("common/.specforge-manifest.json")!).files).toContain("protobuf.ts");
    expect(events.filter((e) => e.type === "generated").map((e) => (e as { spec: string }).spec)).toEqual(["orders.proto", "invoices.proto", "protos/common.proto"]);
  });

  it("gives both entries the one TypeScript type of the shared message (strict tsc)", () => {
    const dir = project();
    generate({ cwd: dir });
    const usage = `import { encodeOrder, decodeOrder, type Money, type Order } from "./gen/orders/index.js";
import { decodeInvoice, encodeInvoice, type Invoice, type Money as InvoiceMoney } from "./gen/invoices/index.js";
import { decodeMoney } from "./gen/common/index.js";
export const money: Money = { units: 12n, currency: "EUR", kind: "CARD", parts: [] };
const invoice: Invoice = { amount: money, due: { case: "now", value: money } };
const order: Order = { total: decodeInvoice(encodeInvoice(invoice)).amount!, lines: [money], byTax: { vat: money }, paidWith: "CASH" };
export const back: InvoiceMoney = decodeOrder(encodeOrder(order)).total!;
export const direct: Money = decodeMoney(new Uint8Array());
`;
    writeFileSync(path.join(dir, "usage.ts"), usage);
    const program = ts.createProgram([path.join(dir, "usage.ts")], STRICT_OPTIONS);
    const diagnostics = ts.getPreEmitDiagnostics(program).map((d) => {
      const at = d.file && d.start !== undefined ? `${path.relative(dir, d.file.fileName)}:${d.file.getLineAndCharacterOfPosition(d.start).line + 1}: ` : "";
      return at + ts.flattenDiagnosticMessageText(d.messageText, "\n");
    });
    expect(diagnostics).toEqual([]);
    // Not merely compatible shapes: both names resolve to the one declaration in common/types.ts.
    const checker = program.getTypeChecker();
    const source = program.getSourceFile(path.join(dir, "usage.ts"))!;
    const declarationOf = (local: string): string[] => {
      let found: ts.Symbol | undefined;
      source.forEachChild(function visit(node): void {
        if (ts.isImportSpecifier(node) && node.name.text === local) found = checker.getSymbolAtLocation(node.name);
        node.forEachChild(visit);
      });
      const target = checker.getAliasedSymbol(found!);
      return (target.declarations ?? []).map((d) => `${path.relative(dir, d.getSourceFile().fileName)}:${d.pos}`);
    };
    expect(declarationOf("Money")).toEqual(declarationOf("InvoiceMoney"));
    expect(declarationOf("Money")[0]).toMatch(/^gen\/common\/types\.ts:/);
    // tsc checks the runtime's source with the generated files (as the goldens do): tens of seconds on a busy machine.
  }, 180_000);

  it("is deterministic: a second generate writes nothing, another working folder gives the same bytes", () => {
    const dir = project();
    generate({ cwd: dir });
    const first = outputFiles(dir);
    expect(generate({ cwd: dir }).written).toEqual([]);
    const elsewhere = mkdtempSync(path.join(tmpdir(), "specforge-cwd-"));
    roots.push(elsewhere);
    const again = generate({ cwd: elsewhere, config: path.join(dir, "specforge.config.json"), dryRun: true });
    const bytes = new Map(again.outputs.flatMap((o) => o.files.map((f) => [f.path, f.content] as const)));
    expect(new Map([...bytes].sort())).toEqual(new Map([...first].sort()));
  });

  it("check finds a hand edit in the shared module", () => {
    const dir = project();
    generate({ cwd: dir });
    expect(check({ cwd: dir }).differences).toEqual([]);
    const file = path.join(dir, "gen/common/protobuf.ts");
    writeFileSync(file, readFileSync(file, "utf8").replace("function writeMoney(", "function writeMoney2("));
    expect(check({ cwd: dir }).differences.map((d) => [d.path, d.state])).toEqual([["common/protobuf.ts", "stale"]]);
  });

  it("places imported files with the same base name apart, away from specs' folders", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "specforge-modules-"));
    roots.push(dir);
    for (const d of ["a", "b", "c"]) mkdirSync(path.join(dir, "protos", d), { recursive: true });
    writeFileSync(path.join(dir, "protos/a/common.proto"), 'syntax = "proto3";\npackage a;\nmessage Id { string v = 1; }\n');
    writeFileSync(path.join(dir, "protos/b/common.proto"), 'syntax = "proto3";\npackage b;\nmessage Ref { int32 v = 1; }\n');
    writeFileSync(path.join(dir, "protos/c/common.proto"), 'syntax = "proto3";\npackage c;\nmessage Id { bool v = 1; }\n');
    writeFileSync(path.join(dir, "x.proto"), 'syntax = "proto3";\npackage x;\nimport "a/common.proto";\nimport "b/common.proto";\nmessage X { a.Id a = 1; b.Ref b = 2; }\n');
    // Two imported files both declaring `Id` (other packages): imports are not aliased yet, so w is self-contained.
    writeFileSync(path.join(dir, "w.proto"), 'syntax = "proto3";\npackage w;\nimport "a/common.proto";\nimport "c/common.proto";\nmessage W { a.Id a = 1; c.Id c = 2; }\n');
    writeFileSync(path.join(dir, "y.proto"), 'syntax = "proto3";\npackage y;\nmessage Y { string s = 1; }\n');
    // A spec's folder nested where an imported file's folder would go: that folder is not taken either.
    const config = { out: "gen", protoPaths: ["protos"], specs: ["x.proto", "w.proto", { input: "y.proto", out: "protos-b-common/y" }] };
    writeFileSync(path.join(dir, "specforge.config.json"), JSON.stringify(config));
    const result = generate({ cwd: dir });
    expect(result.outputs.map((o) => o.dir)).toEqual(["x", "w", "protos-b-common/y", "common", "protos-b-common_2", "protos-c-common"]);
    const files = outputFiles(dir);
    expect(files.get("x/types.ts")).toContain('from "../common/types.js"');
    expect(files.get("x/types.ts")).toContain('from "../protos-b-common_2/types.js"');
    expect(files.get("x/types.ts")).not.toMatch(/export interface (Id|Ref)\b/);
    expect(files.get("protos-b-common_2/types.ts")).toContain("export interface Ref {");
    expect(files.get("w/types.ts")).toMatch(/export interface Id \{[^}]*v: string;/);
    expect(files.get("w/types.ts")).toMatch(/export interface Id_2 \{[^}]*v: boolean;/);
  });

  it("keeps a spec self-contained when its settings differ from the module it imports", () => {
    const dir = project();
    writeFileSync(
      path.join(dir, "specforge.config.json"),
      JSON.stringify({ out: "gen", protoPaths: ["."], specs: ["orders.proto", { input: "invoices.proto", int64: "string" }] }),
    );
    const result = generate({ cwd: dir });
    expect(result.outputs.map((o) => o.dir)).toEqual(["orders", "invoices", "common"]);
    const files = outputFiles(dir);
    expect(files.get("invoices/types.ts")).toMatch(/export interface Money\b/);
    expect(files.get("invoices/types.ts")).toContain("units: string;");
    expect(files.get("orders/types.ts")).not.toMatch(/export interface Money\b/);
  });
});
