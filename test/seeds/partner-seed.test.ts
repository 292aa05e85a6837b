import { describe, expect, it } from "vitest";
import { interfaceBody, properties, readGenerated, readSeed } from "../helpers/seeds.js";

/**
 * Every operation, type, header, fault and enumeration value named in the partner seed appears in generated/, with
 * the seed's occurrences (? optional, * list, + non-empty list, max N bound) and nillability visible in the types.
 * The expectations are parsed from the seed's own notation, so the test follows the seed rather than our WSDL.
 */
const seed = readSeed("partner-soap.md");
const types = readGenerated("partner/types.ts");

/** Seed type names -> generated TypeScript type names. */
const TS: Record<string, string> = {
  string: "string", "xsd:string": "string", boolean: "boolean", int: "number", "xsd:int": "number",
  dateTime: "string", "xsd:dateTime": "string", base64Binary: "Uint8Array", Error: "Error$", sObject: "SObject",
  fieldType: "FieldType", soapType: "SoapType", layoutComponentType: "LayoutComponentType",
};
const tsType = (seedType: string) => TS[seedType] ?? seedType.replace(/^tns:/, "");

interface SeedField { name: string; type: string; flags: string }

/** "name:type ? * nil" -> the property line we expect, e.g. "name?: (T | null)[]". */
function expectedProperty(f: SeedField, family: (t: string) => string): string {
  const optional = /\?/.test(f.flags);
  // "max 1" is maxOccurs="1": a single optional element, not a list.
  const list = /\*|\+|max (?!1\b)\d+/.test(f.flags);
  const nil = /\bnil\b/.test(f.flags) && !/not nil/.test(f.flags);
  let t = family(tsType(f.type));
  if (nil) t = `${t} | null`;
  if (list) {
    const item = nil ? `(${t})` : t;
    t = /\+/.test(f.flags) ? `[${item}, ...${item}[]]` : `${item}[]`;
  }
  return `${f.name}${optional ? "?" : ""}: ${t}`;
}

/** Parse "a:T ?; b, c (all boolean); d:U nil" into fields. */
function parseFields(spec: string): SeedField[] {
  const out: SeedField[] = [];
  for (const part of spec.replace(/\.$/, "").split(";").map((s) => s.trim()).filter(Boolean)) {
    const group = /^(.+?) \((?:all )?(\w+)\)$/.exec(part);
    if (group && !part.includes(":")) {
      for (const name of group[1]!.split(",").map((s) => s.trim())) out.push({ name, type: group[2]!, flags: "" });
      continue;
    }
    // "a, b, c:T nil" gives all three names the same type and flags.
    const m = /^([\w, ]+):([\w:]+)\s*(.*)$/.exec(part);
    if (m) for (const name of m[1]!.split(",").map((s) => s.trim())) out.push({ name, type: m[2]!, flags: m[3]! });
  }
  return out;
}

/** Record types from "### ..." resource sections: "- Name (extends Base): fields" lines. */
function seedRecords(): { names: string[]; base?: string; fields: SeedField[] }[] {
  const section = seed.slice(seed.indexOf("### Record type"), seed.indexOf("### Header elements"));
  const out: { names: string[]; base?: string; fields: SeedField[] }[] = [];
  for (const line of section.split("\n")) {
    const m = /^- (\w+)(?: and (\w+))?(?: \((extends (\w+)|[^)]*)\))?: (.*)$/.exec(line);
    if (!m) continue;
    const names = [m[1]!, ...(m[2] ? [m[2]] : [])];
    let body = m[5]!;
    let base = m[4];
    const same = /^same as (\w+) plus (.*)$/.exec(body);
    if (same) {
      base = same[1];
      body = same[2]!;
    }
    out.push({ names, base, fields: body === "empty." ? [] : parseFields(body) });
  }
  return out;
}

const families = new Set(["Email", "ProcessRequest"]);
const family = (t: string) => (families.has(t) ? `Any${t}` : t);

