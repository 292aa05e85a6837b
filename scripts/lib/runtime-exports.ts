/**
 * The names `specforge/runtime` exports (values and types), read from src/runtime/index.ts with the TypeScript
 * compiler, and the source text of src/naming/runtime-names.ts that lists them. Shared by
 * `npm run names:runtime` (which writes the file) and the test that checks the file is current.
 */
import path from "node:path";
import ts from "typescript";

const ROOT = path.resolve(import.meta.dirname, "../..");
export const RUNTIME_NAMES_FILE = path.join(ROOT, "src/naming/runtime-names.ts");

export const RUNTIME_AREAS_FILE = path.join(ROOT, "src/codegen/runtime-areas.ts");
export const AREAS = ["protobuf", "json", "xml", "soap", "rest", "rpc"] as const;

export function runtimeExportNames(entry: string = path.join(ROOT, "src/runtime/index.ts")): string[] {
  const program = ts.createProgram([entry], {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    noEmit: true,
  });
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(entry);
  const module = source && checker.getSymbolAtLocation(source);
  if (!module) throw new Error(`cannot read the exports of ${entry}`);
  return checker.getExportsOfModule(module).map((s) => s.name).sort();
}

export function runtimeNamesSource(names: readonly string[]): string {
  const lines: string[] = [];
  let line = " ";
  for (const name of names) {
    const piece = ` ${JSON.stringify(name)},`;
    if (line.length + piece.length > 118) {
      lines.push(line);
      line = " ";
    }
    line += piece;
  }
  if (line.trim() !== "") lines.push(line);
  return [
    "// Written by `npm run names:runtime` from src/runtime/index.ts; test/naming/runtime-names.test.ts checks it is current.",
    "",
    "/**",
    " * Every name `specforge/runtime` exports. Generated files import these by name, so no identifier the naming pass",
    " * derives from a spec may equal one of them (a schema called `validation-error` must not become `ValidationError`).",
    " */",
    "export const RUNTIME_EXPORTS: ReadonlySet<string> = new Set([",
    ...lines,
    "]);",
    "",
  ].join("\n");
}

/** What each area entry (src/runtime/areas/<area>.ts, published as specforge/runtime/<area>) exports. */
export function runtimeAreaExports(): Record<(typeof AREAS)[number], string[]> {
  return Object.fromEntries(AREAS.map((a) => [a, runtimeExportNames(path.join(ROOT, "src/runtime/areas", `${a}.ts`))])) as Record<(typeof AREAS)[number], string[]>;
}

export function runtimeAreasSource(areas: Record<(typeof AREAS)[number], readonly string[]>): string {
  const out = [
    "// Written by `npm run names:runtime` from src/runtime/areas/; test/naming/runtime-names.test.ts checks it is current.",
    "",
    "/** What each area entry (specforge/runtime/<area>, src/runtime/areas/<area>.ts) exports, by area. */",
    "export const RUNTIME_AREA_EXPORTS = {",
  ];
  for (const area of AREAS) {
    out.push(`  ${area}: new Set<string>([`);
    out.push(...wrapNames(areas[area], "   "));
    out.push("  ]),");
  }
  out.push("} as const;", "");
  return out.join("\n");
}

function wrapNames(names: readonly string[], indent: string): string[] {
  const lines: string[] = [];
  let line = indent;
  for (const name of names) {
    const piece = ` ${JSON.stringify(name)},`;
    if (line.length + piece.length > 118) {
      lines.push(line);
      line = indent;
    }
    line += piece;
  }
  if (line.trim() !== "") lines.push(line);
  return lines;
}
