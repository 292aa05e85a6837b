import type { GeneratedFile, Printable } from "../../codegen/generated-file.js";
import type { TypeExpr, TypeId } from "../../ir/model.js";
import { SerializerContext } from "../json-serializers/context.js";
import { importTypeFunction } from "../modules.js";
import type { TypesContext } from "../types/context.js";

/**
 * How a generated client or server moves one JSON body whose JSON is not what JSON.stringify / JSON.parse give: a
 * body holding bytes (base64 on the wire, Uint8Array in memory), Date values (`dates: "Date"`) or 64-bit integers
 * as bigint or string. Each piece is an expression over the variable it is given.
 * - `encode(v)`: the body's JSON text, written by the generated encoders (`encode<T>Json`).
 * - `revive(v)`: the parsed JSON turned into the in-memory shape (`revive<T>`); it never validates, it only converts
 *   what it recognises.
 * - `guard(v)`: whether `v` is a value of the type (`is<T>`), so a handler's wrong answer is left to JSON.stringify
 *   rather than given to an encoder that is only defined on the type's values.
 */
export interface JsonBodyCodec {
  readonly encode: (v: string) => Printable;
  readonly revive: (v: string) => Printable;
  readonly guard: (v: string) => Printable;
}

/** What one generated file needs to find body codecs: computed once per file (the revive analysis is a fixpoint). */
export class JsonBodyCodecs {
  private readonly needsRevive: ReadonlySet<TypeId>;
  private readonly sameShape: ReadonlyMap<TypeId, TypeId>;
  /** Whether bodies must be parsed with big integers kept exact (restParseJsonBigints) before reviving. */
  readonly parseBigints: boolean;

  constructor(
    private readonly f: GeneratedFile,
    private readonly tctx: TypesContext,
    runtimeModule: string,
  ) {
    const s = new SerializerContext(f, tctx, runtimeModule, tctx.modules);
    this.needsRevive = s.needsRevive;
    this.sameShape = s.sameShape;
    this.parseBigints = s.parseBigints;
  }

  /**
   * The codec of a body type, or undefined when JSON.stringify/JSON.parse already give it right or the type is not
   * one the generated encoders cover: a named type, or a list of such (nested lists too). Inline objects and unions
   * holding bytes or dates still go through JSON.stringify.
   */
  of(t: TypeExpr, nullable = false): JsonBodyCodec | undefined {
    const codec = this.codecOf(t, 0);
    if (codec === undefined || !nullable) return codec;
    return {
      encode: (v) => [`${v} === null ? "null" : `, codec.encode(v)],
      revive: codec.revive,
      guard: (v) => [`(${v} === null || `, codec.guard(v), ")"],
    };
  }

  private codecOf(t: TypeExpr, depth: number): JsonBodyCodec | undefined {
    const { f, tctx } = this;
    if (t.kind === "ref") {
      if (!this.needsRevive.has(t.id)) return undefined;
      const id = t.id;
      // A type with another's shape shares that type's reviver (json.ts exports only its encoder and decoder aliases).
      // Another input file's type (one module per input file) is imported from that file's module.
      const reviver = this.sameShape.get(id) ?? id;
      const fn = (owner: TypeId, role: "encodeJson" | "revive" | "is") =>
        importTypeFunction(f, tctx.modules, owner, tctx.names.derived(owner, role), role === "is" ? "validate" : "json");
      return {
        encode: (v) => [fn(id, "encodeJson"), `(${v})`],
        revive: (v) => [fn(reviver, "revive"), `(${v})`],
        guard: (v) => [fn(id, "is"), `(${v})`],
      };
    }
    if (t.kind === "list") {
      const item = this.codecOf(t.of, depth + 1);
      if (item === undefined) return undefined;
      const x = `item${depth}`;
      return {
        encode: (v) => [`"[" + ${v}.map((${x}) => `, item.encode(x), `).join(",") + "]"`],
        revive: (v) => [`Array.isArray(${v}) ? ${v}.map((${x}: unknown) => `, item.revive(x), `) : ${v}`],
        guard: (v) => [`Array.isArray(${v}) && ${v}.every((${x}: unknown) => `, item.guard(x), ")"],
      };
    }
    return undefined;
  }
}
