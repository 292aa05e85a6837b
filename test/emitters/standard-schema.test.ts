/**
 * Standard Schema v1 (issue 33): every generated validator is also a `<T>Schema` object with `~standard`. Tested
 * through a real consumer, TanStack Form's core (`@tanstack/form-core`, which accepts any Standard Schema as a form or
 * field validator), on the committed seed outputs of the three kinds of validators: OpenAPI (webhooks), proto
 * (content) and XSD (partner). Each issue a form shows must be one the type's own validate<T> reports, at the field
 * its JSON pointer names.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { FieldApi, FormApi } from "@tanstack/form-core";
import { build, type Plugin } from "esbuild";
import { describe, expect, it } from "vitest";
import { pointerJoin, standardSchema, type StandardSchemaV1, type ValidationIssue } from "../../src/runtime/index.js";
import type { Feed } from "../../generated/content/types.js";
import * as content from "../../generated/content/validate.js";
import type { LeadConvert } from "../../generated/partner/types.js";
import * as partner from "../../generated/partner/validate.js";
import * as webhooks from "../../generated/webhooks/validate.js";
import { readGenerated, REPO } from "../helpers/seeds.js";
import { typecheckFiles } from "../helpers/typecheck.js";

/** The JSON pointer a Standard Schema path stands for (the inverse of the runtime's split). */
function pointerOf(p: StandardSchemaV1.Issue["path"]): string {
  return (p ?? []).reduce<string>((at, k) => pointerJoin(at, typeof k === "object" ? String(k.key) : (k as string | number)), "");
}

/** `~standard.validate`, which the generated objects answer synchronously. */
function run<T>(schema: StandardSchemaV1<T>, value: unknown): StandardSchemaV1.Result<T> {
  const r = schema["~standard"].validate(value);
  if (r instanceof Promise) throw new Error("expected a synchronous result");
  return r;
}

/** Standard Schema answers agree with validate<T> on the same value: nothing, or the same issues at the same places. */
function expectAgreement<T>(schema: StandardSchemaV1<T>, validate: (v: never) => ValidationIssue[], value: unknown): void {
  const own = validate(value as never);
  const r = run(schema, value);
  if (own.length === 0) {
    expect(r.issues).toBeUndefined();
    expect((r as StandardSchemaV1.SuccessResult<T>).value).toBe(value);
    return;
  }
  expect(r.issues?.map((i) => [pointerOf(i.path), i.message])).toEqual(own.map((i) => [i.path, i.message]));
}

describe("Standard Schema v1 objects", () => {
  it("declare version 1 and vendor specforge, one per validated type", () => {
    for (const [mod, file] of [[webhooks, "webhooks"], [content, "content"], [partner, "partner"]] as const) {
      const schemas = Object.entries(mod).filter(([name]) => name.endsWith("Schema"));
      // One per validate<T> (OpenAPI also has is/assert; XSD and proto only validate).
      const validators = Object.keys(mod).filter((name) => name.startsWith("validate"));
      expect(schemas.length, file).toBe(validators.length);
      for (const [name, s] of schemas) {
        const props = (s as StandardSchemaV1)["~standard"];
        expect([name, props.version, props.vendor, typeof props.validate]).toEqual([name, 1, "specforge", "function"]);
      }
    }
  });

  it("answer { value } (the same value) or { issues } exactly as validate<T> does", () => {
    const valid = { topic: "orders/create", delivery_url: "https://example.com/hook" };
    expectAgreement(webhooks.WebhookCreateSchema, webhooks.validateWebhookCreate, valid);
    expectAgreement(webhooks.WebhookCreateSchema, webhooks.validateWebhookCreate, { delivery_url: "ftp://x", secret: 3 });
    expectAgreement(webhooks.WebhookCreateSchema, webhooks.validateWebhookCreate, null);
    expectAgreement(webhooks.WebhookStatusSchema, webhooks.validateWebhookStatus, "paused");
    expectAgreement(webhooks.WebhookStatusSchema, webhooks.validateWebhookStatus, "gone");
    expectAgreement(content.FeedSchema, content.validateFeed, { title: "t", link: [{ href: "a" }, { href: 7 }] });
    expectAgreement(content.FeedSchema, content.validateFeed, "not a message");
    expectAgreement(partner.LeadConvertSchema, partner.validateLeadConvert, { leadId: "short", convertedStatus: 1 });
    expect(run(webhooks.WebhookCreateSchema, { topic: "t" }).issues!.length).toBeGreaterThan(0);
  });

  it("split JSON pointers into keys: indexes as numbers, ~1 and ~0 decoded", () => {
    const r = run(content.FeedSchema, { link: [{ href: "a" }, { href: 7 }] });
    expect(r.issues!.map((i) => i.path)).toEqual([["link", 1, "href"]]);
    // Keys with "/" and "~" (JSON pointer escapes) come back as themselves; only canonical decimals become numbers.
    const odd = standardSchema(() => [{ path: "/a~1b/c~0d~01/3/03/-1", rule: "r", message: "m" }]);
    expect(run(odd, {}).issues).toEqual([{ path: ["a/b", "c~d~1", 3, "03", "-1"], rule: "r", message: "m" }]);
    expect(run(standardSchema(() => [{ path: "", rule: "type", message: "m" }]), 1).issues![0]!.path).toEqual([]);
  });
});

