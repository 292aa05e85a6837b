/**
 * Real compilers as the reference for our .proto front end: buf (its compiler ships inside the @bufbuild/buf npm
 * package and works offline) and, for what buf refuses, Debian's protoc (scripts/ensure-tools.sh installs it).
 * Each returns the FileDescriptorSet it produced, as a @bufbuild/protobuf registry.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { createFileRegistry, fromBinary, type FileRegistry } from "@bufbuild/protobuf";
import { FileDescriptorSetSchema } from "@bufbuild/protobuf/wkt";

const require = createRequire(import.meta.url);

/** The buf executable of the @bufbuild/buf dev dependency. */
export const BUF = path.join(path.dirname(require.resolve("@bufbuild/buf/package.json")), "bin", "buf");

/**
 * `buf build <root> -o -#format=binpb`: every .proto under `root` (the import root, like `protoc -I root`) in one
 * invocation, except `exclude` (paths relative to root). buf's cache goes to a temporary folder, not $HOME.
 */
export function bufBuild(root: string, exclude: readonly string[] = []): FileRegistry {
  const cache = mkdtempSync(path.join(tmpdir(), "specforge-buf-cache-"));
  try {
    const args = ["build", root, ...exclude.flatMap((p) => ["--exclude-path", path.join(root, p)]), "-o", "-#format=binpb"];
    const bytes = execFileSync(BUF, args, { env: { ...process.env, BUF_CACHE_DIR: cache }, maxBuffer: 256 * 1024 * 1024, stdio: ["ignore", "pipe", "pipe"] });
    return createFileRegistry(fromBinary(FileDescriptorSetSchema, new Uint8Array(bytes)));
  } finally {
    rmSync(cache, { recursive: true, force: true });
  }
}

/** `protoc -I root --include_imports -o <set> file` (protoc writes the set to a file, not to a pipe). */
export function protocBuild(root: string, file: string): FileRegistry {
  const dir = mkdtempSync(path.join(tmpdir(), "specforge-protoc-"));
  try {
    const out = path.join(dir, "set.binpb");
    execFileSync("protoc", [`-I${root}`, "--include_imports", `-o${out}`, file], { cwd: root, stdio: ["ignore", "pipe", "pipe"] });
    return createFileRegistry(fromBinary(FileDescriptorSetSchema, new Uint8Array(readFileSync(out))));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
