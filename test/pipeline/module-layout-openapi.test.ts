import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import ts from "typescript";
import { afterEach, describe, expect, it } from "vitest";
import { check, generate } from "../../src/api.js";
import { listFiles } from "../../src/pipeline/write-output.js";
import { STRICT_OPTIONS } from "../helpers/typecheck.js";

/**
 * One output module per input file, OpenAPI (src/pipeline/module-layout.ts): two entry documents that `$ref` schemas
 * of one components file (no `openapi` field of its own) get that file's code once, in a folder of its own, and both
 * import its types, validators and JSON codecs from there. The second entry sits in another folder, so the ids the
 * two documents give the shared schemas differ (`api/common.yaml#...`, `../api/common.yaml#...`).
 */
const roots: string[] = [];
afterEach(() => roots.splice(0).forEach((r) => rmSync(r, { recursive: true, force: true })));

const COMMON = `components:
  schemas:
    Money:
      type: object
      required: [amount, currency]
      properties:
        amount: { type: integer, minimum: 0 }
        currency: { $ref: '#/components/schemas/Currency' }
        at: { type: string, format: date-time }
        tags:
          type: array
          items: { type: string, maxLength: 8 }
    Currency:
      type: string
      enum: [EUR, USD]
    Problem:
      type: object
      required: [message]
      properties:
        message: { type: string, maxLength: 200 }
    Node:
      type: object
      properties:
        at: { type: string, format: date-time }
        children:
          type: array
          items: { $ref: '#/components/schemas/Node' }
`;

const ORDERS = (version: string) => `openapi: ${version}
info: { title: Orders, version: "1" }
paths:
  /orders:
    post:
      operationId: placeOrder
      requestBody:
        required: true
        content:
          application/json:
            schema: { $ref: '#/components/schemas/Order' }
      responses:
        '200':
          description: the total
          content:
            application/json:
              schema: { $ref: 'api/common.yaml#/components/schemas/Money' }
        default:
          description: error
          content:
            application/json:
              schema: { $ref: 'api/common.yaml#/components/schemas/Problem' }
components:
  schemas:
    Order:
      type: object
      required: [total]
      properties:
        total: { $ref: 'api/common.yaml#/components/schemas/Money' }
        note: { type: string }
        tree: { $ref: 'api/common.yaml#/components/schemas/Node' }
`;

const INVOICES = (version: string) => `openapi: ${version}
info: { title: Invoices, version: "1" }
paths:
  /invoices/{id}:
    get:
      operationId: getInvoice
      parameters:
        - { name: id, in: path, required: true, schema: { type: string } }
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema: { $ref: '#/components/schemas/Invoice' }
        '404':
          description: missing
          content:
            application/json:
              schema: { $ref: '../api/common.yaml#/components/schemas/Problem' }
components:
  schemas:
    Invoice:
      type: object
      required: [id, amount]
      properties:
        id: { type: string }
        amount: { $ref: '../api/common.yaml#/components/schemas/Money' }
        lines:
          type: array
          items: { $ref: '../api/common.yaml#/components/schemas/Money' }
`;

function project(options: { invoicesVersion?: string; config?: object } = {}): string {
  const dir = mkdtempSync(path.join(tmpdir(), "specforge-openapi-modules-"));
  roots.push(dir);
  mkdirSync(path.join(dir, "api"));
  mkdirSync(path.join(dir, "billing"));
  writeFileSync(path.join(dir, "api/common.yaml"), COMMON);
  writeFileSync(path.join(dir, "orders.openapi.yaml"), ORDERS("3.0.3"));
  writeFileSync(path.join(dir, "billing/invoices.openapi.yaml"), INVOICES(options.invoicesVersion ?? "3.0.3"));
  const config = options.config ?? { out: "gen", dates: "Date", specs: ["orders.openapi.yaml", "billing/invoices.openapi.yaml"] };
  writeFileSync(path.join(dir, "specforge.config.json"), JSON.stringify(config));
  return dir;
}

/** Every file under the output root, path -> text. */
function outputFiles(dir: string): Map<string, string> {
  const out = path.join(dir, "gen");
  return new Map(listFiles(out).map((f) => [f, readFileSync(path.join(out, f), "utf8")]));
}

