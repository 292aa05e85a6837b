/** Test helper: protoc as the reference implementation (--encode / --decode / --decode_raw). */
import { execFileSync } from "node:child_process";
import path from "node:path";

export function protocEncode(proto: string, includeDir: string, message: string, text: string): Uint8Array {
  return new Uint8Array(execFileSync("protoc", [`-I${includeDir}`, `--encode=${message}`, path.relative(includeDir, proto)], { cwd: includeDir, input: text }));
}

export function protocDecode(proto: string, includeDir: string, message: string, bytes: Uint8Array): string {
  return execFileSync("protoc", [`-I${includeDir}`, `--decode=${message}`, path.relative(includeDir, proto)], { cwd: includeDir, input: bytes, maxBuffer: 64 * 1024 * 1024 }).toString("utf8");
}
