/**
 * Protobuf Editions: the `features` of descriptor.proto's FeatureSet that decide wire behaviour, resolved the way
 * protoc resolves them: the edition's defaults, overridden by `option features.X = V;` on the file, then on each
 * enclosing message (and oneof), then by `[features.X = V]` on the field, enum or enum value itself.
 *
 * The lowerer turns the resolved set into the IR facts proto2 and proto3 already produce (presence/label, enum
 * closedness, packing, group encoding, UTF-8 checks), so the emitters do not know editions exist.
 */
import { SpecError } from "../../errors.js";
import type { OptionDecl, Pos, ProtoFile } from "./ast.js";

export interface Features {
  readonly field_presence: "EXPLICIT" | "IMPLICIT" | "LEGACY_REQUIRED";
  readonly enum_type: "OPEN" | "CLOSED";
  readonly repeated_field_encoding: "PACKED" | "EXPANDED";
  readonly utf8_validation: "VERIFY" | "NONE";
  readonly message_encoding: "LENGTH_PREFIXED" | "DELIMITED";
  readonly json_format: "ALLOW" | "LEGACY_BEST_EFFORT";
}

export type FeatureName = keyof Features;

/** What a feature can be set on. */
export type FeatureTarget = "file" | "message" | "field" | "oneof" | "enum" | "enum value";

/** Each feature's values and the targets descriptor.proto allows it on (its `targets` options). */
const FEATURES: { readonly [K in FeatureName]: { readonly values: readonly Features[K][]; readonly targets: readonly FeatureTarget[] } } = {
  field_presence: { values: ["EXPLICIT", "IMPLICIT", "LEGACY_REQUIRED"], targets: ["field", "file"] },
  enum_type: { values: ["OPEN", "CLOSED"], targets: ["enum", "file"] },
  repeated_field_encoding: { values: ["PACKED", "EXPANDED"], targets: ["field", "file"] },
  utf8_validation: { values: ["VERIFY", "NONE"], targets: ["field", "file"] },
  message_encoding: { values: ["LENGTH_PREFIXED", "DELIMITED"], targets: ["field", "file"] },
  json_format: { values: ["ALLOW", "LEGACY_BEST_EFFORT"], targets: ["message", "enum", "file"] },
};

/** Edition 2023's defaults (descriptor.proto's `edition_defaults`); 2024 keeps them for these six features. */
export const EDITION_DEFAULTS: Features = {
  field_presence: "EXPLICIT",
  enum_type: "OPEN",
  repeated_field_encoding: "PACKED",
  utf8_validation: "VERIFY",
  message_encoding: "LENGTH_PREFIXED",
  json_format: "ALLOW",
};

/** proto2 and proto3 expressed as features (what protoc does internally); used for files that are not editions. */
export const SYNTAX_FEATURES: Readonly<Record<"proto2" | "proto3", Features>> = {
  proto2: {
    field_presence: "EXPLICIT",
    enum_type: "CLOSED",
    repeated_field_encoding: "EXPANDED",
    utf8_validation: "NONE",
    message_encoding: "LENGTH_PREFIXED",
    json_format: "LEGACY_BEST_EFFORT",
  },
  proto3: {
    field_presence: "IMPLICIT",
    enum_type: "OPEN",
    repeated_field_encoding: "PACKED",
    utf8_validation: "VERIFY",
    message_encoding: "LENGTH_PREFIXED",
    json_format: "ALLOW",
  },
};

/** The features a file starts from: its syntax's or edition's defaults plus its own `option features.X`. */
export function fileFeatures(file: ProtoFile): Features {
  const base = file.syntax === "editions" ? EDITION_DEFAULTS : SYNTAX_FEATURES[file.syntax];
  return resolveFeatures(file, base, file.options, "file");
}

/**
 * `parent` overridden by the `features.X` options among `options` (set on a `target`). Language-specific features
 * (`features.(pb.cpp).x`) change nothing this generator emits and are left to the option lists.
 */
export function resolveFeatures(file: ProtoFile, parent: Features, options: readonly OptionDecl[], target: FeatureTarget): Features {
  let out: Features | undefined;
  for (const o of options) {
    const name = featureName(file, o, target);
    if (name === undefined) continue;
    const spec = FEATURES[name];
    const values: readonly string[] = spec.values;
    if (o.value.kind !== "ident" || !values.includes(o.value.value)) {
      throw new SpecError(file.display, o.valuePos.line, o.valuePos.column, `expected ${spec.values.join(" or ")} for features.${name}, found ${o.value.text}`);
    }
    out = { ...(out ?? parent), [name]: o.value.value };
  }
  return out ?? parent;
}

/** The feature an option sets directly on this declaration, if it sets `name` (for rules about explicit settings). */
export function setsFeature(options: readonly OptionDecl[], name: FeatureName): OptionDecl | undefined {
  let found: OptionDecl | undefined;
  for (const o of options) if (o.name === `features.${name}`) found = o;
  return found;
}

/** Whether an option is a feature setting (consumed by resolution, so not carried on as an ordinary option). */
export const isFeatureOption = (o: OptionDecl): boolean => o.name === "features" || o.name.startsWith("features.");

function featureName(file: ProtoFile, o: OptionDecl, target: FeatureTarget): FeatureName | undefined {
  if (!isFeatureOption(o)) return undefined;
  const fail = (p: Pos, message: string): never => {
    throw new SpecError(file.display, p.line, p.column, message);
  };
  if (file.syntax !== "editions") fail(o.pos, `features are only valid under editions (this file is ${file.syntax})`);
  if (o.name === "features") fail(o.valuePos, "set features one at a time (option features.NAME = VALUE)");
  const name = o.name.slice("features.".length);
  if (name.startsWith("(")) return undefined;
  if (!Object.hasOwn(FEATURES, name)) fail(o.pos, `unknown feature "${name}" (known: ${Object.keys(FEATURES).join(", ")})`);
  const feature = name as FeatureName;
  if (!FEATURES[feature].targets.includes(target)) {
    fail(o.pos, `features.${feature} cannot be set on ${target === "enum value" ? "an" : "a"} ${target} (only on: ${FEATURES[feature].targets.join(", ")})`);
  }
  return feature;
}
