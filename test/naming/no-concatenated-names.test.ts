/**
 * Issue 28: "no emitter builds a name by concatenation". Every identifier generated code declares or imports comes
 * from the naming pass (src/naming: `names.type/derived/api/soap/rpc/feed/shared/element/operation`, ModuleScope for
 * module-private helpers); emitters print what it gave. This is a static scan of the code that prints generated
 * code or looks generated functions up by name (src/emitters, src/mock, src/convert, src/pipeline/plugins) for the
 * shapes a concatenated name takes:
 *
 * - R1: a template literal that is one identifier glued together from words and interpolations
 *   (`create${name}Server`, `${base}Client`, `check${stem}`, `text${m.name}`);
 * - R2: a declaration printed with such a name (`function create${x}(`, `const ${faults}Namespaces`);
 * - R3: a quoted word concatenated with `+` to an expression or the other way round (`"check" + name`);
 * - R4: the naming pass's `$` mark stripped outside src/naming (`.replace(/\$$/, "")`): a name used as a stem.
 *
 * What the scan finds must be in ALLOWED below with the reason it is not a name the naming pass owns (a BigInt
 * literal, a runtime export, a number appended to a module-private constant, a value the mock generates...). A new
 * finding fails the test with its file:line; an entry that no longer matches anything fails too, so the list
 * shrinks as code moves to the naming pass and cannot hide a later regression behind a stale entry. The scan is
 * line-based and heuristic (a name built over several lines, or through a helper function outside these folders,
 * escapes it); the table-driven and property tests in this folder check the names that come out.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { REPO } from "../helpers/seeds.js";

const ROOTS = ["src/emitters", "src/mock", "src/convert", "src/pipeline/plugins"];

interface Finding {
  readonly rule: "R1" | "R2" | "R3" | "R4";
  readonly file: string;
  readonly line: number;
  readonly text: string;
}

const INTERP = String.raw`\$\{(?:[^{}\x60]|\{[^{}\x60]*\})*\}`;
const R1 = new RegExp(String.raw`\x60[A-Za-z0-9_$]*(?:${INTERP}[A-Za-z0-9_$]*)+\x60`, "g");
const R2 = new RegExp(String.raw`\b(?:function|const|let|var|class|interface|type|enum)\s+(?:[A-Za-z_$][\w$]*${INTERP}|${INTERP}[\w$])`, "g");
const R3 = [/["']([A-Za-z_$][\w$]*)["']\s*\+\s*[A-Za-z_(]/g, /[\w)\]]\s*\+\s*["']([A-Za-z_$][\w$]*)["']/g];
const R4 = /\.replace\(\/\\\$\$\//g;

/** The findings of one file's text (exported shape for the self-check below). */
export function scan(file: string, text: string): Finding[] {
  const out: Finding[] = [];
  text.split("\n").forEach((line, i) => {
    if (/^\s*(\/\/|\*|\/\*\*)/.test(line)) return;
    const at = (rule: Finding["rule"], t: string) => out.push({ rule, file, line: i + 1, text: t });
    for (const m of line.matchAll(R1)) {
      // Only glued words count: `${a}${b}` or `${x}` alone is no name built here.
      const literal = m[0].replace(new RegExp(INTERP, "g"), "").slice(1, -1);
      if (/[A-Za-z_]/.test(literal)) at("R1", m[0]);
    }
    for (const m of line.matchAll(R2)) at("R2", m[0]);
    for (const r of R3) for (const m of line.matchAll(r)) at("R3", m[0]);
    for (const m of line.matchAll(R4)) at("R4", m[0]);
  });
  return out;
}

function* tsFiles(dir: string): Generator<string> {
  for (const name of readdirSync(dir).sort()) {
    const p = path.join(dir, name);
    if (statSync(p).isDirectory()) yield* tsFiles(p);
    else if (p.endsWith(".ts")) yield p;
  }
}