/** Files (of `files`) whose text matches `re`. */
const matching = (files: ReadonlyMap<string, string>, re: RegExp) => [...files].filter(([, text]) => re.test(text)).map(([f]) => f).sort();

function strictDiagnostics(dir: string, roots: readonly string[]): { program: ts.Program; diagnostics: string[] } {
  const program = ts.createProgram(roots.map((r) => path.join(dir, r)), STRICT_OPTIONS);
  const diagnostics = ts.getPreEmitDiagnostics(program).map((d) => {
    const at = d.file && d.start !== undefined ? `${path.relative(dir, d.file.fileName)}:${d.file.getLineAndCharacterOfPosition(d.start).line + 1}: ` : "";
    return at + ts.flattenDiagnosticMessageText(d.messageText, "\n");
  });
  return { program, diagnostics };
}

describe("one output module per input file (OpenAPI components shared by two documents)", () => {
  it("generates the components file once, in its own folder, and both documents import it", () => {
    const dir = project();
    const result = generate({ cwd: dir });
    expect(result.outputs.map((o) => o.dir)).toEqual(["orders", "invoices", "common"]);
    const files = outputFiles(dir);
    expect(matching(files, /export interface Money\b/)).toEqual(["common/types.ts"]);
    expect(matching(files, /^export function isMoney\(/m)).toEqual(["common/validate.ts"]);
    expect(matching(files, /^function collectMoney\(/m)).toEqual(["common/validate.ts"]);
    expect(matching(files, /^export function encodeMoneyJson\(/m)).toEqual(["common/json.ts"]);
    expect(matching(files, /^export function reviveMoney\(/m)).toEqual(["common/json.ts"]);
    // The shared module declares every schema of the file, and no service (it has no paths).
    expect(files.get("common/types.ts")).toMatch(/export interface Problem\b/);
    expect([...files.keys()].filter((f) => f.startsWith("common/")).sort()).toEqual([
      "common/.specforge-manifest.json",
      "common/README.md",
      "common/index.ts",
      "common/json.ts",
      "common/types.ts",
      "common/validate.ts",
    ]);
    for (const entry of ["orders", "invoices"]) {
      expect(files.get(`${entry}/types.ts`)).toContain('from "../common/types.js"');
      const shared = /^import \{([^}]*)\} from "\.\.\/common\/validate\.js";$/m.exec(files.get(`${entry}/validate.ts`)!)?.[1]?.split(",").map((n) => n.trim());
      expect(shared).toEqual(expect.arrayContaining(["$collectMoney", "$isMoney"]));
      expect(files.get(`${entry}/json.ts`)).toContain('from "../common/json.js"');
      expect(files.get(`${entry}/server.ts`)).toMatch(/import \{[^}]*validateProblem[^}]*\} from "\.\.\/common\/validate\.js";/);
    }
    // Dates are revived by the shared module's reviver (dates: "Date").
    expect(files.get("invoices/json.ts")).toContain("$reviveMoney");
    expect(files.get("common/json.ts")).toContain("reviveMoney as $reviveMoney,");
  });

  it("compiles strictly as a whole, and a value of one document's type is the other's", () => {
    const dir = project();
    generate({ cwd: dir });
    writeFileSync(
      path.join(dir, "usage.ts"),
      `import { type OrdersClient, type Money, type Order } from "./gen/orders/index.js";
import { type Invoice, type Money as InvoiceMoney, decodeInvoiceJson } from "./gen/invoices/index.js";
import { type Currency } from "./gen/common/index.js";
/** The 200 response of the orders client: its body is the Money of orders' module. */
type Placed = Extract<Awaited<ReturnType<OrdersClient["placeOrder"]>>, { status: 200 }>;
export async function total(client: OrdersClient, order: Order, invoice: (placed: Placed) => Invoice): Promise<Invoice> {
  return invoice((await client.placeOrder({ body: order })) as Placed);
}
export function invoiceOf(placed: Placed): Invoice {
  const money: InvoiceMoney = placed.body;
  const currency: Currency = money.currency;
  return { id: currency, amount: money, lines: [placed.body] };
}
export const back: Money = decodeInvoiceJson("{}").amount;
`,
    );
    const { program, diagnostics } = strictDiagnostics(dir, ["usage.ts", ...listFiles(path.join(dir, "gen")).filter((f) => f.endsWith(".ts")).map((f) => `gen/${f}`)]);
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
      return (checker.getAliasedSymbol(found!).declarations ?? []).map((d) => `${path.relative(dir, d.getSourceFile().fileName)}:${d.pos}`);
    };
    expect(declarationOf("Money")).toEqual(declarationOf("InvoiceMoney"));
    expect(declarationOf("Money")[0]).toMatch(/^gen\/common\/types\.ts:/);
  }, 180_000);

  it("decodes, encodes and validates through both documents' modules", async () => {
    const dir = project();
    generate({ cwd: dir });
    const orders = (await import(path.join(dir, "gen/orders/index.ts"))) as Record<string, (...args: unknown[]) => unknown>;
    const invoices = (await import(path.join(dir, "gen/invoices/index.ts"))) as Record<string, (...args: unknown[]) => unknown>;
    const common = (await import(path.join(dir, "gen/common/index.ts"))) as Record<string, (...args: unknown[]) => unknown>;
    const order = orders.decodeOrderJson!('{"total":{"amount":5,"currency":"EUR","at":"2024-01-02T03:04:05Z"},"note":"n"}') as { total: { at: unknown } };
    // Revived by the shared module's reviver: a Date, as dates: "Date" says.
    expect(order.total.at).toBeInstanceOf(Date);
    expect(JSON.parse(orders.encodeOrderJson!(order) as string)).toEqual({ total: { amount: 5, currency: "EUR", at: "2024-01-02T03:04:05.000Z" }, note: "n" });
    const invoice = { id: "i1", amount: order.total, lines: [order.total] };
    expect(invoices.validateInvoice!(invoice)).toEqual([]);
    expect(JSON.parse(invoices.encodeInvoiceJson!(invoice) as string).lines[0].currency).toBe("EUR");
    // The shared module's checks, reached through each document: issue paths continue into the shared type.
    expect(orders.validateOrder!({ total: { amount: -1, currency: "GBP" } })).toEqual([
      { path: "/total/amount", rule: "minimum", message: expect.any(String) },
      { path: "/total/currency", rule: "enum", message: expect.any(String) },
    ]);
    expect((invoices.validateInvoice!({ id: "i", amount: { amount: 1, currency: "USD", tags: ["far too long"] } }) as { path: string }[]).map((i) => i.path)).toEqual([
      "/amount/tags/0",
    ]);
    expect(() => invoices.decodeInvoiceJson!('{"id":"i","amount":{"amount":1,"currency":"XXX"}}')).toThrow(/currency/);
    expect(common.isMoney!({ amount: 1, currency: "USD" })).toBe(true);
    // A recursive shared type: revived and checked by its module (its checks guard against stack exhaustion).
    const treed = orders.decodeOrderJson!('{"total":{"amount":1,"currency":"EUR"},"tree":{"children":[{"at":"2024-01-01T00:00:00Z","children":[]}]}}') as {
      tree: { children: { at: unknown }[] };
    };
    expect(treed.tree.children[0]!.at).toBeInstanceOf(Date);
    expect(orders.validateOrder!({ total: { amount: 1, currency: "EUR" }, tree: { children: [{ children: [{ at: 5 }] }] } })).toEqual([
      { path: "/tree/children/0/children/0/at", rule: "type", message: expect.any(String) },
    ]);
    const root: { children?: unknown[] } = {};
    let deep = root;
    for (let i = 0; i < 100_000; i++) deep = (deep.children = [{}])[0] as typeof root;
    expect(orders.isOrder!({ total: { amount: 1, currency: "EUR" }, tree: root })).toBe(false);
    expect((orders.validateOrder!({ total: { amount: 1, currency: "EUR" }, tree: root }) as { rule: string }[]).map((i) => i.rule)).toContain("depth");
    // The functions of the shared type are its module's only.
    expect(orders.isMoney).toBeUndefined();
    expect(invoices.encodeMoneyJson).toBeUndefined();
  }, 120_000);

  it("is deterministic, check finds a hand edit in the shared module", () => {
    const dir = project();
    generate({ cwd: dir });
    const first = outputFiles(dir);
    expect(generate({ cwd: dir }).written).toEqual([]);
    const elsewhere = mkdtempSync(path.join(tmpdir(), "specforge-cwd-"));
    roots.push(elsewhere);
    const again = generate({ cwd: elsewhere, config: path.join(dir, "specforge.config.json"), dryRun: true });
    const bytes = new Map(again.outputs.flatMap((o) => o.files.map((f) => [f.path, f.content] as const)));
    expect(new Map([...bytes].sort())).toEqual(new Map([...first].sort()));
    expect(check({ cwd: dir }).differences).toEqual([]);
    const file = path.join(dir, "gen/common/validate.ts");
    writeFileSync(file, readFileSync(file, "utf8").replace("function collectMoney(", "function collectMoney2("));
    expect(check({ cwd: dir }).differences.map((d) => [d.path, d.state])).toEqual([["common/validate.ts", "stale"]]);
  });

  it("regenerating one document alone lays it out as the config's full run: the shared module stays shared", () => {
    const dir = project();
    generate({ cwd: dir });
    const before = outputFiles(dir);
    // The rule: specs named beside a config that lists them are laid out as the whole config's run (a file read by
    // two of its documents keeps its module, with the settings of the first), and only the named specs and the
    // imported files' modules are generated. Nothing changes, so nothing is written.
    const alone = generate({ cwd: dir, config: path.join(dir, "specforge.config.json"), specs: ["billing/invoices.openapi.yaml"] });
    expect(alone.outputs.map((o) => o.dir)).toEqual(["invoices", "common"]);
    expect(alone.written).toEqual([]);
    expect(outputFiles(dir)).toEqual(before);
    // Even after the other document's folder is gone, the named one still imports the shared module.
    rmSync(path.join(dir, "gen/orders"), { recursive: true });
    rmSync(path.join(dir, "gen/invoices"), { recursive: true });
    generate({ cwd: dir, config: path.join(dir, "specforge.config.json"), specs: ["billing/invoices.openapi.yaml"] });
    expect(outputFiles(dir).get("invoices/types.ts")).toBe(before.get("invoices/types.ts"));
    // Without a config, named specs are a run of their own: invoices alone reads common.yaml alone, so it is whole.
    const bare = generate({ cwd: dir, specs: ["billing/invoices.openapi.yaml"], out: "solo", dryRun: true });
    expect(bare.outputs.map((o) => o.dir)).toEqual(["invoices"]);
    expect(bare.outputs[0]!.files.find((f) => f.path === "invoices/types.ts")!.content).toMatch(/export interface Money\b/);
  });

  it("keeps a document self-contained when its version differs from the shared module's (3.0 / 3.1 rules)", () => {
    const dir = project({ invoicesVersion: "3.1.0" });
    generate({ cwd: dir });
    const files = outputFiles(dir);
    // The module takes the first importer's version (orders, 3.0): the 3.1 document keeps its own copy.
    expect(files.get("orders/types.ts")).not.toMatch(/export interface Money\b/);
    expect(files.get("invoices/types.ts")).toMatch(/export interface Money\b/);
    expect(files.get("invoices/validate.ts")).not.toContain("../common/");
    expect(files.get("common/types.ts")).toMatch(/export interface Money\b/);
  });

  it("gives a shared file no module when it does not generate alone or lacks a type the documents take from it", () => {
    // A schema no document uses refers to nothing: reading the documents never meets it, reading the file alone does.
    const dir = project();
    writeFileSync(path.join(dir, "api/common.yaml"), COMMON + "    Broken:\n      type: object\n      properties:\n        x: { $ref: '#/components/schemas/Nope' }\n");
    const result = generate({ cwd: dir });
    expect(result.outputs.map((o) => o.dir)).toEqual(["orders", "invoices"]);
    const files = outputFiles(dir);
    expect(matching(files, /export interface Money\b/)).toEqual(["invoices/types.ts", "orders/types.ts"]);
    expect(files.get("orders/validate.ts")).not.toContain("$isMoney");
    // A definitions file (schemas as top-level keys, no components): its module would declare none of them.
    const defs = project();
    writeFileSync(path.join(defs, "api/common.yaml"), COMMON.replace("components:\n  schemas:\n", "").replace(/^ {4}/gm, "").replaceAll("#/components/schemas/", "#/"));
    for (const f of ["orders.openapi.yaml", "billing/invoices.openapi.yaml"]) {
      writeFileSync(path.join(defs, f), readFileSync(path.join(defs, f), "utf8").replaceAll("common.yaml#/components/schemas/", "common.yaml#/"));
    }
    expect(generate({ cwd: defs }).outputs.map((o) => o.dir)).toEqual(["orders", "invoices"]);
    expect(matching(outputFiles(defs), /export interface Money\b/)).toEqual(["invoices/types.ts", "orders/types.ts"]);
  });

  it("gives a module only to files two documents take types from; a file one document reads stays in its folder", () => {
    const dir = project();
    // Currency moves to a file of its own, read through Money by both documents: shared, so a module of its own.
    writeFileSync(path.join(dir, "api/common.yaml"), COMMON.replace("'#/components/schemas/Currency'", "'currency.yaml#/components/schemas/Currency'"));
    writeFileSync(path.join(dir, "api/currency.yaml"), "components:\n  schemas:\n    Currency:\n      type: string\n      enum: [EUR, USD]\n");
    // A note schema only orders reads: part of orders' folder, as a document split over files always was.
    mkdirSync(path.join(dir, "local"));
    writeFileSync(path.join(dir, "local/note.yaml"), "components:\n  schemas:\n    Note:\n      type: string\n      maxLength: 140\n");
    writeFileSync(path.join(dir, "orders.openapi.yaml"), ORDERS("3.0.3").replace("note: { type: string }", "note: { $ref: 'local/note.yaml#/components/schemas/Note' }"));
    const result = generate({ cwd: dir });
    expect(result.outputs.map((o) => o.dir)).toEqual(["orders", "invoices", "common", "currency"]);
    const files = outputFiles(dir);
    expect(matching(files, /export type Currency\b/)).toEqual(["currency/types.ts"]);
    expect(matching(files, /export type Note\b/)).toEqual(["orders/types.ts"]);
    expect(files.get("common/validate.ts")).toContain('from "../currency/validate.js"');
    expect(files.get("orders/validate.ts")).not.toContain("currency/");
    expect(check({ cwd: dir }).differences).toEqual([]);
    const { diagnostics } = strictDiagnostics(dir, listFiles(path.join(dir, "gen")).filter((f) => f.endsWith("index.ts")).map((f) => `gen/${f}`));
    expect(diagnostics).toEqual([]);
    // One document alone with a split file: one folder, as before.
    writeFileSync(path.join(dir, "specforge.config.json"), JSON.stringify({ out: "gen2", specs: ["orders.openapi.yaml"] }));
    expect(generate({ cwd: dir }).outputs.map((o) => o.dir)).toEqual(["orders"]);
  }, 180_000);

  it("keeps a document self-contained when its settings differ from the shared module's", () => {
    const config = { out: "gen", specs: ["orders.openapi.yaml", { input: "billing/invoices.openapi.yaml", formats: "annotate" }] };
    const dir = project({ config });
    generate({ cwd: dir });
    const files = outputFiles(dir);
    expect(files.get("invoices/types.ts")).toMatch(/export interface Money\b/);
    expect(files.get("orders/types.ts")).not.toMatch(/export interface Money\b/);
  });
});

