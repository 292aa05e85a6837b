import path from "node:path";
import ts from "typescript";

/** Strict compiler options for generated code: what a user's strict project would use. */
export const STRICT_OPTIONS: ts.CompilerOptions = {
  strict: true,
  noEmit: true,
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  noUncheckedIndexedAccess: true,
  exactOptionalPropertyTypes: true,
  noImplicitOverride: true,
  skipLibCheck: true,
  types: [],
  // Generated code imports the runtime by package name; check it against the runtime's source.
  paths: { "specforge/runtime": [path.resolve(import.meta.dirname, "../../src/runtime/index.ts")] },
  lib: ["lib.es2022.d.ts", "lib.dom.d.ts"],
};

/**
 * Type-check a set of in-memory TypeScript files (paths relative to a virtual root) and return the diagnostics as
 * "path:line:col: message" lines. Files that are not given are read from disk (lib files).
 */
export function typecheckFiles(files: ReadonlyMap<string, string>): string[] {
  const root = path.resolve("/__specforge_check__");
  const abs = new Map([...files].map(([p, text]) => [path.join(root, p), text]));
  const host = ts.createCompilerHost(STRICT_OPTIONS);
  const readFile = host.readFile.bind(host);
  const fileExists = host.fileExists.bind(host);
  host.readFile = (f) => abs.get(path.resolve(f)) ?? readFile(f);
  host.fileExists = (f) => abs.has(path.resolve(f)) || fileExists(f);
  const directoryExists = host.directoryExists?.bind(host);
  host.directoryExists = (d) => {
    const dir = path.resolve(d);
    if (dir === root || dir.startsWith(root + path.sep)) return [...abs.keys()].some((f) => f.startsWith(dir + path.sep));
    return directoryExists ? directoryExists(d) : true;
  };
  host.realpath = (p) => p;
  host.getSourceFile = (f, lang) => {
    const text = host.readFile(f);
    return text === undefined ? undefined : ts.createSourceFile(f, text, lang, true);
  };
  host.writeFile = () => undefined;
  const program = ts.createProgram([...abs.keys()], STRICT_OPTIONS, host);
  return ts.getPreEmitDiagnostics(program).map((d) => {
    const msg = ts.flattenDiagnosticMessageText(d.messageText, "\n");
    if (!d.file || d.start === undefined) return msg;
    const { line, character } = d.file.getLineAndCharacterOfPosition(d.start);
    return `${path.relative(root, d.file.fileName)}:${line + 1}:${character + 1}: ${msg}`;
  });
}
