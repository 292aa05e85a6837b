/**
 * The ProtoJSON registry of a very large spec type-checks: googleapis' Compute (2,091 messages) and Ads (1,457) made
 * tsc stop with TS2590 ("Expression produces a union type that is too complex to represent") on one array literal.
 * A spec of 1,200 messages (enough for the error, quicker to check than Compute's 2,091) is generated; its
 * registry (as generated) is type-checked against stand-ins for the codec functions it names (the codecs themselves
 * would take a minute to check), and, as the control, the same entries in one array literal must still give TS2590.
 */
import { describe, expect, it } from "vitest";
import { memorySpecHost } from "../../../src/parsers/host.js";
import { generateSpec } from "../../../src/pipeline/generate-files.js";
import { typecheckFiles } from "../../helpers/typecheck.js";

const COUNT = 1200;

function bigSpec(): string {
  const lines = ['syntax = "proto3";', "package big.v1;"];
  for (let i = 0; i < COUNT; i++) lines.push(`message M${i} { string name = 1; int64 n${i} = 2; repeated M${(i + 1) % COUNT} next = 3; }`);
  return lines.join("\n") + "\n";
}

/** Stand-ins with the generated signatures: distinct message types, so each entry has its own type. */
function stubs(): Map<string, string> {
  const types: string[] = [];
  const json: string[] = ['import type { ProtoJsonValue, ProtoToJsonOptions, ProtoFromJsonOptions } from "specforge/runtime";'];
  const binary: string[] = [];
  for (let i = 0; i < COUNT; i++) {
    types.push(`export interface M${i} { name: string; n${i}: bigint }`);
    json.push(`import type { M${i} } from "./types.js";`);
    json.push(`export declare function toJsonM${i}(message: M${i}, options?: ProtoToJsonOptions): ProtoJsonValue;`);
    json.push(`export declare function fromJsonM${i}(json: unknown, options?: ProtoFromJsonOptions): M${i};`);
    binary.push(`import type { M${i} } from "./types.js";`);
    binary.push(`export declare function encodeM${i}(message: M${i}): Uint8Array;`, `export declare function decodeM${i}(bytes: Uint8Array): M${i};`);
  }
  return new Map([["big/types.ts", types.join("\n")], ["big/codecs.ts", json.join("\n")], ["big/protobuf.ts", binary.join("\n")]]);
}

function registryModule(registry: string): string {
  const names = Array.from({ length: COUNT }, (_, i) => `toJsonM${i}, fromJsonM${i}`).join(", ");
  return [
    'import { type ProtoJsonMessageType, type ProtoJsonRegistry, createProtoJsonRegistry } from "specforge/runtime";',
    `import { ${Array.from({ length: COUNT }, (_, i) => `encodeM${i}, decodeM${i}`).join(", ")} } from "./protobuf.js";`,
    `import { ${names} } from "./codecs.js";`,
    registry,
  ].join("\n");
}

describe("a ProtoJSON registry of 1,200 messages", () => {
  const out = generateSpec({ file: "/spec/big.proto", display: "big.proto", artifactNames: ["protojson"] }, memorySpecHost({ "/spec/big.proto": bigSpec() }));
  const protojson = out.files.find((f) => f.path === "big/protojson.ts")!.content;
  const registry = protojson.slice(protojson.indexOf("const protoJsonRegistryPart1"));

  it("is split into typed parts of at most 250 entries", () => {
    const parts = registry.split(/^const protoJsonRegistryPart\d+: readonly ProtoJsonMessageType\[\] = \[$/m).slice(1);
    expect(parts.length).toBe(Math.ceil(COUNT / 250));
    for (const part of parts) expect(part.split("\n").filter((l) => l.startsWith("  { typeName:")).length).toBeLessThanOrEqual(250);
    expect(registry).toMatch(/createProtoJsonRegistry\(protoJsonRegistryPart1, .*protoJsonRegistryPart5\);/);
  });

  it("type-checks under strict; one array literal of the same entries does not (TS2590)", () => {
    const files = stubs();
    files.set("big/registry.ts", registryModule(registry));
    expect(typecheckFiles(files).filter((d) => !d.startsWith(".."))).toEqual([]);
    const entries = registry.split("\n").filter((l) => l.startsWith("  { typeName:"));
    expect(entries.length).toBe(COUNT);
    files.set("big/registry.ts", registryModule(`export const protoJsonRegistry: ProtoJsonRegistry = createProtoJsonRegistry([\n${entries.join("\n")}\n]);\nexport type Unused = ProtoJsonMessageType;`));
    expect(typecheckFiles(files).join("\n")).toContain("too complex to represent");
  }, 120_000);
});
