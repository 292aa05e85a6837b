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
  paths: {
    "specforge/runtime": [path.resolve(import.meta.dirname, "../../src/runtime/index.ts")],
    ...Object.fromEntries(["protobuf", "json", "xml", "soap", "rest", "rpc"].map((a) => [`specforge/runtime/${a}`, [path.resolve(import.meta.dirname, `../../src/runtime/areas/${a}.ts`)]])),
  },
  lib: ["lib.es2022.d.ts", "lib.dom.d.ts"],
};

const ROOT = path.resolve("/__specforge_check__");

/**
 * Files read from disk (lib.*.d.ts, the runtime's source) parsed once per test process: a test file type-checks
 * many small outputs, and parsing lib.dom.d.ts and the runtime again for each was most of the cost. The files do not
 * change while tests run; the in-memory generated files are never cached.
 */
const diskSourceFiles = new Map<string, ts.SourceFile>();

function compilerHost(abs: ReadonlyMap<string, string>, options: ts.CompilerOptions = STRICT_OPTIONS): ts.CompilerHost {
  const host = ts.createCompilerHost(options);
  const readFile = host.readFile.bind(host);
  const fileExists = host.fileExists.bind(host);
  host.readFile = (f) => abs.get(path.resolve(f)) ?? readFile(f);
  host.fileExists = (f) => abs.has(path.resolve(f)) || fileExists(f);
  const directoryExists = host.directoryExists?.bind(host);
  host.directoryExists = (d) => {
    const dir = path.resolve(d);
    if (dir === ROOT || dir.startsWith(ROOT + path.sep)) return [...abs.keys()].some((f) => f.startsWith(dir + path.sep));
    return directoryExists ? directoryExists(d) : true;
  };
  host.realpath = (p) => p;
  host.getSourceFile = (f, lang) => {
    const resolved = path.resolve(f);
    const own = abs.get(resolved);
    if (own !== undefined) return ts.createSourceFile(f, own, lang, true);
    const cached = diskSourceFiles.get(resolved);
    if (cached !== undefined) return cached;
    const text = readFile(f);
    if (text === undefined) return undefined;
    const parsed = ts.createSourceFile(f, text, lang, true);
    diskSourceFiles.set(resolved, parsed);
    return parsed;
  };
  host.writeFile = () => undefined;
  return host;
}

function formatDiagnostic(d: ts.Diagnostic): { file: string | undefined; text: string } {
  const msg = ts.flattenDiagnosticMessageText(d.messageText, "\n");
  if (!d.file || d.start === undefined) return { file: undefined, text: msg };
  const { line, character } = d.file.getLineAndCharacterOfPosition(d.start);
  const file = path.relative(ROOT, d.file.fileName);
  return { file, text: `${file}:${line + 1}:${character + 1}: ${msg}` };
}

/**
 * Type-check a set of in-memory TypeScript files (paths relative to a virtual root) and return the diagnostics as
 * "path:line:col: message" lines. Files that are not given are read from disk (lib files). `overrides` change
 * STRICT_OPTIONS (another runtime's `paths`, say).
 */
export function typecheckFiles(files: ReadonlyMap<string, string>, overrides: ts.CompilerOptions = {}): string[] {
  const abs = new Map([...files].map(([p, text]) => [path.join(ROOT, p), text]));
  const options = { ...STRICT_OPTIONS, ...overrides };
  const program = ts.createProgram([...abs.keys()], options, compilerHost(abs, options));
  return ts.getPreEmitDiagnostics(program).map((d) => formatDiagnostic(d).text);
}

/**
 * Type-check several independent sets of files in one program (each set under a folder of its own, named by its
 * key), so the runtime and the lib files are checked once rather than once per set. Returns each set's diagnostics
 * with paths relative to its folder; a diagnostic outside every set (none expected) is reported under every key.
 */
export function typecheckFileSets(sets: ReadonlyMap<string, ReadonlyMap<string, string>>): Map<string, string[]> {
  const abs = new Map<string, string>();
  const keyOfFolder = new Map<string, string>();
  [...sets.keys()].forEach((key, i) => {
    const folder = `set${i}`;
    keyOfFolder.set(folder, key);
    for (const [p, text] of sets.get(key)!) abs.set(path.join(ROOT, folder, p), text);
  });
  const program = ts.createProgram([...abs.keys()], STRICT_OPTIONS, compilerHost(abs));
  const result = new Map<string, string[]>([...sets.keys()].map((key) => [key, []]));
  for (const d of ts.getPreEmitDiagnostics(program)) {
    const { file, text } = formatDiagnostic(d);
    const folder = file?.split(/[\\/]/)[0];
    const key = folder === undefined ? undefined : keyOfFolder.get(folder);
    if (key === undefined) for (const list of result.values()) list.push(text);
    else result.get(key)!.push(text.slice(folder!.length + 1));
  }
  return result;
}
