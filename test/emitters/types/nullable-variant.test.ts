/**
 * A discriminated union (OpenAPI `discriminator`) with a nullable variant (Airflow's ScheduleInterval: CronExpression
 * is `nullable: true`): null carries no tag, so it is an alternative of its own and every other variant keeps its tag
 * — which is what lets `switch (value.__type)` narrow (the JSON writer relies on it).
 */
import { describe, expect, it } from "vitest";
import { memorySpecHost } from "../../../src/parsers/host.js";
import { generateSpec } from "../../../src/pipeline/generate-files.js";
import { typecheckFiles } from "../../helpers/typecheck.js";
import { importWrittenModule } from "../../helpers/written-module.js";

const SPEC = `
openapi: 3.0.3
info: { title: Schedules, version: "1" }
paths: {}
components:
  schemas:
    ScheduleInterval:
      anyOf:
        - $ref: "#/components/schemas/TimeDelta"
        - $ref: "#/components/schemas/CronExpression"
      discriminator: { propertyName: __type }
      nullable: true
    CronExpression:
      type: object
      nullable: true
      required: [__type, value]
      properties: { __type: { type: string }, value: { type: string } }
    TimeDelta:
      type: object
      required: [__type, days]
      properties: { __type: { type: string }, days: { type: integer } }
`;

const out = generateSpec({ file: "/spec/s.yaml", display: "s.yaml" }, memorySpecHost({ "/spec/s.yaml": SPEC }));
const files = new Map(out.files.map((f) => [f.path, f.content]));

/** Code a user writes against the types: narrowing by the tag must reach each variant's own type. */
const USAGE = `import type { CronExpression, ScheduleInterval, TimeDelta } from "./types.js";
export function describe(s: ScheduleInterval): string {
  if (s === null) return "none";
  switch (s.__type) {
    case "TimeDelta": { const t: TimeDelta = s; return \`\${t.days} days\`; }
    case "CronExpression": { const c: CronExpression & object = s; return c.value; }
  }
}
export const none: ScheduleInterval = null;
`;

describe("a discriminated union with a nullable variant", () => {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const module = importWrittenModule<any>(files, "s/index.ts");

  it("tags every non-null variant and lists null on its own", () => {
    const types = files.get("s/types.ts")!;
    expect(types).toContain(`export type ScheduleInterval =
  | (TimeDelta & { __type: "TimeDelta" })
  | (CronExpression & { __type: "CronExpression" })
  | null;`);
  });

  it("type-checks strict, with code that narrows on the tag", () => {
    expect(typecheckFiles(new Map([...files, ["s/usage.ts", USAGE]]))).toEqual([]);
  });

  it("validates and writes null and each variant", () => {
    expect(module().isScheduleInterval(null)).toBe(true);
    expect(module().encodeScheduleIntervalJson(null)).toBe("null");
    const cron = { __type: "CronExpression", value: "0 * * * *" };
    expect(module().isScheduleInterval(cron)).toBe(true);
    expect(JSON.parse(module().encodeScheduleIntervalJson(cron))).toEqual(cron);
    const delta = { __type: "TimeDelta", days: 2 };
    expect(JSON.parse(module().encodeScheduleIntervalJson(delta))).toEqual(delta);
    expect(module().isScheduleInterval({ __type: "TimeDelta" })).toBe(false);
  });
});
