/**
 * Variants of a real example: the same value with one thing changed, so that the agreement test also compares the
 * two validators on values that are *almost* valid (a spec's own examples are nearly always valid, and agreeing on
 * valid values alone says little). Deterministic: the same example always gives the same variants.
 *
 * One change per variant, at one place of the value:
 *  - objects: a property removed (required), an unknown property added (additionalProperties), the object as an array;
 *  - arrays: emptied (minItems), the first item repeated (uniqueItems), the array as an object;
 *  - strings: emptied (minLength, enum, format), prefixed (pattern, enum, format), made long (maxLength), a number
 *    instead (type);
 *  - numbers: negated, plus a half (integer, multipleOf), a thousandfold (maximum), beyond 2^53 (int64), as a string;
 *  - booleans as strings; null as 0; and the whole value as null.
 */

export interface Variant {
  /** What was changed, e.g. "/droplets/0/size_gigabytes: 10 -> -10". */
  readonly change: string;
  readonly value: unknown;
}

/** At most this many variants per example, spread evenly over the places of the value. */
export const MAX_VARIANTS = 64;

export function variantsOf(example: unknown): Variant[] {
  const all: Variant[] = [{ change: "the whole value -> null", value: null }];
  const visit = (value: unknown, path: readonly (string | number)[], depth: number): void => {
    const here = path.length === 0 ? "" : `/${path.join("/")}`;
    for (const [what, replacement] of replacementsOf(value)) {
      all.push({ change: `${here || "/"}: ${what}`, value: replaceAt(example, path, replacement) });
    }
    if (depth >= 6) return;
    if (Array.isArray(value)) value.slice(0, 3).forEach((item, i) => visit(item, [...path, i], depth + 1));
    else if (isObject(value)) {
      for (const key of Object.keys(value)) {
        all.push({ change: `${here}/${key}: removed`, value: replaceAt(example, path, withoutKey(value, key)) });
        visit(value[key], [...path, key], depth + 1);
      }
    }
  };
  visit(example, [], 0);
  if (all.length <= MAX_VARIANTS) return all;
  const step = all.length / MAX_VARIANTS;
  return Array.from({ length: MAX_VARIANTS }, (_, i) => all[Math.floor(i * step)]!);
}

/** The single-place changes for a value, each with a description. */
function replacementsOf(value: unknown): [string, unknown][] {
  if (value === null) return [["null -> 0", 0]];
  if (typeof value === "boolean") return [[`${value} -> "${value}"`, String(value)]];
  if (typeof value === "number") {
    return [
      [`${value} -> ${-value - 1}`, -value - 1],
      [`${value} -> ${value + 0.5}`, value + 0.5],
      [`${value} -> ${value * 1000 + 1}`, value * 1000 + 1],
      [`${value} -> 2^53 + 2`, 2 ** 53 + 2],
      [`${value} -> "${value}"`, String(value)],
    ];
  }
  if (typeof value === "string") {
    return [
      [`${JSON.stringify(value)} -> ""`, ""],
      [`${JSON.stringify(value)} -> "~${value}"`, `~${value}`],
      [`${JSON.stringify(value)} -> 300 more characters`, `${value}${"x".repeat(300)}`],
      [`${JSON.stringify(value)} -> 12345`, 12345],
    ];
  }
  if (Array.isArray(value)) {
    const out: [string, unknown][] = [["[...] -> []", []], ["[...] -> {}", {}]];
    if (value.length > 0) out.push(["first item repeated", [value[0], ...value]]);
    return out;
  }
  if (isObject(value)) return [["{...} -> []", []], ["unknown property added", { ...value, zz_unknown_property: 1 }]];
  return [];
}

function replaceAt(root: unknown, path: readonly (string | number)[], replacement: unknown): unknown {
  if (path.length === 0) return replacement;
  const [head, ...rest] = path;
  if (Array.isArray(root)) return root.map((item, i) => (i === head ? replaceAt(item, rest, replacement) : item));
  if (isObject(root)) return { ...root, [head!]: replaceAt(root[head as string], rest, replacement) };
  return root;
}

function withoutKey(o: Record<string, unknown>, key: string): Record<string, unknown> {
  const { [key]: _removed, ...rest } = o;
  return rest;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}
