/**
 * The connect-es side's message and service code, made the way its users make it: protoc with
 * @bufbuild/protoc-gen-es (target=ts) over the same .proto, into a temporary folder, then imported. The folder
 * gets a `node_modules` link to the repo's, so the generated `@bufbuild/protobuf` imports resolve to the one copy
 * connect-node uses.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { DescMessage, DescService } from "@bufbuild/protobuf";
import { FIXTURES_DIR } from "./interop-shape.js";

const REPO = path.resolve(import.meta.dirname, "../../..");
const PLUGIN = path.join(REPO, "node_modules/.bin/protoc-gen-es");

/** What interop_pb.ts exports that the harness uses (typed loosely: the module exists only at test time). */
export interface EsInterop {
  readonly InteropService: DescService;
  readonly PayloadSchema: DescMessage;
  readonly EchoRequestSchema: DescMessage;
  readonly EchoResponseSchema: DescMessage;
}

export interface EsGenerated<T> {
  readonly module: T;
  readonly dir: string;
  remove(): void;
}

/** Run protoc-gen-es over `protoFile` (relative to `includeDir`) and import the generated `<name>_pb.ts`. */
export async function generateEs<T>(protoFile: string, includeDir: string): Promise<EsGenerated<T>> {
  const dir = mkdtempSync(path.join(tmpdir(), "specforge-es-peer-"));
  try {
    symlinkSync(path.join(REPO, "node_modules"), path.join(dir, "node_modules"), "dir");
    execFileSync("protoc", [`--plugin=protoc-gen-es=${PLUGIN}`, `--es_out=${dir}`, "--es_opt=target=ts", `-I${includeDir}`, protoFile], {
      cwd: includeDir,
      timeout: 30_000,
      stdio: ["ignore", "ignore", "pipe"],
    });
    const generated = path.join(dir, protoFile.replace(/\.proto$/, "_pb.ts"));
    const module = (await import(pathToFileURL(generated).href)) as T;
    return { module, dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
}

/** interop.proto through protoc-gen-es. */
export function generateEsInterop(): Promise<EsGenerated<EsInterop>> {
  return generateEs<EsInterop>("interop.proto", FIXTURES_DIR);
}
