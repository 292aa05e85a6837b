import type { TypeId } from "../ir/model.js";
import type { Names } from "./assign-names.js";
import { helperName, type HelperRole } from "./derived.js";

/**
 * The names one generated module declares for itself and does not export (a message's binary reader, an enum's
 * check, a text-format table, an HTTP codec constant): one scope per module, seeded with the names the module
 * exports. A helper's wanted name is spelled by the naming pass (HelperRole in derived.ts); on a clash with a name
 * of the scope the later one gets "_2", "_3", ... in the order the emitter asks. Asking again for the same helper
 * gives the same name.
 */
export class ModuleScope {
  private readonly used: Set<string>;
  private readonly assigned = new Map<string, string>();
  private readonly counts = new Map<string, number>();

  constructor(private readonly names: Names, taken: Iterable<string>) {
    this.used = new Set(taken);
  }

  /** The module's helper of `role` for type `id` (`extra`: the map field of a `readEntry`). */
  helper(role: HelperRole, id: TypeId, extra = ""): string {
    return this.claim(`${role}\0${id}\0${extra}`, helperName(role, this.names.type(id), extra));
  }

  /** A module-level name spelled by the emitter as one fixed word (`textTypes`, `httpMessages`). */
  fixed(word: string): string {
    return this.claim(`fixed\0${word}`, word);
  }

  /** A module-level constant numbered in order of first use (`RULE_1`, `RULE_2`, ...), one per `key`. */
  numbered(key: string, prefix: string): string {
    const k = `numbered\0${prefix}\0${key}`;
    const prior = this.assigned.get(k);
    if (prior !== undefined) return prior;
    const n = (this.counts.get(prefix) ?? 0) + 1;
    this.counts.set(prefix, n);
    return this.claim(k, `${prefix}_${n}`);
  }

  private claim(key: string, wanted: string): string {
    const prior = this.assigned.get(key);
    if (prior !== undefined) return prior;
    let name = wanted;
    for (let i = 2; this.used.has(name); i++) name = `${wanted}_${i}`;
    this.used.add(name);
    this.assigned.set(key, name);
    return name;
  }
}
