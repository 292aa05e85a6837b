import { readFileSync } from "node:fs";
import path from "node:path";

/**
 * How parsers reach the file system. Parsers never call `fs` directly, so tests can feed them in-memory specs and
 * the CLI can decide how paths are shown.
 */
export interface SpecHost {
  /** Read a file by absolute path; throws (ENOENT etc.) when it cannot. */
  readFile(absolutePath: string): string;
  /** How a path appears in error messages (`file:line:col`): relative to the working directory by default. */
  displayPath(absolutePath: string): string;
  /** Extra directories searched for proto imports (like protoc -I). The entry file's directory is always searched. */
  readonly includeDirs?: readonly string[];
  /** The working directory: like protoc, the proto path when no include directories are given. */
  readonly workingDir?: string;
  /** Absolute path of the OASIS XML catalog that maps remote (or missing) schema and WSDL locations to local files. */
  readonly catalog?: string;
}

export function nodeSpecHost(options: { cwd?: string; includeDirs?: readonly string[]; catalog?: string } = {}): SpecHost {
  const cwd = options.cwd ?? process.cwd();
  return {
    readFile: (p) => readFileSync(p, "utf8"),
    displayPath: (p) => {
      const rel = path.relative(cwd, p);
      return rel.startsWith("..") || path.isAbsolute(rel) ? p : rel;
    },
    includeDirs: options.includeDirs,
    workingDir: cwd,
    ...(options.catalog !== undefined ? { catalog: options.catalog } : {}),
  };
}

/** An in-memory host for tests: keys are absolute paths ("/spec/a.wsdl"). */
export function memorySpecHost(files: Readonly<Record<string, string>>, includeDirs?: readonly string[], catalog?: string): SpecHost {
  return {
    readFile: (p) => {
      const text = files[p];
      if (text === undefined) throw Object.assign(new Error(`ENOENT: no such file '${p}'`), { code: "ENOENT" });
      return text;
    },
    displayPath: (p) => p,
    includeDirs,
    ...(catalog !== undefined ? { catalog } : {}),
  };
}

/**
 * The path recorded in `Origin.file`: relative to the entry spec's folder, with forward slashes, so that generated
 * doc comments do not depend on where specforge was run from.
 */
export function originPath(entryFile: string, file: string): string {
  const rel = path.relative(path.dirname(entryFile), file).split(path.sep).join("/");
  return rel === "" ? path.basename(file) : rel;
}
