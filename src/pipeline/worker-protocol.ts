import type { IrDocument, SpecWarning } from "../ir/model.js";
import type { OutputFile, SpecInput } from "./generate-files.js";

/** One spec for a worker: everything a serial run would take from the ResolvedRun, as plain data. */
export interface SpecRequest {
  readonly index: number;
  readonly spec: SpecInput;
  readonly importPath: string;
  /** The run's working folder and proto include folders (the worker builds its own node host from them). */
  readonly cwd: string;
  readonly includeDirs: readonly string[];
  /** The run's XML catalog (absolute), if any. */
  readonly catalog?: string;
  /** The host's read rules (NodeHostOptions). */
  readonly roots?: readonly string[];
  readonly maxFileBytes?: number;
  readonly templates?: string;
  /** The run's plugin files (ResolvedRun.plugins): each worker loads them itself. */
  readonly plugins: readonly string[];
}

/** A file the spec read: absolute path, size and time, as the `read` event reports it. */
export interface WorkerRead {
  readonly file: string;
  readonly bytes: number;
  readonly ms: number;
}

/** One located error of a spec, in parts. */
export interface WorkerSpecError {
  readonly file: string;
  readonly line: number;
  readonly column: number;
  readonly detail: string;
}

/** An error thrown in a worker, in parts: SpecError and UsageError are rebuilt as such on the main thread. */
export type WorkerError =
  | { readonly kind: "spec"; readonly message: string; readonly file: string; readonly line: number; readonly column: number; readonly detail: string }
  /** SpecErrors: every error the parser collected for the spec. */
  | { readonly kind: "specs"; readonly errors: readonly WorkerSpecError[]; readonly truncated: boolean }
  | { readonly kind: "usage"; readonly message: string }
  | { readonly kind: "internal"; readonly message: string; readonly stack?: string };

export type SpecResponse =
  | {
      readonly index: number;
      readonly ok: true;
      readonly dir: string;
      readonly files: readonly OutputFile[];
      readonly doc: IrDocument;
      /** SpecOutput.warnings: the parser's and the emitters'. */
      readonly warnings: readonly SpecWarning[];
      /** Absolute path -> content hash (null: looked for, missing), as recordingHost keeps them. */
      readonly inputs: readonly (readonly [string, string | null])[];
      readonly reads: readonly WorkerRead[];
      readonly ms: number;
    }
  | { readonly index: number; readonly ok: false; readonly error: WorkerError; readonly reads: readonly WorkerRead[] };
