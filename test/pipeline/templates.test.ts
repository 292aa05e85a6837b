import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { generate } from "../../src/api.js";
import { nodeSpecHost } from "../../src/parsers/host.js";
import { generateSpec } from "../../src/pipeline/generate-files.js";
import { BUILTIN_TEMPLATES, Templates, TEMPLATE_NAMES, type TemplateName } from "../../src/pipeline/templates.js";
import { REPO } from "../helpers/seeds.js";

const roots: string[] = [];
afterEach(() => roots.splice(0).forEach((r) => rmSync(r, { recursive: true, force: true })));

function project(templates: Record<string, string>): { root: string; tpl: string } {
  const root = mkdtempSync(path.join(tmpdir(), "specforge-templates-"));
  roots.push(root);
  const tpl = path.join(root, "tpl");
  mkdirSync(tpl);
  for (const [name, text] of Object.entries(templates)) writeFileSync(path.join(tpl, name), text);
  return { root, tpl };
}

const SPEC = path.join(REPO, "specs/webhooks.openapi.yaml");
/** The webhooks spec generated in memory as `npm run generate` would (dry run: nothing is written). */
const files = (templates?: string) =>
  new Map(generate({ cwd: REPO, specs: [SPEC], out: "generated", templates, dryRun: true }).outputs[0]!.files.map((f) => [f.path, f.content]));

describe("template shells", () => {
  it("the built-in shells reproduce the committed output", () => {
    const out = files();
    for (const f of ["client.ts", "server.ts", "README.md"]) {
      expect(out.get(`webhooks/${f}`)).toBe(readFileSync(path.join(REPO, "generated/webhooks", f), "utf8"));
    }
  });

  it("an override folder replaces only the shells it has", () => {
    const { tpl } = project({
      "client.hbs": "{{header}}\n// {{title}} {{version}}: {{#each services}}{{factory}} {{/each}}\n\n{{imports}}\n\n{{body}}\n",
      "package-readme.hbs": "# {{spec}} from {{source}}\n{{#each files}}- {{file}} ({{artifact}})\n{{/each}}",
    });
    const plain = files();
    const custom = files(tpl);
    expect(custom.get("webhooks/client.ts")).toContain("\n// Webhooks API 2: createWebhooksAPIClient \n");
    expect(custom.get("webhooks/client.ts")).toContain(plain.get("webhooks/client.ts")!.split("\n").slice(2).join("\n").trim());
    expect(custom.get("webhooks/server.ts")).toBe(plain.get("webhooks/server.ts"));
    expect(custom.get("webhooks/README.md")).toBe(
      "# webhooks from specs/webhooks.openapi.yaml\n" +
        "- types.ts (types)\n- validate.ts (json-validators)\n- json.ts (json-serializers)\n- client.ts (rest-client)\n- server.ts (rest-server)\n",
    );
  });

  it("an unknown variable is an error naming the template file, line and column", () => {
    const { tpl } = project({ "server.hbs": "{{header}}\n\n{{imports}}\n{{servce}}\n{{body}}\n" });
    expect(() => files(tpl)).toThrow(`${path.join(tpl, "server.hbs")}:4:3: unknown variable "servce" (the context has: body, format, header, imports,`);
  });

  it("a template syntax error names the file", () => {
    const { tpl } = project({ "client.hbs": "{{#each services}\n" });
    expect(() => files(tpl)).toThrow(`${path.join(tpl, "client.hbs")}: Parse error on line 1`);
  });

  it("docs/templates.md documents every variable each shell receives", () => {
    const seen = new Map<TemplateName, Set<string>>();
    class Recording extends Templates {
      override render(name: TemplateName, context: Readonly<Record<string, unknown>>): string {
        const keys = seen.get(name) ?? new Set<string>();
        for (const [k, v] of Object.entries(context)) {
          keys.add(k);
          if (Array.isArray(v)) for (const item of v) for (const sub of Object.keys(item as object)) keys.add(`${k}[].${sub}`);
        }
        seen.set(name, keys);
        return super.render(name, context);
      }
    }
    const templates = new Recording();
    for (const name of TEMPLATE_NAMES) expect(templates.file(name)).toBe(path.join(BUILTIN_TEMPLATES, `${name}.hbs`));
    generateSpec({ file: SPEC, display: "webhooks.openapi.yaml" }, nodeSpecHost(), { templates, readme: { importPath: "./webhooks/index.js" } });
    const doc = readFileSync(path.join(REPO, "docs/templates.md"), "utf8");
    for (const [name, keys] of seen) {
      const section = doc.slice(doc.indexOf(`## ${name}.hbs`));
      for (const k of keys) expect(section, `${name}.hbs: ${k}`).toContain(`\`${k.replace(/^.*\[\]\./, "")}\``);
    }
    expect([...seen.keys()].sort()).toEqual([...TEMPLATE_NAMES].sort());
  });
});