/** file (relative to the repository) -> the exact texts allowed there, with why each is not a name to own. */
const ALLOWED: Readonly<Record<string, readonly (readonly [text: string, why: string])[]>> = {
  // BigInt literals in generated code: digits and `n`.
  "src/emitters/json-validators/code.ts": [["`${c}n`", "a BigInt literal"]],
  "src/emitters/json-validators/leaf-checks.ts": [["`${text}n`", "a BigInt literal"]],
  "src/emitters/protobuf/defaults.ts": [["`${text}n`", "a BigInt literal"]],
  "src/emitters/protobuf/validate/cel.ts": [
    ["`${BigInt(ast.v)}n`", "a BigInt literal"],
    ["`${nanos}n`", "a BigInt literal"],
    // CEL comprehension variables: identifiers by CEL's grammar, scoped to the arrow function printed with them.
    ['"e_" + v', "a CEL variable inside the generated arrow function that binds it"],
    ["const e_${v.name}", "a CEL variable inside the generated arrow function that binds it"],
  ],
  "src/emitters/protobuf/validate/emit-rules.ts": [
    ["`${n}n`", "a BigInt literal"],
    ["`${intText(s)}n`", "a BigInt literal"],
    ["`${BigInt(sec) * 1000000000n + BigInt(ns)}n`", "a BigInt literal"],
    ["`${(s as { text: string }).text}n`", "a BigInt literal"],
    ["`${id}_exclusive`", "a protovalidate rule id (a string in an issue), not an identifier"],
  ],
  // Runtime exports: the runtime's names, fixed per scalar (pbReadInt32 ...), imported through f.import (aliased on a clash).
  "src/emitters/protobuf/scalars.ts": [["`pbRead${t.name}`", "a runtime export"], ["`pbWrite${t.name}`", "a runtime export"]],
  // Numbered locals inside one generated function or module-private constants numbered in order; no spec text.
  "src/emitters/json-serializers/writers.ts": [["`v${i}`", "a numbered local variable of one generated function"]],
  "src/emitters/json-serializers/revivers.ts": [["const to${n}", "a numbered local variable of one generated function"]],
  "src/emitters/json-validators/context.ts": [
    ["`PATTERN_${this.patterns.size + 1}`", "a numbered module constant (isModuleInternalName keeps types off it)"],
    ["`${prefix}_${this.namedConstants.size + 1}`", "a numbered module constant (isModuleInternalName keeps types off it)"],
    ["`VALUES_${this.sets.size + 1}`", "a numbered module constant (isModuleInternalName keeps types off it)"],
  ],
  "src/emitters/protojson/emit-protojson.ts": [["`protoJsonRegistryPart${i + 1}`", "a numbered local of the registry's initializer"]],
  "src/emitters/rest-server/form-decoder.ts": [["`field${i}`", "a numbered local variable of one generated function"]],
  "src/emitters/rest-client/json-body-codec.ts": [["`item${depth}`", "an arrow function's parameter, numbered by nesting depth"]],
  "src/emitters/rest-server/parameter-parsing.ts": [["`${local}Text`", "a local variable of one generated function, next to its `local`"]],
  "src/emitters/xml/codec-table.ts": [
    ["`r$${x.names.type(id)}`", "a property key of the codec table object (a `$` inside: no naming-pass name has one)"],
    ["`f$${family}`", "a property key of the codec table object"],
    ["`enum$${x.names.type(t.id)}`", "a property key of the codec table object"],
    ["`enum$${x.names.type(n.id)}`", "a property key of the codec table object"],
    ["`s$${this.byKey.size + 1}`", "a numbered property key of the codec table object"],
  ],
  "src/emitters/xml/context.ts": [["`ns${nsNames.size + 1}`", "an XML namespace prefix in documents, not an identifier"]],
  "src/emitters/xml/simple-values.ts": [
    ["`readUnion${n}`", "a numbered local function inside one generated closure"],
    ["`writeUnion${n}`", "a numbered local function inside one generated closure"],
  ],
  "src/emitters/soap-client/bound-operations.ts": [["`${op.name}Response`", "an RPC-style response element's XML local name (WSDL 1.1 rule)"]],
  // Member names: property clash resolution of one object type, not module-level names.
  "src/emitters/types/properties.ts": [["`${wanted}_${i}`", "a property name inside one object type"]],
  "src/emitters/xml/record-layout.ts": [["`${wanted}_${i}`", "a property name inside one object type"]],
  "src/emitters/proto-http/identifiers.ts": [["`${wanted}_${i}`", "the method-property claimer of one client interface"]],
  // The OpenAPI document proto-openapi writes: names inside JSON, not TypeScript.
  "src/emitters/proto-openapi/openapi.ts": [
    ['`${field.replace(/\\./g, "_")}_${++n}`', "an OpenAPI path parameter name"],
    ["`segment_${i}`", "an OpenAPI path parameter name"],
    ["`_${index + 1}`", "an OpenAPI operationId suffix"],
  ],
  // Values the mock generates (strings, dates, keys), not names.
  "src/mock/rest.ts": [["`${String(code)[0]}XX`", "an OpenAPI status range key"]],
  "src/mock/values.ts": [
    ["`extra${i + 1}`", "a generated property key in mock data"],
    ["`extra${out.length + 1}`", "a generated property key in mock data"],
    ["`key${this.int(0, 999)}`", "a generated map key in mock data"],
    ["`q${this.int(0, 99)}`", "a generated string value"],
    ["`${date()}T${time()}Z`", "a generated date-time value"],
    ["`${time()}Z`", "a generated time value"],
    ["`P${this.int(1, 9)}DT${this.int(1, 23)}H`", "a generated duration value"],
    ["`pw${hex(6)}`", "a generated password value"],
    ["`${x}n`", "a BigInt literal"],
  ],
};

