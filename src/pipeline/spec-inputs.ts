import path from "node:path";
import type { ResolvedRun } from "../config/resolve.js";
import { runSpec } from "./run-spec.js";
import { Templates } from "./templates.js";

/** One spec's part of `inspect --inputs`: paths relative to the working folder, with forward slashes, sorted. */
export interface SpecInputsEntry {
  readonly spec: string;
  /** The spec's output folder. */
  readonly out: string;
  /** Every file the spec read: itself, proto imports, xsd:import/include, WSDL imports, OpenAPI $refs to other files. */
  readonly inputs: readonly string[];
  /** Every file generate writes for the spec (the folder holds exactly these). */
  readonly outputs: readonly string[];
}

/**
 * What `specforge inspect --inputs` prints: for build systems (Bazel, Nx, Turborepo) that cache generation and run
 * it elsewhere, so they must be told every file it reads and writes. Besides each spec's own files, generation
 * depends on the config file and on template overrides, listed once for all specs.
 */
export interface InputsReport {
  readonly config: string | null;
  readonly templates: readonly string[];
  readonly specs: readonly SpecInputsEntry[];
}

/**
 * Generates every spec of the run in memory (nothing is written) and records what it read. Generating, rather than
 * only parsing, is what names the output files. A spec error is thrown as in generate.
 */
export function specInputs(run: ResolvedRun, cwd: string): InputsReport {
  const shown = (abs: string) => {
    const rel = path.relative(cwd, abs);
    return (rel === "" ? "." : rel).split(path.sep).join("/");
  };
  const templates = new Templates(run.templates);
  const specs = run.specs.map((spec): SpecInputsEntry => {
    const { output, inputs } = runSpec(run, spec, undefined, templates);
    // Files looked for but missing (a proto import tried in each include folder) are not inputs: only those read.
    const read = [...inputs].filter(([, hash]) => hash !== null).map(([file]) => shown(file));
    return {
      spec: spec.display,
      out: shown(path.join(run.outRoot, output.dir)),
      inputs: [...new Set(read)].sort(),
      outputs: output.files.map((f) => shown(path.join(run.outRoot, f.path))).sort(),
    };
  });
  const overrides = run.templates === undefined ? [] : templates.files().filter((f) => f.startsWith(run.templates! + path.sep));
  return { config: run.configFile ? shown(run.configFile) : null, templates: overrides.map(shown).sort(), specs };
}
