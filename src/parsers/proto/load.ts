/**
 * Reads the entry .proto and, transitively, everything it imports. Like protoc, an import path is looked up in the
 * include directories (host.includeDirs; without any, the working directory, as protoc's proto path defaults to "."),
 * never relative to the importing file. The entry file's directory is searched last, so that a spec whose imports
 * are relative to its own folder needs no -I.
 * Each file is parsed once; files come back in import order (entry first, then a depth-first walk of its imports).
 */
import path from "node:path";
import { SpecError, UsageError } from "../../errors.js";
import type { SpecHost } from "../host.js";
import type { ImportDecl, ProtoFile } from "./ast.js";
import { parseProtoFile } from "./parser.js";

export interface LoadedFile {
  readonly ast: ProtoFile;
  /** Absolute paths of the direct imports, in import order, with the import statement that named them. */
  readonly imports: readonly { readonly decl: ImportDecl; readonly target: string }[];
}

/** What is wrong with an import path by protoc's rules, if anything. */
function virtualPathProblem(importPath: string): string | undefined {
  if (importPath.startsWith("/") || /^[A-Za-z]:/.test(importPath)) return "an import path is relative to the proto path (-I), never absolute (as protoc requires)";
  if (importPath.includes("\\")) return "an import path uses forward slashes (as protoc requires)";
  if (importPath.split("/").some((part) => part === "" || part === "." || part === "..")) {
    return 'an import path may not contain ".", ".." or empty segments: it names a file inside the proto path (as protoc requires)';
  }
  return undefined;
}

export function loadProtoFiles(entryFile: string, host: SpecHost): LoadedFile[] {
  const protoPath = host.includeDirs?.length ? host.includeDirs : host.workingDir !== undefined ? [host.workingDir] : [];
  const searchDirs = [...new Set([...protoPath, path.dirname(entryFile)].map((d) => path.resolve(d)))];
  const loaded = new Map<string, LoadedFile>();
  const order: string[] = [];
  const stack: string[] = [];

  const visit = (abs: string, text: string): void => {
    stack.push(abs);
    const ast = parseProtoFile(text, abs, host.displayPath(abs));
    const imports: { decl: ImportDecl; target: string }[] = [];
    const file: LoadedFile = { ast, imports };
    loaded.set(abs, file);
    order.push(abs);
    for (const decl of ast.imports) {
      // protoc's rule: an import is a path inside the proto path ("virtual path"), so it can never name a file
      // outside the include directories; nothing is opened for one that breaks it.
      const bad = virtualPathProblem(decl.path);
      if (bad) throw new SpecError(ast.display, decl.pos.line, decl.pos.column, `import "${decl.path}": ${bad}`);
      const found = find(decl.path, ast.display, decl);
      if (!found) {
        const dirs = searchDirs.map((d) => host.displayPath(d) || ".").join(", ");
        throw new SpecError(ast.display, decl.pos.line, decl.pos.column, `import "${decl.path}" not found (searched: ${dirs})`);
      }
      if (imports.some((i) => i.target === found.abs)) {
        throw new SpecError(ast.display, decl.pos.line, decl.pos.column, `import "${decl.path}" was listed twice`);
      }
      imports.push({ decl, target: found.abs });
      if (stack.includes(found.abs)) {
        const cycle = [...stack.slice(stack.indexOf(found.abs)), found.abs].map((p) => host.displayPath(p)).join(" -> ");
        throw new SpecError(ast.display, decl.pos.line, decl.pos.column, `import cycle: ${cycle}`);
      }
      if (!loaded.has(found.abs)) visit(found.abs, found.text);
    }
    stack.pop();
  };

  const find = (importPath: string, display: string, decl: ImportDecl): { abs: string; text: string } | undefined => {
    for (const dir of searchDirs) {
      const abs = path.resolve(dir, importPath);
      if (loaded.has(abs)) return { abs, text: "" };
      try {
        return { abs, text: host.readFile(abs) };
      } catch (e) {
        // Not in this directory: try the next one. A file that is there but refused (a device, too large, outside
        // the roots) is reported as such, not as missing.
        const code = (e as { code?: unknown }).code;
        if (code === "ENOENT" || code === "ENOTDIR") continue;
        throw new SpecError(display, decl.pos.line, decl.pos.column, `import "${importPath}": cannot read ${host.displayPath(abs)}: ${(e as Error).message}`);
      }
    }
    return undefined;
  };

  let entryText: string;
  try {
    entryText = host.readFile(entryFile);
  } catch (e) {
    throw new UsageError(`cannot read ${host.displayPath(entryFile)}: ${(e as Error).message}`);
  }
  visit(entryFile, entryText);
  return order.map((p) => loaded.get(p)!);
}
