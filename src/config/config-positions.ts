import { readFileSync } from "node:fs";
import path from "node:path";
import { isMap, isSeq, LineCounter, parseDocument, type Node } from "yaml";

/** A place in the config file: `file:line:col` for a JSON config, the file alone when positions are unknown. */
export interface ConfigPlace {
  /** `specforge.config.json:7:15`, or `specforge.config.ts` (a module config has no source positions to give). */
  readonly where: string;
  /** `line 7:15`, for naming a second place in the same message; "" when unknown. */
  readonly short: string;
}

/**
 * Positions of values in a JSON config, for errors that are about more than one value (two specs writing one
 * folder), which the config's validation cannot report as it goes. The file is read again with the yaml package
 * (JSON is YAML) only when such an error is reported, so loading a config stays a plain JSON.parse.
 */
export class ConfigPositions {
  private root: Node | undefined | null = null;
  private readonly lines = new LineCounter();

  constructor(
    private readonly file: string | undefined,
    private readonly shown: string,
  ) {}

  /** The place of the value at `keys` (e.g. ["specs", 2, "out"]), or of its nearest parent the file has. */
  place(keys: readonly (string | number)[]): ConfigPlace {
    const node = this.find(keys);
    if (!node?.range) return { where: this.shown, short: "" };
    const { line, col } = this.lines.linePos(node.range[0]);
    return { where: `${this.shown}:${line}:${col}`, short: `line ${line}:${col}` };
  }

  private find(keys: readonly (string | number)[]): Node | undefined {
    let node = this.document();
    for (const key of keys) {
      const child: unknown = isMap(node) || isSeq(node) ? node.get(key, true) : undefined;
      if (child === undefined || child === null) return node;
      node = child as Node;
    }
    return node;
  }

  private document(): Node | undefined {
    if (this.root !== null) return this.root;
    this.root = undefined;
    if (this.file === undefined || path.extname(this.file).toLowerCase() !== ".json") return undefined;
    try {
      const doc = parseDocument(readFileSync(this.file, "utf8"), { lineCounter: this.lines, prettyErrors: false });
      this.root = (doc.contents as Node | null) ?? undefined;
    } catch {
      this.root = undefined;
    }
    return this.root;
  }
}
