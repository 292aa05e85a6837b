/**
 * The corpus compiled by real compilers into FileDescriptorSets with SourceCodeInfo (what a plugin receives):
 * buf (the @bufbuild/buf dev dependency) and Debian's protoc (scripts/ensure-tools.sh).
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fromBinary } from "@bufbuild/protobuf";
import { FileDescriptorSetSchema, type FileDescriptorProto } from "@bufbuild/protobuf/wkt";
import { BUF } from "../proto/oracle/compilers.js";

/** Every .proto under root, relative with forward slashes, sorted. */
export function protoFiles(root: string, dir = root): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const p = path.join(dir, name);
      return statSync(p).isDirectory() ? protoFiles(root, p) : name.endsWith(".proto") ? [path.relative(root, p).split(path.sep).join("/")] : [];
    });
}

/** `buf build root -o -#format=binpb` (buf keeps source info unless told otherwise), leaving out `exclude`. */
export function bufDescriptors(root: string, exclude: readonly string[] = []): FileDescriptorProto[] {
  const cache = mkdtempSync(path.join(tmpdir(), "specforge-buf-cache-"));
  try {
    const args = ["build", root, ...exclude.flatMap((p) => ["--exclude-path", path.join(root, p)]), "-o", "-#format=binpb"];
    const bytes = execFileSync(BUF, args, { env: { ...process.env, BUF_CACHE_DIR: cache }, maxBuffer: 256 * 1024 * 1024, stdio: ["ignore", "pipe", "pipe"] });
    return fromBinary(FileDescriptorSetSchema, new Uint8Array(bytes)).file;
  } finally {
    rmSync(cache, { recursive: true, force: true });
  }
}

/** `protoc -I root --include_imports --include_source_info -o set files...` */
export function protocDescriptors(root: string, files: readonly string[]): FileDescriptorProto[] {
  const dir = mkdtempSync(path.join(tmpdir(), "specforge-protoc-"));
  try {
    const out = path.join(dir, "set.binpb");
    execFileSync("protoc", [`-I${root}`, "--include_imports", "--include_source_info", `-o${out}`, ...files], { cwd: root, stdio: ["ignore", "pipe", "pipe"] });
    return fromBinary(FileDescriptorSetSchema, new Uint8Array(readFileSync(out))).file;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
