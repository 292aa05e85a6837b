/**
 * A spec opened for mocking: its IR, the names the generated code uses, and the generated code itself (validators,
 * codecs, the typed server and client), transpiled and imported the way `specforge convert` does it.
 */
import path from "node:path";
import type { IrDocument } from "../ir/model.js";
import { assignNames, type Names } from "../naming/assign-names.js";
import { catalogFile } from "../config/resolve.js";
import { nodeSpecHost } from "../parsers/host.js";
import { generateSpec } from "../pipeline/generate-files.js";
import { loadGenerated, type GeneratedModule } from "../convert/load-generated.js";
import { runtimeModuleUrl } from "../convert/runtime-location.js";

export interface LoadedSpec {
  readonly doc: IrDocument;
  readonly names: Names;
  /** Every export of the generated code (validate<T>, encode<T>Json, create<Service>Handler...). */
  readonly module: GeneratedModule;
  /** The specforge runtime the generated code imports. */
  readonly runtime: GeneratedModule;
  readonly int64: "bigint" | "string" | "number";
  readonly dates: "string" | "Date";
}

export interface LoadSpecOptions {
  readonly spec: string;
  readonly cwd?: string;
  readonly protoPaths?: readonly string[];
  readonly catalog?: string;
  readonly cacheDir?: string;
}

export async function loadSpecForMock(options: LoadSpecOptions): Promise<LoadedSpec> {
  const cwd = path.resolve(options.cwd ?? process.cwd());
  const file = path.resolve(cwd, options.spec);
  const catalog = catalogFile(options.catalog !== undefined ? path.resolve(cwd, options.catalog) : undefined);
  const host = nodeSpecHost({ cwd, includeDirs: (options.protoPaths ?? []).map((p) => path.resolve(cwd, p)), catalog });
  const runtimeUrl = runtimeModuleUrl();
  const output = generateSpec({ file, display: host.displayPath(file), runtimeModule: runtimeUrl }, host);
  const names = assignNames(output.doc);
  const module = await loadGenerated(output.files, output.dir, runtimeUrl, options.cacheDir);
  const runtime = (await import(runtimeUrl)) as GeneratedModule;
  return { doc: output.doc, names, module, runtime, int64: output.doc.format === "openapi" ? "number" : "bigint", dates: "string" };
}