describe("through TanStack Form (@tanstack/form-core)", () => {
  it("an OpenAPI schema as the form's onSubmit validator: errors land on the fields, a valid form submits", async () => {
    const submitted: unknown[] = [];
    const form = new FormApi({
      defaultValues: { topic: "orders/create", delivery_url: "ftp://example.com" },
      validators: { onSubmit: webhooks.WebhookCreateSchema },
      onSubmit: ({ value }) => void submitted.push(value),
    });
    form.mount();
    const url = new FieldApi({ form, name: "delivery_url" });
    url.mount();
    const topic = new FieldApi({ form, name: "topic" });
    topic.mount();
    await form.handleSubmit();
    expect(submitted).toEqual([]);
    expect(form.state.canSubmit).toBe(false);
    const expected = webhooks.validateWebhookCreate(form.state.values);
    expect(expected.map((i) => i.path)).toEqual(["/delivery_url"]);
    expect(url.state.meta.errors.map((e) => (e as unknown as StandardSchemaV1.Issue).message)).toEqual(expected.map((i) => i.message));
    expect(topic.state.meta.errors).toEqual([]);

    url.setValue("https://example.com/hook");
    await form.handleSubmit();
    expect(submitted).toEqual([{ topic: "orders/create", delivery_url: "https://example.com/hook" }]);
    expect(url.state.meta.errors).toEqual([]);
  });

  it("an OpenAPI enum schema as a field's onChange validator", () => {
    const form = new FormApi({ defaultValues: { status: "active" as string } });
    form.mount();
    const status = new FieldApi({ form, name: "status", validators: { onChange: webhooks.WebhookStatusSchema } });
    status.mount();
    status.setValue("gone");
    const messages = webhooks.validateWebhookStatus("gone").map((i) => i.message);
    expect(messages.length).toBe(1);
    expect(status.state.meta.errors.map((e) => (e as unknown as StandardSchemaV1.Issue).message)).toEqual(messages);
    status.setValue("paused");
    expect(status.state.meta.errors).toEqual([]);
  });

  it("a proto message schema: a nested issue goes to its array element's field (link[1].href)", async () => {
    const form = new FormApi({
      defaultValues: { title: "feed", link: [{ href: "https://a" }, { href: 7 as unknown as string }] } as Feed,
      validators: { onSubmit: content.FeedSchema },
    });
    form.mount();
    const second = new FieldApi({ form, name: "link[1].href" });
    second.mount();
    const first = new FieldApi({ form, name: "link[0].href" });
    first.mount();
    await form.handleSubmit();
    const expected = content.validateFeed(form.state.values as never);
    expect(expected.map((i) => i.path)).toEqual(["/link/1/href"]);
    expect(second.state.meta.errors.map((e) => (e as unknown as StandardSchemaV1.Issue).message)).toEqual(expected.map((i) => i.message));
    expect(first.state.meta.errors).toEqual([]);
  });

  it("an XSD schema: facet and occurrence issues on the fields they concern", async () => {
    const defaults: LeadConvert = {
      accountId: null, contactId: null, convertedStatus: "Closed", doNotCreateOpportunity: false,
      leadId: "too-short", opportunityName: null, overwriteLeadSource: false, ownerId: null, sendNotificationEmail: false,
    };
    const submitted: unknown[] = [];
    const form = new FormApi({ defaultValues: defaults, validators: { onSubmit: partner.LeadConvertSchema }, onSubmit: ({ value }) => void submitted.push(value) });
    form.mount();
    const lead = new FieldApi({ form, name: "leadId" });
    lead.mount();
    await form.handleSubmit();
    const expected = partner.validateLeadConvert(form.state.values);
    expect(expected.map((i) => [i.path, i.rule])).toEqual([["/leadId", "length"], ["/leadId", "pattern"]]);
    expect(lead.state.meta.errors.map((e) => (e as unknown as StandardSchemaV1.Issue).message)).toEqual(expected.map((i) => i.message));
    expect(submitted).toEqual([]);
    lead.setValue("00Q000000000001AAA");
    await form.handleSubmit();
    expect(submitted.length).toBe(1);
  });
});