describe("one output module per input file: a shared file that is a spec itself", () => {
  it("imports the referenced document's folder, which keeps its own client", () => {
    const dir = project();
    // orders takes Money from invoices' own document (a spec of the run), not from a components file.
    writeFileSync(
      path.join(dir, "billing/invoices.openapi.yaml"),
      INVOICES("3.0.3").replace("components:\n  schemas:\n", "components:\n  schemas:\n    Amount:\n      type: object\n      required: [cents]\n      properties:\n        cents: { type: integer }\n"),
    );
    writeFileSync(path.join(dir, "orders.openapi.yaml"), ORDERS("3.0.3").replace("note: { type: string }", "note: { type: string }\n        paid: { $ref: 'billing/invoices.openapi.yaml#/components/schemas/Amount' }"));
    const result = generate({ cwd: dir });
    expect(result.outputs.map((o) => o.dir)).toEqual(["orders", "invoices", "common"]);
    const files = outputFiles(dir);
    expect(matching(files, /export interface Amount\b/)).toEqual(["invoices/types.ts"]);
    expect(files.get("orders/types.ts")).toContain('import type { Amount } from "../invoices/types.js";');
    expect(files.get("orders/validate.ts")).toContain('from "../invoices/validate.js"');
    expect(files.get("invoices/client.ts")).toContain("getInvoice");
    expect(files.get("invoices/validate.ts")).toContain("isAmount as $isAmount,");
  });
});

