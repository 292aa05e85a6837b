/**
 * Test helper: generate a proto spec's types and codecs into a fresh folder under the OS temp dir, importing the
 * runtime from its source (absolute path), so tests can import the generated code dynamically.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Int64Mode } from "../../../src/emitters/types/context.js";
import type { EmitContext } from "../../../src/emitters/artifact.js";
import { emitProtobufCodecs } from "../../../src/emitters/protobuf/emit-codec.js";
import { emitProtoValidators } from "../../../src/emitters/protobuf/validate/emit-validate.js";
import { emitTypes } from "../../../src/emitters/types/emit-types.js";
import type { IrDocument } from "../../../src/ir/model.js";
import { assignNames } from "../../../src/naming/assign-names.js";
import { nodeSpecHost } from "../../../src/parsers/host.js";
import { loadSpec } from "../../../src/pipeline/load-spec.js";

export const REPO = path.resolve(import.meta.dirname, "../../..");
export const CORPUS = path.resolve(REPO, "../shared/corpus");
export const RUNTIME = path.join(REPO, "src/runtime/index.ts");

export interface Generated {
  readonly dir: string;
  readonly doc: IrDocument;
  readonly ctx: EmitContext;
  /** File name (types.ts, protobuf.ts, ...) -> content. */
  readonly files: ReadonlyMap<string, string>;
}

/** Emitters under test, besides types.ts; each returns one file. */
export type Emit = (ctx: EmitContext) => { path: string; render(): string };

export function generate(spec: string, options: { includeDirs?: string[]; int64?: Int64Mode; runtimeModule?: string; emitters?: Emit[] } = {}): Generated {
  const doc = loadSpec(spec, nodeSpecHost({ includeDirs: options.includeDirs ?? [] }));
  const ctx: EmitContext = {
    doc,
    names: assignNames(doc),
    dir: "out",
    source: path.basename(spec),
    int64: options.int64 ?? "bigint",
    runtimeModule: options.runtimeModule ?? RUNTIME,
  };
  const emitted = [emitTypes(doc, ctx.names, { dir: "out", source: ctx.source, int64: ctx.int64 }), ...(options.emitters ?? [emitProtobufCodecs, emitProtoValidators]).map((e) => e(ctx))];
  const dir = mkdtempSync(path.join(os.tmpdir(), "specforge-pb-"));
  mkdirSync(dir, { recursive: true });
  const files = new Map<string, string>();
  for (const g of emitted) {
    const name = path.basename(g.path);
    const text = g.render();
    files.set(name, text);
    writeFileSync(path.join(dir, name), text);
  }
  return { dir, doc, ctx, files };
}

/** Import a generated module (vitest transpiles it). */
export async function load<T = Record<string, unknown>>(g: Generated, file = "protobuf.ts"): Promise<T> {
  return (await import(path.join(g.dir, file))) as T;
}
