/**
 * The set of spec files reachable from the entry: each file is read and parsed once, and `$ref` strings are resolved
 * to a location (file + JSON pointer + value) relative to the file that contains them.
 */
import path from "node:path";
import { SpecError } from "../../errors.js";
import type { SpecHost } from "../host.js";
import { parseFragment, pointerOf } from "./pointer.js";
import { readSpecFile, type JsonValue, type ParsedFile } from "./read.js";

/** A node of some spec file. */
export interface Loc {
  readonly file: ParsedFile;
  readonly pointer: string;
  readonly value: JsonValue;
}

export class FileSet {
  /** In first-read order, entry first. */
  readonly files: ParsedFile[] = [];
  private readonly byPath = new Map<string, ParsedFile>();

  /** `onLoad` runs once per file, right after it is parsed (the lowerer reserves the file's component names). */
  constructor(
    private readonly host: SpecHost,
    private readonly onLoad: (file: ParsedFile) => void = () => {},
  ) {}

  /** Read a file (once). `from` is where the reading was asked for, for the error when it cannot be read. */
  load(absolutePath: string, from?: Loc): ParsedFile {
    const known = this.byPath.get(absolutePath);
    if (known) return known;
    let text: string;
    try {
      text = this.host.readFile(absolutePath);
    } catch (e) {
      const reason = e instanceof Error ? e.message : String(e);
      if (!from) throw e;
      return this.fail(from, `cannot read referenced file '${this.host.displayPath(absolutePath)}': ${reason}`);
    }
    const file = readSpecFile(absolutePath, text, this.host.displayPath(absolutePath));
    this.byPath.set(absolutePath, file);
    this.files.push(file);
    this.onLoad(file);
    return file;
  }

  /** Register a file parsed (or converted) elsewhere, as if it had been read from its path. */
  seed(file: ParsedFile): void {
    if (this.byPath.has(file.path)) return;
    this.byPath.set(file.path, file);
    this.files.push(file);
    this.onLoad(file);
  }

  /** Resolve a `$ref` string found at `at` (the `$ref` key's location). */
  resolve(ref: string, at: Loc): Loc {
    const hash = ref.indexOf("#");
    const filePart = hash < 0 ? ref : ref.slice(0, hash);
    const fragment = hash < 0 ? "" : ref.slice(hash + 1);
    if (/^[a-z][a-z0-9+.-]*:/i.test(filePart)) return this.fail(at, `remote $ref '${ref}' is not supported`);
    const file = filePart === "" ? at.file : this.load(path.resolve(path.dirname(at.file.path), decodeURI(filePart)), at);
    const segments = parseFragment(fragment);
    if (!segments) return this.fail(at, `invalid $ref '${ref}': the fragment must be a JSON pointer`);
    let value: JsonValue | undefined = file.value;
    for (const segment of segments) {
      value = step(value, segment);
      if (value === undefined) return this.fail(at, `unknown $ref target '${ref}'`);
    }
    return { file, pointer: pointerOf(segments), value: value as JsonValue };
  }

  /** Throw a SpecError located at `loc`. */
  fail(loc: Pick<Loc, "file" | "pointer">, detail: string): never {
    const p = loc.file.locate(loc.pointer);
    throw new SpecError(this.host.displayPath(loc.file.path), p.line, p.column, detail);
  }
}

function step(value: JsonValue | undefined, segment: string): JsonValue | undefined {
  if (Array.isArray(value)) return /^(0|[1-9]\d*)$/.test(segment) ? value[Number(segment)] : undefined;
  if (value !== null && typeof value === "object") return Object.hasOwn(value, segment) ? value[segment] : undefined;
  return undefined;
}