describe("types", () => {
  it("are assignable to @standard-schema/spec's StandardSchemaV1 of the generated type, and infer it", () => {
    const spec = readFileSync(path.join(REPO, "node_modules/@standard-schema/spec/dist/index.d.ts"), "utf8");
    const consumer = [
      'import type { StandardSchemaV1 } from "./spec.js";',
      'import { WebhookCreateSchema, WebhookStatusSchema } from "./validate.js";',
      'import type { WebhookCreate, WebhookStatus } from "./types.js";',
      "const a: StandardSchemaV1<WebhookCreate> = WebhookCreateSchema;",
      "const b: StandardSchemaV1<unknown, WebhookStatus> = WebhookStatusSchema;",
      "type Out = StandardSchemaV1.InferOutput<typeof WebhookCreateSchema>;",
      "export const out: WebhookCreate = null as unknown as Out;",
      "export const back: Out = null as unknown as WebhookCreate;",
      "// @ts-expect-error the output type is the generated one, not any other",
      "const c: StandardSchemaV1<unknown, { topic: number }> = WebhookCreateSchema;",
      "export { a, b, c };",
    ].join("\n");
    const files = new Map([
      ["spec.d.ts", spec],
      ["consumer.ts", consumer],
      ["validate.ts", readGenerated("webhooks/validate.ts")],
      ["types.ts", readGenerated("webhooks/types.ts")],
    ]);
    expect(typecheckFiles(files)).toEqual([]);
  });
});

describe("cost", () => {
  const runtimeAlias: Plugin = {
    name: "specforge-runtime",
    setup(b) {
      b.onResolve({ filter: /^specforge\/runtime$/ }, () => ({ path: path.join(REPO, "src/runtime/index.ts") }));
    },
  };
  async function bundle(contents: string): Promise<string> {
    const r = await build({ stdin: { contents, resolveDir: REPO, loader: "ts" }, bundle: true, write: false, minify: true, format: "esm", platform: "browser", logLevel: "silent", plugins: [runtimeAlias] });
    return r.outputFiles[0]!.text;
  }

  // Measured: isWebhook alone 2,304 bytes minified (as before the schemas existed), validateWebhook 4,802, WebhookSchema 5,241.
  it("a program using only is<T>/validate<T> carries no Standard Schema object: the constructions are pure", async () => {
    for (const fn of ["isWebhook", "validateWebhook"]) {
      const text = await bundle(`import { ${fn} } from "./generated/webhooks/validate.ts"; console.log(${fn}(globalThis.x));`);
      expect(text, fn).not.toContain("~standard");
    }
    const used = await bundle(`import { WebhookSchema } from "./generated/webhooks/validate.ts"; console.log(WebhookSchema["~standard"].validate(globalThis.x));`);
    expect(used).toContain("~standard");
    expect(used).toContain("specforge");
  });
});
