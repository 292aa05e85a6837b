/**
 * Facts about a .proto file's declarations, in one flat form that both sides of the oracle test produce: our IR
 * (facts-ir.ts) and a compiler's FileDescriptorSet (facts-descriptor.ts). A fact is "<element> <property>" -> value,
 * e.g. "field .pkg.Msg.name number" -> "1", so that a difference names exactly what disagrees.
 *
 * Element keys: "message .pkg.M", "field .pkg.M.f", "enum .pkg.E", "enum-value .pkg.E.V" (scoped by the enum, not
 * C++-style), "extension .pkg.ext", "service .pkg.S", "method .pkg.S.m". Type names are fully qualified with a
 * leading dot, scalars by their proto name, maps as "map<key, value>", groups as "group .pkg.M.G".
 */
export type Facts = Map<string, string>;

/** The differences between two fact sets, one line each, sorted: "only ours", "only theirs" or "ours != theirs". */
export function diffFacts(ours: Facts, theirs: Facts, theirName: string): string[] {
  const out: string[] = [];
  for (const [key, value] of ours) {
    const other = theirs.get(key);
    if (other === undefined) out.push(`${key}: only in our IR (${value})`);
    else if (other !== value) out.push(`${key}: ours ${value}, ${theirName} ${other}`);
  }
  for (const [key, value] of theirs) if (!ours.has(key)) out.push(`${key}: only in ${theirName} (${value})`);
  return out.sort();
}

/** Adds a fact, refusing a second value for the same key (two elements with one name would hide each other). */
export function put(facts: Facts, element: string, property: string, value: string | number | boolean): void {
  const key = `${element} ${property}`;
  if (facts.has(key)) throw new Error(`fact ${key} recorded twice`);
  facts.set(key, String(value));
}

/** Inclusive number ranges as "1-5,9-9"; a compiler's exclusive ends are converted by the caller. */
export function ranges(list: readonly { readonly from: number; readonly to: number }[]): string {
  return [...list].sort((a, b) => a.from - b.from).map((r) => `${r.from}-${r.to}`).join(",");
}

/** A default value in one canonical spelling, so "9e9" and "9e+09" or two escapings of the same bytes agree. */
export function canonicalDefault(scalar: string, value: string | number | bigint | boolean | Uint8Array): string {
  if (value instanceof Uint8Array) return `bytes:${Buffer.from(value).toString("hex")}`;
  switch (scalar) {
    case "double":
    case "float": {
      const n = typeof value === "string" ? parseFloatDefault(value) : Number(value);
      // Float defaults are stored as float32 by the runtimes; compare at the declared precision.
      return String(scalar === "float" ? Math.fround(n) : n);
    }
    case "bytes":
      // Our IR keeps bytes defaults as one char per byte.
      return `bytes:${Buffer.from(String(value), "latin1").toString("hex")}`;
    case "string":
    case "bool":
      return String(value);
    default:
      return BigInt(value as string | number | bigint).toString();
  }
}

function parseFloatDefault(text: string): number {
  const t = text.toLowerCase();
  if (t === "inf" || t === "+inf") return Infinity;
  if (t === "-inf") return -Infinity;
  if (t === "nan" || t === "-nan") return NaN;
  return Number(t);
}