describe("partner seed in generated/partner", () => {
  const records = seedRecords();

  it("finds the seed's record types (parser sanity)", () => {
    expect(records.length).toBeGreaterThan(55);
  });

  /**
   * Optional elements specs/partner.wsdl has beyond the seed's 17.0 tables: the real v40 WSDL requires them in
   * GetUserInfoResult (login's userInfo), so a client generated from it could not read a login without them. The
   * emulator sends them only to clients of API 40.0 and later (examples/partner/api-version.ts).
   */
  const BEYOND_SEED: Record<string, readonly string[]> = {
    GetUserInfoResult: ["chatterExternal?: boolean", "orgAttachmentFileSizeLimit?: number", "orgDefaultCurrencyLocale?: string | null", "sessionSecondsValid?: number"],
  };

  for (const r of records) {
    for (const name of r.names) {
      it(`${name}: fields, order, occurrences and nillability`, () => {
        const body = interfaceBody(types, tsType(name));
        expect(body, `interface ${name}`).toBeDefined();
        const extra = BEYOND_SEED[name] ?? [];
        // Elements beyond the seed are optional (seed-shaped messages stay valid) and sit where the real WSDL has them.
        for (const p of extra) expect(properties(body!), `${name} keeps ${p}`).toContain(p);
        const props = properties(body!).filter((p) => !p.startsWith("$type") && !extra.includes(p));
        const inherited = r.base ? properties(interfaceBody(types, tsType(r.base))!).filter((p) => !p.startsWith("$type")) : [];
        const want = [...inherited, ...r.fields.map((f) => expectedProperty(f, family))];
        if (name === "sObject") want.push(props[props.length - 1]!); // the open content member, checked below
        expect(props).toEqual(want);
      });
    }
  }

  it("sObject keeps open content", () => {
    expect(interfaceBody(types, "SObject")).toMatch(/processContents="lax"[\s\S]*\$any\?:/);
  });

  it("has every header element", () => {
    const table = seed.slice(seed.indexOf("| Header | Fields |"), seed.indexOf("## States"));
    const rows = [...table.matchAll(/^\| (\w+)(?: \(returned\))? \| (.*) \|$/gm)].filter((m) => m[1] !== "Header");
    expect(rows.length).toBe(14);
    for (const [, name, fields] of rows) {
      const body = interfaceBody(types, name!);
      expect(body, name).toBeDefined();
      expect(properties(body!)).toEqual(parseFields(fields!).map((f) => expectedProperty(f, family)));
    }
  });

  it("has all 30 operations with request and response types", () => {
    const table = seed.slice(seed.indexOf("| Operation | Request elements"), seed.indexOf("Rules:"));
    const ops = [...table.matchAll(/^\| (\w+) \| (.*?) \| (.*?) \|$/gm)].filter((m) => m[1] !== "Operation");
    expect(ops.length).toBe(30);
    for (const [, op, request, result] of ops) {
      const entry = new RegExp(`\\n  ${op}: \\{\\n    input: (\\w+);\\n    output: (\\w+);`).exec(types);
      expect(entry, op).not.toBeNull();
      const reqBody = interfaceBody(types, entry![1]!);
      expect(reqBody, `${op} request`).toBeDefined();
      const reqFields = request === "none" ? [] : parseFields(request!);
      expect(properties(reqBody!), `${op} request`).toEqual(reqFields.map((f) => expectedProperty(f, family)));
      const resBody = interfaceBody(types, entry![2]!);
      expect(resBody, `${op} response`).toBeDefined();
      const resFields = result === "empty response" ? [] : parseFields(result!);
      expect(properties(resBody!), `${op} response`).toEqual(resFields.map((f) => expectedProperty(f, family)));
    }
  });

  it("has every StatusCode and ExceptionCode value, in the seed's order", () => {
    const errors = seed.slice(seed.indexOf("statusCode is one of:"));
    const list = (from: string) =>
      errors
        .slice(errors.indexOf(from))
        .split("\n\n")[1]!
        .replace(/ \([^)]*\)/g, "")
        .replace(/\.$/, "")
        .split(", ")
        .map((s) => s.trim());
    const statusCodes = list("statusCode is one of:");
    const exceptionCodes = list("ExceptionCode values");
    expect(statusCodes.length).toBeGreaterThan(150);
    expect(exceptionCodes.length).toBeGreaterThan(70);
    const values = (name: string) => {
      const start = types.indexOf(`export const ${name}Values = [`);
      const end = types.indexOf("] as const;", start);
      return [...types.slice(start, end).matchAll(/"([^"]+)"/g)].map((m) => m[1]);
    };
    expect(values("StatusCode")).toEqual(statusCodes);
    expect(values("ExceptionCode")).toEqual(exceptionCodes);
  });

  it("has the simple types with their facets and values", () => {
    expect(types).toMatch(/@pattern \[a-zA-Z0-9\]\{18\}\n \* @length 18\n[\s\S]*?export type ID = string;/);
    const enums: Record<string, string> = {
      DebugLevel: "None, DebugOnly, Db",
      EmailPriority: "Highest, High, Normal, Low, Lowest",
      LayoutComponentType: "Field, Separator, SControl, EmptySpace",
    };
    for (const [name, list] of Object.entries(enums)) {
      expect(types).toContain(`export type ${name} = ${list.split(", ").map((v) => JSON.stringify(v)).join(" | ")};`.replace(/ \| /g, list.split(", ").length > 3 ? "\n  | " : " | ").replace(`${name} = "`, list.split(", ").length > 3 ? `${name} =\n  | "` : `${name} = "`));
    }
    expect(types).toContain("export type QueryLocator = string;");
  });

  it("has the fault types, each carrying exceptionCode and exceptionMessage", () => {
    for (const name of ["ApiFault", "ApiQueryFault", "LoginFault", "InvalidQueryLocatorFault", "InvalidNewPasswordFault", "InvalidIdFault", "UnexpectedErrorFault"]) {
      const props = properties(interfaceBody(types, name)!);
      expect(props, name).toContain("exceptionCode: ExceptionCode");
      expect(props, name).toContain("exceptionMessage: string");
    }
    expect(properties(interfaceBody(types, "ApiQueryFault")!)).toEqual(expect.arrayContaining(["row: number", "column: number"]));
  });
});
