/**
 * Where each node of a converted (OpenAPI 3.0-shaped) file came from in the original Swagger 2.0 file, and back.
 *
 * Conversion moves a few subtrees (`#/definitions` -> `#/components/schemas`, a parameter's `type`/`items` into its
 * `schema`, a response `schema` under `content/<media type>`). Recording one prefix per move is enough: the pointer
 * of any node below is the moved prefix plus the same suffix, so lookups walk up to the nearest recorded ancestor.
 */
export class PointerMap {
  /** Converted prefix -> original prefix: for positions (errors point into the file the author wrote). */
  private readonly forward = new Map<string, string>();
  /** Original prefix -> converted prefix: for rewriting `$ref`s that point at moved nodes. */
  private readonly inverse = new Map<string, string>();

  /** A node that moved: both directions. The first converted place wins for `$ref`s (a schema shared by media types). */
  relocate(original: string, converted: string): void {
    if (original === converted) return;
    this.forward.set(converted, original);
    if (!this.inverse.has(original)) this.inverse.set(original, converted);
  }

  /** A converted node whose position is that of `original`, but which `$ref`s never target by that name. */
  alias(converted: string, original: string): void {
    if (original !== converted) this.forward.set(converted, original);
  }

  toOriginal(converted: string): string {
    return mapPrefix(this.forward, converted);
  }

  toConverted(original: string): string {
    return mapPrefix(this.inverse, original);
  }
}

/** Replace the longest recorded prefix of `pointer` (a whole segment boundary) with what it maps to. */
function mapPrefix(map: ReadonlyMap<string, string>, pointer: string): string {
  for (let prefix = pointer; ; ) {
    const hit = map.get(prefix);
    if (hit !== undefined) return hit + pointer.slice(prefix.length);
    const cut = prefix.lastIndexOf("/");
    if (cut < 0) return pointer;
    prefix = prefix.slice(0, cut);
  }
}
