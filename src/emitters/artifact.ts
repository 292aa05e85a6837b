import type { GeneratedFile } from "../codegen/generated-file.js";
import type { IrDocument, Origin, TypeId } from "../ir/model.js";
import type { Names } from "../naming/assign-names.js";
import type { DatesMode, Int64Mode } from "./types/context.js";

/** OpenAPI string formats: checked by validators, or annotations only. */
export type FormatsMode = "assert" | "annotate";

/** What every emitter gets: the IR, the names, and where its files go. Emitters never read spec files. */
export interface EmitContext {
  readonly doc: IrDocument;
  readonly names: Names;
  /** Output folder (relative to the output root) for this spec, e.g. "partner". */
  readonly dir: string;
  /** The spec as the user named it, for file headers. */
  readonly source: string;
  readonly int64: Int64Mode;
  /** date-time values as RFC 3339 strings (default) or Date objects. */
  readonly dates?: DatesMode;
  /** OpenAPI string formats checked by the validators (assert, the default) or annotations only (annotate). */
  readonly formats?: FormatsMode;
  /** Module specifier generated code imports its runtime from. Default "specforge/runtime". */
  readonly runtimeModule: string;
  /**
   * Report a located warning: something at `origin` the output cannot do exactly and does in a degraded form (a
   * binding without a client, a check left looser). The pipeline reports it with the parser's warnings.
   */
  readonly warn?: (origin: Origin, detail: string) => void;
  /**
   * Set when the output is laid out one module per input file (src/pipeline/module-layout.ts): types declared in
   * another input file are that file's module's, so this module imports them instead of emitting them again, and it
   * exports its own internal helpers under `$` names for the modules that import it (see src/emitters/modules.ts).
   */
  readonly modules?: EmitModules;
}

export interface EmitModules {
  /** The module of the input file that declares `id`; undefined for a type this module's own file declares. */
  foreign(id: TypeId): ForeignModule | undefined;
}

/** The generated module of another input file. */
export interface ForeignModule {
  /** Its folder as an import specifier relative to this module's folder, e.g. "../content". */
  readonly specifier: string;
  /** Its folder under the output root, e.g. "content". */
  readonly dir: string;
  /** Its document (its own file and what that imports) and names, as its own generation had them. */
  readonly doc: IrDocument;
  readonly names: Names;
}

/**
 * One kind of generated output (types, validators, serializers, client, server). Each artifact decides which
 * specs it applies to and returns whole files; the pipeline renders them and writes an index re-exporting all.
 * Exported names must not clash between artifacts of one spec (the index uses `export *`).
 */
export interface Artifact {
  readonly name: string;
  applies(doc: IrDocument): boolean;
  emit(ctx: EmitContext): GeneratedFile[];
}
