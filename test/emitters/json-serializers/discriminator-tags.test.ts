/**
 * A discriminator mapping that sends a tag to a variant whose own enum leaves the tag out (DigitalOcean's droplet
 * actions): no valid value has that tag, so the encoder has no case for it and the code still type-checks.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { diagnostics, fn, generateInline, type Generated } from "../json-validators/helpers.js";

const SPEC = `openapi: 3.0.3
info: {title: T, version: "1"}
paths: {}
components:
  schemas:
    Action:
      type: object
      required: [type]
      properties:
        type: {type: string, enum: [reboot, resize]}
    Resize:
      allOf:
        - $ref: "#/components/schemas/Action"
        - type: object
          properties:
            size: {type: string}
    Backup:
      allOf:
        - $ref: "#/components/schemas/Action"
        - type: object
          properties:
            plan: {type: string}
    AnyAction:
      anyOf:
        - $ref: "#/components/schemas/Action"
        - $ref: "#/components/schemas/Resize"
        - $ref: "#/components/schemas/Backup"
      discriminator:
        propertyName: type
        mapping:
          reboot: "#/components/schemas/Action"
          resize: "#/components/schemas/Resize"
          change_backup_policy: "#/components/schemas/Backup"
`;

describe("discriminator tags a variant cannot carry", () => {
  let g: Generated;
  beforeAll(async () => {
    g = await generateInline(SPEC);
  });

  it("type-checks strict, without a case for the impossible tag", () => {
    expect(diagnostics(g)).toEqual([]);
    const json = [...g.files].find(([p]) => p.endsWith("/json.ts"))![1];
    expect(json).toContain('case "resize":');
    expect(json).not.toContain('case "change_backup_policy":');
  });

  it("encodes the possible variants and rejects the impossible tag", () => {
    const encode = fn<(v: unknown) => string>(g.json, "encodeAnyActionJson");
    expect(encode({ type: "resize", size: "s-1" })).toBe('{"type":"resize","size":"s-1"}');
    expect(encode({ type: "reboot" })).toBe('{"type":"reboot"}');
    expect(fn<(v: unknown) => boolean>(g.validate, "isAnyAction")({ type: "change_backup_policy", plan: "weekly" })).toBe(false);
  });
});