describe("no emitter builds a name by concatenation", () => {
  const findings = ROOTS.flatMap((root) => [...tsFiles(path.join(REPO, root))].flatMap((abs) => scan(path.relative(REPO, abs), readFileSync(abs, "utf8"))));

  it("every concatenation in src/emitters, src/mock, src/convert and src/pipeline/plugins is an allowed non-name", () => {
    const unexplained = findings.filter((f) => !(ALLOWED[f.file] ?? []).some(([text]) => text === f.text));
    expect(unexplained.map((f) => `${f.rule} ${f.file}:${f.line} ${f.text}`)).toEqual([]);
  });

  it("every allowed entry still matches something (a stale entry could hide a regression)", () => {
    const stale = Object.entries(ALLOWED).flatMap(([file, entries]) =>
      entries.filter(([text]) => !findings.some((f) => f.file === file && f.text === text)).map(([text]) => `${file}: ${text}`));
    expect(stale).toEqual([]);
  });

  it("no test strips the naming pass's `$` mark to guess a function's name (they ask names.derived or name it)", () => {
    const tests = [...tsFiles(path.join(REPO, "test"))].filter((f) => !f.endsWith("no-concatenated-names.test.ts"));
    const stripping = tests.flatMap((abs) => scan(path.relative(REPO, abs), readFileSync(abs, "utf8")).filter((f) => f.rule === "R4"));
    expect(stripping.map((f) => `${f.file}:${f.line}`)).toEqual([]);
  });

  it("the scan finds the concatenations this issue removed", () => {
    // Lines as they were before the naming pass owned these names (emit-server.ts, emit-codec.ts, emit-prototext.ts,
    // emit-connect.ts, emit-client.ts): each must be reported, or the scan above proves nothing.
    const before = [
      'const serverFn = `create${serviceName(ctx, s.index, "Server")}`;',
      "    [`write${m.name}`, c.local(\"write\", m.record.id)],",
      '    return locals.get(id, `text${ctx.names.type(id).replace(/\\$$/, "")}`);',
      "      createClient: claim(`create${base}Client`),",
      "  f.print(`export function create${clientName}(options: `, rt(\"SoapClientOptions\", true), `): ${clientName} {`);",
      '  f.print(`const ${faultsName.charAt(0).toLowerCase()}${faultsName.slice(1)}Namespaces: Record<keyof ${faultsName}, string> = {`);',
      '  const name = "check" + typeName;',
    ];
    const found = before.map((line) => scan("x.ts", line).map((f) => f.rule));
    expect(found).toEqual([["R1"], ["R1"], ["R1", "R4"], ["R1"], ["R2"], ["R2"], ["R3"]]);
  });
});
