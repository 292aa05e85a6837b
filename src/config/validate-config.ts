import { configOptions, type OptionDef } from "./options.js";

/**
 * Validation of a parsed config, driven by the option table: unknown keys, types and enum values. Returns the
 * first problem as `"<key>" must be ...` / `unknown option "<key>"` (the caller prefixes the file name), or
 * undefined when the config is valid. Kept in step with the JSON Schema by test/config/schema.test.ts.
 */
export function configProblem(raw: unknown): string | undefined {
  if (!isObject(raw)) return "the config must be a JSON object";
  const globals = configOptions("global");
  const inherited = configOptions("spec").filter((o) => o.inherit);
  const top = new Map([...globals, ...inherited].map((o) => [o.name, o]));
  for (const [key, value] of Object.entries(raw)) {
    if (key === "$schema") {
      if (typeof value !== "string") return `"$schema" must be a string`;
      continue;
    }
    const def = top.get(key);
    if (!def) return `unknown option "${key}"`;
    const problem = valueProblem(def, value, key);
    if (problem) return problem;
  }
  return undefined;
}

/** Whether a value fits an option; `at` is how the value is named in the message (`specs[0].int64`). */
function valueProblem(def: OptionDef, value: unknown, at: string): string | undefined {
  const must = (what: string) => `"${at}" must be ${def.expected ?? what}`;
  switch (def.type) {
    case "string":
      return typeof value === "string" ? undefined : must("a string");
    case "boolean":
      return typeof value === "boolean" ? undefined : must("true or false");
    case "string[]":
      return Array.isArray(value) && value.every((v) => typeof v === "string") ? undefined : must("a list of strings");
    case "enum":
      return def.values!.includes(value as string) ? undefined : `"${at}" must be one of ${def.values!.join(", ")}`;
    case "enum[]": {
      if (!Array.isArray(value)) return `"${at}" must be a list of ${def.values!.join(", ")}`;
      const bad = value.findIndex((v) => !def.values!.includes(v as string));
      return bad < 0 ? undefined : `"${at}[${bad}]" must be one of ${def.values!.join(", ")}`;
    }
    case "specs":
      return specsProblem(def, value, at);
  }
}

function specsProblem(def: OptionDef, value: unknown, at: string): string | undefined {
  if (typeof value === "string") return undefined;
  if (!Array.isArray(value)) return `"${at}" must be ${def.expected}`;
  const specDefs = new Map(configOptions("spec").map((o) => [o.name, o]));
  for (const [i, entry] of value.entries()) {
    const here = `${at}[${i}]`;
    if (typeof entry === "string") continue;
    if (!isObject(entry)) return `"${here}" must be a path or an object`;
    for (const d of specDefs.values()) {
      if (d.required && entry[d.name] === undefined) return `"${here}.${d.name}" must be ${d.expected ?? "given"}`;
    }
    for (const [key, v] of Object.entries(entry)) {
      const d = specDefs.get(key);
      if (!d) return `unknown option "${here}.${key}"`;
      const problem = valueProblem(d, v, `${here}.${key}`);
      if (problem) return problem;
    }
  }
  return undefined;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}
