import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import Handlebars from "handlebars";
import type { EmitContext } from "../emitters/artifact.js";
import { UsageError } from "../errors.js";

/** templates/ of the package: two levels up from both src/pipeline/ and dist/pipeline/. */
export const BUILTIN_TEMPLATES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../templates");

/** The shells a run may override, by name (file `<name>.hbs`). docs/templates.md documents each one's context. */
export const TEMPLATE_NAMES = ["client", "server", "package-readme"] as const;
export type TemplateName = (typeof TEMPLATE_NAMES)[number];

// One isolated handlebars environment: no helpers or partials registered by anyone else leak into our shells.
const hbs = Handlebars.create();
const compiled = new Map<string, { text: string; render: Handlebars.TemplateDelegate }>();

/**
 * The handlebars shells of one run: `<overrides>/<name>.hbs` when that file exists, else the built-in one.
 * Shells are compiled strict (an unknown variable is an error naming the template file, line and column), without
 * HTML escaping (the output is code), and with only the built-in block helpers (if, unless, each, with).
 */
export class Templates {
  constructor(readonly overrides?: string) {}

  /** The file a template name resolves to. */
  file(name: TemplateName): string {
    const own = this.overrides !== undefined ? path.join(this.overrides, `${name}.hbs`) : undefined;
    return own !== undefined && existsSync(own) ? own : path.join(BUILTIN_TEMPLATES, `${name}.hbs`);
  }

  /** The template files in use (for watch fingerprints). */
  files(): string[] {
    return TEMPLATE_NAMES.map((n) => this.file(n));
  }

  render(name: TemplateName, context: Readonly<Record<string, unknown>>): string {
    const file = this.file(name);
    let text: string;
    try {
      text = readFileSync(file, "utf8");
    } catch (e) {
      throw new UsageError(`${file}: cannot read template: ${(e as Error).message}`);
    }
    let entry = compiled.get(file);
    if (!entry || entry.text !== text) {
      entry = { text, render: hbs.compile(text, { strict: true, noEscape: true, knownHelpersOnly: true }) };
      compiled.set(file, entry);
    }
    try {
      return entry.render(context);
    } catch (e) {
      throw templateError(file, e, context);
    }
  }
}

/** Handlebars says `"x" not defined in [object Object] - 3:4` (column from 0); say it as `file:3:5: ...`. */
function templateError(file: string, e: unknown, context: Readonly<Record<string, unknown>>): UsageError {
  const message = (e as Error)?.message ?? String(e);
  const unknown = /^"([^"]+)" not defined in .* - (\d+):(\d+)$/s.exec(message);
  if (unknown) {
    const known = Object.keys(context).sort().join(", ");
    return new UsageError(`${file}:${unknown[2]}:${Number(unknown[3]) + 1}: unknown variable "${unknown[1]}" (the context has: ${known})`);
  }
  return new UsageError(`${file}: ${message}`);
}

export const DEFAULT_TEMPLATES = new Templates();

/** What every shell gets about the spec. */
export function specContext(ctx: EmitContext): Record<string, string> {
  return {
    spec: ctx.dir,
    source: ctx.source,
    format: ctx.doc.format,
    title: ctx.doc.info.title ?? "",
    version: ctx.doc.info.version ?? "",
  };
}
