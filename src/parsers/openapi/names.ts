/**
 * Deterministic names for things the spec leaves unnamed: inline schemas and operations without operationId.
 * These are *source* names; the naming pass turns them into TypeScript identifiers later.
 */

/** "user_id" -> "UserId", "petType" -> "PetType", "4XX" -> "4XX". Words keep their inner casing. */
export function pascalCase(text: string): string {
  return text
    .split(/[^A-Za-z0-9]+/)
    .filter((w) => w !== "")
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join("");
}

/** "get", "/webhooks/{id}/events" -> "getWebhooksByIdEvents"; "/" -> "get". */
export function operationNameFor(method: string, pathTemplate: string): string {
  const words = pathTemplate
    .split("/")
    .filter((s) => s !== "")
    .map((segment) => {
      // A whole-segment parameter reads as "By<Name>"; parameters inside a literal segment just join the words.
      const whole = /^\{([^}]+)\}$/.exec(segment);
      return whole ? `By${pascalCase(whole[1]!)}` : pascalCase(segment.replace(/[{}]/g, " "));
    });
  return method.toLowerCase() + words.join("");
}

/** Hands out names unique within a scope: the first taker gets `name`, later ones `name2`, `name3`, ... */
export class NameTable {
  private readonly taken = new Map<string, Set<string>>();

  reserve(scope: string, name: string): void {
    this.scopeSet(scope).add(name);
  }

  claim(scope: string, wanted: string): string {
    const set = this.scopeSet(scope);
    let name = wanted;
    for (let i = 2; set.has(name); i++) name = `${wanted}${i}`;
    set.add(name);
    return name;
  }

  /** Give back a name claimed for a type that was not kept (see SchemaLowerer.mergedField). */
  release(scope: string, name: string): void {
    this.taken.get(scope)?.delete(name);
  }

  private scopeSet(scope: string): Set<string> {
    let set = this.taken.get(scope);
    if (!set) this.taken.set(scope, (set = new Set()));
    return set;
  }
}
