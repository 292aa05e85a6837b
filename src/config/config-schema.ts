import { configOptions, type OptionDef } from "./options.js";

type Schema = { [key: string]: unknown };

/**
 * The JSON Schema (draft-07, the draft editors support best) of specforge.config.json, built from the option
 * table. `npm run schema` writes it to specforge.schema.json; a test fails when that file is stale.
 */
export function configJsonSchema(): Schema {
  const globals = configOptions("global");
  const specOptions = configOptions("spec");
  const properties: Schema = { $schema: { type: "string", description: "The JSON Schema of this file." } };
  for (const o of [...globals, ...specOptions.filter((s) => s.inherit)]) {
    properties[o.name] = o.type === "specs" ? specsSchema(o) : valueSchema(o, o.inherit ? " Default for every spec; a spec entry may override it." : "");
  }
  const specProperties: Schema = {};
  for (const o of specOptions) specProperties[o.name] = valueSchema(o, "");
  return {
    $schema: "http://json-schema.org/draft-07/schema#",
    title: "specforge config",
    description: "specforge.config.json: which specs to generate from, where to, and how. Paths are relative to this file.",
    type: "object",
    additionalProperties: false,
    properties,
    definitions: {
      spec: {
        type: "object",
        additionalProperties: false,
        required: specOptions.filter((o) => o.required).map((o) => o.name),
        properties: specProperties,
      },
    },
  };
}

function describe(o: OptionDef, extra: string): string {
  const dflt = o.defaultText ? ` Default: ${o.defaultText}.` : "";
  return `${o.description}${extra}${dflt}`;
}

function valueSchema(o: OptionDef, extra: string): Schema {
  const base: Schema = { description: describe(o, extra) };
  if (o.default !== undefined) base.default = o.default;
  switch (o.type) {
    case "string":
      return { type: "string", ...base };
    case "boolean":
      return { type: "boolean", ...base };
    case "string[]":
      return { type: "array", items: { type: "string" }, ...base };
    case "enum":
      return { enum: [...o.values!], ...base };
    case "enum[]":
      return { type: "array", items: { enum: [...o.values!] }, ...base };
    case "specs":
      return specsSchema(o);
  }
}

function specsSchema(o: OptionDef): Schema {
  return {
    description: describe(o, ""),
    default: o.default,
    anyOf: [{ type: "string" }, { type: "array", items: { anyOf: [{ type: "string" }, { $ref: "#/definitions/spec" }] } }],
  };
}

/** specforge.schema.json as written: 2-space JSON with a final newline. */
export function configJsonSchemaText(): string {
  return JSON.stringify(configJsonSchema(), null, 2) + "\n";
}
