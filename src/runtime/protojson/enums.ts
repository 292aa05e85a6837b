import { describeJson, protoJsonError } from "./errors.js";
import type { ProtoFromJsonOptions, ProtoJsonValue, ProtoToJsonOptions } from "./types.js";

/**
 * What generated code knows about one enum, built once per enum at module load: names by number (the first name
 * declared for a number is the one written; later ones are aliases) and numbers by name (aliases included).
 * `E` is the enum's TypeScript type: its names, plus `number` for open (proto3) enums.
 */
export interface ProtoJsonEnum<E extends string | number> {
  readonly numbers: ReadonlyMap<string, number>;
  readonly names: ReadonlyMap<number, E>;
  /** proto3 enums are open: numbers without a name are kept as numbers. */
  readonly open: boolean;
  /** google.protobuf.NullValue: written as JSON null, and null reads as its one value. */
  readonly nullValue: boolean;
}

export function protoJsonEnum<E extends string | number>(
  values: readonly (readonly [name: string, number: number])[],
  options: { readonly open: boolean; readonly nullValue?: boolean },
): ProtoJsonEnum<E> {
  const numbers = new Map<string, number>();
  const names = new Map<number, E>();
  for (const [name, number] of values) {
    numbers.set(name, number);
    if (!names.has(number)) names.set(number, name as E);
  }
  return { numbers, names, open: options.open, nullValue: options.nullValue ?? false };
}

export function enumToJson<E extends string | number>(value: E, table: ProtoJsonEnum<E>, options: ProtoToJsonOptions): ProtoJsonValue {
  if (table.nullValue) return null;
  const number = typeof value === "number" ? value : table.numbers.get(value);
  if (number === undefined) return value;
  if (options.enumAsInteger) return number;
  return table.names.get(number) ?? number;
}

/**
 * An enum value from its name or number. Returns undefined for a name (or a closed enum's number) the enum does not
 * have when unknown fields are ignored: the proto3 JSON mapping treats it like an unknown field.
 */
export function enumFromJson<E extends string | number>(
  value: unknown,
  table: ProtoJsonEnum<E>,
  options: ProtoFromJsonOptions,
  path: string,
  key?: string | number,
): E | undefined {
  if (typeof value === "string") {
    const number = table.numbers.get(value);
    if (number !== undefined) return table.names.get(number);
    if (options.ignoreUnknownFields) return undefined;
    throw protoJsonError(path, key, `unknown enum value ${describeJson(value)}`);
  }
  if (typeof value === "number" && Number.isInteger(value) && value >= -2147483648 && value <= 2147483647) {
    const name = table.names.get(value);
    if (name !== undefined) return name;
    if (table.open) return value as E;
    if (options.ignoreUnknownFields) return undefined;
    throw protoJsonError(path, key, `unknown enum number ${value}`);
  }
  if (value === null && table.nullValue) return table.names.get(0);
  throw protoJsonError(path, key, `expected an enum name or number, got ${describeJson(value)}`);
}
