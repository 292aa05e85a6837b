/**
 * State of one Swagger 2.0 -> OpenAPI 3.0 conversion: the original files (read through a FileSet, so `$ref`s resolve
 * and fail exactly as they do for 3.x input), where each converted node came from, the `$ref`s to rewrite once every
 * node has its final place, and the queue of nodes that other files reference and that still need converting.
 *
 * Nodes stay in the file they were written in (a referenced `parameters.yaml#/limitParam` is converted inside
 * parameters.yaml), so the lowering's `$ref` resolution, type ids and error file names are those of the originals.
 */
import path from "node:path";
import type { SpecHost } from "../../host.js";
import { FileSet, type Loc } from "../files.js";
import { child, isObject, items, type JsonObject } from "../json.js";
import type { JsonValue, ParsedFile } from "../read.js";
import { convertedFile, deepClone, newObject, setAt } from "./converted-file.js";
import { PointerMap } from "./pointer-map.js";

/** What a referenced node is, which decides how it is converted. */
export type NodeKind = "schema" | "parameter" | "response" | "pathItem";

export type ConvertNode = (loc: Loc, kind: NodeKind, at: string) => JsonValue;

/** A converted `{$ref}` object whose fragment is filled in by `finish`, when every node's converted pointer is known. */
interface RefSite {
  readonly node: JsonObject;
  /** The file part of the reference as it must be written (relative to the referencing file), or "". */
  readonly filePart: string;
  readonly target: Loc;
  /** Appended to the target's converted pointer (a body parameter's "/schema"). */
  readonly suffix: string;
}

interface Output {
  root?: JsonValue;
  readonly placed: { pointer: string; value: JsonValue }[];
}

const DEFAULT_MEDIA_TYPES = ["application/json"];

export class Swagger2Converter {
  readonly originals: FileSet;
  /** The document's global `consumes` / `produces`, application/json when absent. */
  readonly consumes: readonly string[];
  readonly produces: readonly string[];
  private readonly maps = new Map<string, PointerMap>();
  private readonly outputs = new Map<string, Output>();
  private readonly scheduled = new Set<string>();
  private readonly queue: { loc: Loc; kind: NodeKind }[] = [];
  private readonly refSites: RefSite[] = [];

  constructor(
    readonly entry: ParsedFile,
    host: SpecHost,
  ) {
    this.originals = new FileSet(host);
    this.originals.seed(entry);
    const root = this.rootOf(entry);
    this.consumes = this.mediaTypes(child(root, "consumes")) ?? DEFAULT_MEDIA_TYPES;
    this.produces = this.mediaTypes(child(root, "produces")) ?? DEFAULT_MEDIA_TYPES;
  }

  rootOf(file: ParsedFile): Loc {
    return { file, pointer: "#", value: file.value };
  }

  fail(loc: Pick<Loc, "file" | "pointer">, detail: string): never {
    return this.originals.fail(loc, detail);
  }

  mapOf(file: ParsedFile): PointerMap {
    let map = this.maps.get(file.path);
    if (!map) this.maps.set(file.path, (map = new PointerMap()));
    return map;
  }

  /** A `consumes` / `produces` list (undefined when absent, so the caller can fall back to the global one). */
  mediaTypes(loc: Loc | undefined): string[] | undefined {
    if (!loc) return undefined;
    const list = items(loc);
    if (!Array.isArray(loc.value) || list.some((m) => typeof m.value !== "string")) {
      return this.fail(loc, "consumes / produces must be a list of media type strings");
    }
    return list.length > 0 ? list.map((m) => m.value as string) : undefined;
  }

  /** Follow the `$ref` at `loc` (if any) once, in the original files. */
  resolveRef(loc: Loc): Loc | undefined {
    const refLoc = child(loc, "$ref");
    if (!refLoc) return undefined;
    if (typeof refLoc.value !== "string") return this.fail(refLoc, "$ref must be a string");
    return this.originals.resolve(refLoc.value, refLoc);
  }