describe("WSDLs sharing an XSD stay self-contained (docs/cli/output-folders.md, WSDL and XSD)", () => {
  const XSD = `<?xml version="1.0"?>
<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" targetNamespace="urn:common" xmlns:c="urn:common" elementFormDefault="qualified">
  <xs:complexType name="Address"><xs:sequence><xs:element name="street" type="xs:string"/><xs:element name="zip" type="c:Zip"/></xs:sequence></xs:complexType>
  <xs:simpleType name="Zip"><xs:restriction base="xs:string"><xs:pattern value="[0-9]{5}"/></xs:restriction></xs:simpleType>
</xs:schema>
`;
  const wsdl = (name: string) => `<?xml version="1.0"?>
<definitions xmlns="http://schemas.xmlsoap.org/wsdl/" xmlns:soap="http://schemas.xmlsoap.org/wsdl/soap/" xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:tns="urn:${name}" xmlns:c="urn:common" targetNamespace="urn:${name}">
  <types>
    <xs:schema targetNamespace="urn:${name}" elementFormDefault="qualified">
      <xs:import namespace="urn:common" schemaLocation="xsd/common.xsd"/>
      <xs:element name="${name}Request"><xs:complexType><xs:sequence><xs:element name="to" type="c:Address"/></xs:sequence></xs:complexType></xs:element>
      <xs:element name="${name}Response"><xs:complexType><xs:sequence><xs:element name="from" type="c:Address"/></xs:sequence></xs:complexType></xs:element>
    </xs:schema>
  </types>
  <message name="In"><part name="parameters" element="tns:${name}Request"/></message>
  <message name="Out"><part name="parameters" element="tns:${name}Response"/></message>
  <portType name="Port"><operation name="Call"><input message="tns:In"/><output message="tns:Out"/></operation></portType>
  <binding name="Binding" type="tns:Port"><soap:binding transport="http://schemas.xmlsoap.org/soap/http" style="document"/>
    <operation name="Call"><soap:operation soapAction="urn:${name}#Call"/><input><soap:body use="literal"/></input><output><soap:body use="literal"/></output></operation></binding>
  <service name="${name}Service"><port name="Port" binding="tns:Binding"><soap:address location="http://localhost/${name}"/></port></service>
</definitions>
`;

  it("generates each WSDL whole, strict-clean, beside a shared OpenAPI module in the same run", () => {
    const dir = project();
    mkdirSync(path.join(dir, "xsd"));
    writeFileSync(path.join(dir, "xsd/common.xsd"), XSD);
    writeFileSync(path.join(dir, "shipping.wsdl"), wsdl("shipping"));
    writeFileSync(path.join(dir, "returns.wsdl"), wsdl("returns"));
    const specs = ["orders.openapi.yaml", "billing/invoices.openapi.yaml", "shipping.wsdl", "returns.wsdl"];
    writeFileSync(path.join(dir, "specforge.config.json"), JSON.stringify({ out: "gen", specs }));
    const result = generate({ cwd: dir });
    expect(result.outputs.map((o) => o.dir)).toEqual(["orders", "invoices", "shipping", "returns", "common"]);
    const files = outputFiles(dir);
    expect(matching(files, /export interface Address\b/)).toEqual(["returns/types.ts", "shipping/types.ts"]);
    for (const f of ["types", "xml", "validate", "client"]) expect(files.get(`shipping/${f}.ts`)).not.toContain('from "../');
    const { diagnostics } = strictDiagnostics(dir, listFiles(path.join(dir, "gen")).filter((f) => f.endsWith("index.ts")).map((f) => `gen/${f}`));
    expect(diagnostics).toEqual([]);
  }, 180_000);
});
