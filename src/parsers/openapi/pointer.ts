/**
 * JSON pointers in the `#/a/b` fragment form used by OpenAPI `$ref`s and by `Origin.pointer`.
 * The root is "#". Segments are escaped per RFC 6901 (`~` -> `~0`, `/` -> `~1`).
 */

export function childPointer(parent: string, key: string | number): string {
  const segment = String(key).replace(/~/g, "~0").replace(/\//g, "~1");
  return `${parent}/${segment}`;
}

/**
 * Split a `$ref` fragment ("/components/schemas/Pet", already without "#") into unescaped segments.
 * Fragments are URI fragments, so percent-escapes are decoded first (`%7B` in a path key).
 * Returns undefined when the fragment is not a valid pointer.
 */
export function parseFragment(fragment: string): string[] | undefined {
  if (fragment === "") return [];
  if (!fragment.startsWith("/")) return undefined;
  let decoded: string;
  try {
    decoded = decodeURIComponent(fragment);
  } catch {
    return undefined;
  }
  return decoded
    .slice(1)
    .split("/")
    .map((s) => s.replace(/~1/g, "/").replace(/~0/g, "~"));
}

/** Build "#/a/b" from unescaped segments. */
export function pointerOf(segments: readonly string[]): string {
  return segments.reduce<string>((p, s) => childPointer(p, s), "#");
}

/** The unescaped segments of a "#/a/b" pointer produced by `childPointer`. */
export function segmentsOf(pointer: string): string[] {
  if (pointer === "#") return [];
  return pointer
    .slice(2)
    .split("/")
    .map((s) => s.replace(/~1/g, "/").replace(/~0/g, "~"));
}