  /** Follow `$ref`s until a node without one. */
  deref(loc: Loc): Loc {
    const seen = new Set<string>();
    for (let at = loc; ; ) {
      const next = this.resolveRef(at);
      if (!next) return at;
      const key = `${next.file.path}${next.pointer}`;
      if (seen.has(key)) return this.fail(loc, "circular $ref");
      seen.add(key);
      at = next;
    }
  }

  /** The converted copy of a `{$ref}` node: the target is converted as `kind` and the pointer rewritten to its place. */
  refNode(loc: Loc, kind: NodeKind): JsonObject {
    const target = this.resolveRef(loc)!;
    this.schedule(target, kind);
    const ref = isObject(loc.value) ? (loc.value["$ref"] as string) : "";
    const hash = ref.indexOf("#");
    return this.refSite(hash < 0 ? ref : ref.slice(0, hash), target, "");
  }

  /** A new `{$ref}` from a node of `from`'s file to (the converted place of) `target` plus `suffix`. */
  refTo(from: Loc, target: Loc, suffix: string): JsonObject {
    const relative = path.relative(path.dirname(from.file.path), target.file.path).split(path.sep).join("/");
    return this.refSite(target.file === from.file ? "" : encodeURI(relative), target, suffix);
  }

  /** A `{$ref}` to a converted pointer of the same file that is already known. */
  localRef(convertedPointer: string): JsonObject {
    const node = newObject();
    node["$ref"] = fragmentOf(convertedPointer);
    return node;
  }

  /** Convert `loc` as `kind` (once), in place in its own file. */
  schedule(loc: Loc, kind: NodeKind): void {
    const key = `${kind}\u0000${loc.file.path}${loc.pointer}`;
    if (this.scheduled.has(key)) return;
    this.scheduled.add(key);
    this.queue.push({ loc, kind });
  }

  /** Record that `loc` is being converted as part of its section, so references to it do not convert it again. */
  markConverted(loc: Loc, kind: NodeKind): void {
    this.scheduled.add(`${kind}\u0000${loc.file.path}${loc.pointer}`);
  }

  setRoot(file: ParsedFile, root: JsonValue): void {
    this.outputOf(file).root = root;
  }

  /** Convert every scheduled node (converting one may schedule more). */
  drain(convert: ConvertNode): void {
    for (let next = this.queue.shift(); next; next = this.queue.shift()) {
      const at = this.mapOf(next.loc.file).toConverted(next.loc.pointer);
      this.outputOf(next.loc.file).placed.push({ pointer: at, value: convert(next.loc, next.kind, at) });
    }
  }

  /** The converted files, in the order the originals were read (entry first). */
  finish(): ParsedFile[] {
    for (const site of this.refSites) {
      const pointer = this.mapOf(site.target.file).toConverted(site.target.pointer) + site.suffix;
      site.node["$ref"] = pointer === "#" ? site.filePart : site.filePart + fragmentOf(pointer);
    }
    return this.originals.files.map((file) => {
      const output = this.outputOf(file);
      let value = output.root ?? deepClone(file.value);
      // Outer nodes first, so a node converted on its own overrides the same node inside a converted ancestor.
      const placed = [...output.placed].sort((a, b) => depth(a.pointer) - depth(b.pointer));
      for (const p of placed) value = setAt(value, p.pointer, p.value);
      return convertedFile(file, value, this.mapOf(file));
    });
  }

  private refSite(filePart: string, target: Loc, suffix: string): JsonObject {
    const node = newObject();
    node["$ref"] = filePart;
    this.refSites.push({ node, filePart, target, suffix });
    return node;
  }

  private outputOf(file: ParsedFile): Output {
    let output = this.outputs.get(file.path);
    if (!output) this.outputs.set(file.path, (output = { placed: [] }));
    return output;
  }
}

/** "#/a/b" as a `$ref` fragment: FileSet percent-decodes fragments, so a literal "%" must be escaped. */
function fragmentOf(pointer: string): string {
  return pointer.replace(/%/g, "%25");
}

function depth(pointer: string): number {
  return pointer.split("/").length;
}
