/**
 * Editions features as a compiler hands them over: each descriptor's `options.features` holds only what that
 * declaration sets itself, so a declaration's features are its parent's (file → message → oneof/field/enum)
 * overridden by its own set fields. The defaults and the feature set are the text parser's (../proto/features.ts),
 * so both front ends resolve the same way.
 */
import { isFieldSet } from "@bufbuild/protobuf";
import {
  Edition,
  FeatureSet_EnumType as EnumType,
  FeatureSet_FieldPresence as FieldPresence,
  FeatureSet_JsonFormat as JsonFormat,
  FeatureSet_MessageEncoding as MessageEncoding,
  FeatureSet_RepeatedFieldEncoding as RepeatedFieldEncoding,
  FeatureSet_Utf8Validation as Utf8Validation,
  FeatureSetSchema,
  type FeatureSet,
} from "@bufbuild/protobuf/wkt";
import { EDITION_DEFAULTS, SYNTAX_FEATURES, type FeatureName, type Features } from "../proto/features.js";

/** The editions this front end resolves; their defaults for the six features are the same (features.ts). */
export const SUPPORTED_DESCRIPTOR_EDITIONS: readonly Edition[] = [Edition.EDITION_2023, Edition.EDITION_2024];

/** A feature's enum values by number, as the names the text parser uses. Unknown numbers map to undefined. */
const VALUES: { readonly [K in FeatureName]: Readonly<Record<number, Features[K]>> } = {
  field_presence: { [FieldPresence.EXPLICIT]: "EXPLICIT", [FieldPresence.IMPLICIT]: "IMPLICIT", [FieldPresence.LEGACY_REQUIRED]: "LEGACY_REQUIRED" },
  enum_type: { [EnumType.OPEN]: "OPEN", [EnumType.CLOSED]: "CLOSED" },
  repeated_field_encoding: { [RepeatedFieldEncoding.PACKED]: "PACKED", [RepeatedFieldEncoding.EXPANDED]: "EXPANDED" },
  utf8_validation: { [Utf8Validation.VERIFY]: "VERIFY", [Utf8Validation.NONE]: "NONE" },
  message_encoding: { [MessageEncoding.LENGTH_PREFIXED]: "LENGTH_PREFIXED", [MessageEncoding.DELIMITED]: "DELIMITED" },
  json_format: { [JsonFormat.ALLOW]: "ALLOW", [JsonFormat.LEGACY_BEST_EFFORT]: "LEGACY_BEST_EFFORT" },
};

/** The FeatureSet field that holds each feature. */
const FIELDS = {
  field_presence: FeatureSetSchema.field.fieldPresence,
  enum_type: FeatureSetSchema.field.enumType,
  repeated_field_encoding: FeatureSetSchema.field.repeatedFieldEncoding,
  utf8_validation: FeatureSetSchema.field.utf8Validation,
  message_encoding: FeatureSetSchema.field.messageEncoding,
  json_format: FeatureSetSchema.field.jsonFormat,
} as const;

/** The features a file starts from: its syntax's (proto2/proto3 as features) or its edition's defaults. */
export function baseFeatures(syntax: "proto2" | "proto3" | "editions"): Features {
  return syntax === "editions" ? EDITION_DEFAULTS : SYNTAX_FEATURES[syntax];
}

/**
 * `parent` overridden by what `set` sets. A value this front end does not know is reported through `unknown`
 * (the caller turns it into an error at the declaration) rather than guessed.
 */
export function mergeFeatures(parent: Features, set: FeatureSet | undefined, unknown: (message: string) => never): Features {
  if (set === undefined) return parent;
  let out: Features | undefined;
  for (const name of Object.keys(FIELDS) as FeatureName[]) {
    if (!isFieldSet(set, FIELDS[name])) continue;
    const number = set[FIELDS[name].localName as keyof FeatureSet] as number;
    const value = VALUES[name][number];
    if (value === undefined) unknown(`features.${name} has the value ${number}, which specforge does not know`);
    out = { ...(out ?? parent), [name]: value };
  }
  return out ?? parent;
}
