import { lineCommentText, stringLiteral } from "../../codegen/escape.js";
import type { GeneratedFile, ImportToken } from "../../codegen/generated-file.js";
import type { TypeId } from "../../ir/model.js";
import type { TypesContext } from "../types/context.js";
import type { EmitModules } from "../artifact.js";
import { importShared } from "../modules.js";
import { Lines, type Code } from "./code.js";
import { patternPlan } from "../../codegen/spec-pattern.js";

/**
 * State of one validate.ts being written: module-level constants (compiled patterns, value sets), helper functions
 * hoisted out of type bodies (array and map loops), and the names of every type's functions.
 */
export class ValidatorContext {
  /** Module-level constant declarations, printed before the functions. */
  readonly constants = new Lines();
  /** Helper functions of the type being emitted, printed right after it. */
  helpers = new Lines();
  private readonly patterns = new Map<string, string>();
  private readonly sets = new Map<string, string>();
  private helperCount = 0;
  private readonly namedConstants = new Map<string, string>();
  private ownDeclared = false;
  private readonly sharedHelpers = new Map<string, string>();
  private owner = "";

  constructor(
    readonly f: GeneratedFile,
    readonly types: TypesContext,
    readonly runtimeModule: string,
    /** Types whose entry points guard against stack exhaustion; their boolean bodies live in `check<T>` functions. */
    readonly recursive: ReadonlySet<TypeId>,
    /** Types whose checks are another type's, of the same shape (see types/same-shape.ts): type -> the one with the code. */
    readonly sameShape: ReadonlyMap<TypeId, TypeId> = new Map(),
    /** String formats checked (assert) or annotations only (annotate): the `formats` option. */
    readonly formats: "assert" | "annotate" = "assert",
    /** Set when the output is one module per input file: other files' types are checked by their modules' functions. */
    readonly modules?: EmitModules,
  ) {}

  /** The type whose functions check values of type `id`: itself, or the first type of the same shape. */
  checkedAs(id: TypeId): TypeId {
    return this.sameShape.get(id) ?? id;
  }

  rt(name: string): ImportToken {
    return this.f.import(name, this.runtimeModule);
  }

  typeName(id: TypeId): string {
    return this.types.names.type(id);
  }

  /** The boolean check to call for a named type from inside generated code. */
  isFn(id: TypeId): string {
    const home = this.modules?.foreign(id);
    if (home !== undefined) return importShared(this.f, home, "validate", this.types.names.shared(id, "is"));
    const own = this.checkedAs(id);
    return this.types.names.derived(own, this.recursive.has(own) ? "check" : "is");
  }

  collectFn(id: TypeId): string {
    const home = this.modules?.foreign(id);
    if (home !== undefined) return importShared(this.f, home, "validate", this.types.names.shared(id, "collect"));
    return this.types.names.derived(this.checkedAs(id), "collect");
  }

  /** Start emitting a named type: helper names are derived from it. */
  beginType(id: TypeId): void {
    this.owner = this.typeName(id);
    this.helperCount = 0;
    this.helpers = new Lines();
  }

  helperName(prefix: "is" | "collect" | "evaluated"): string {
    return `${prefix}${this.owner}$${++this.helperCount}`;
  }

  /** One helper per distinct array/map type and prefix in the module: `build` runs only the first time. */
  sharedHelper(prefix: "is" | "collect" | "evaluated", key: unknown, build: (name: string) => void): string {
    // References count by the type whose checks they use, so arrays of same-shape types share one helper too.
    const cacheKey = `${prefix}:${JSON.stringify(key, (k, v: unknown) => (k === "id" && typeof v === "string" ? this.checkedAs(v) : v))}`;
    const known = this.sharedHelpers.get(cacheKey);
    if (known) return known;
    const name = this.helperName(prefix);
    this.sharedHelpers.set(cacheKey, name);
    build(name);
    return name;
  }

  /**
   * The start of a call testing a string against a spec pattern (the caller appends the subject and ")"): a
   * module-level RegExp (with the `u` flag unless it
   * changes nothing) from an escaped string literal. The pattern is compiled here first, so a pattern JavaScript
   * cannot compile fails generation instead of the generated module.
   */
  pattern(source: string): string {
    const known = this.patterns.get(source);
    if (known) return known;
    const unicode = compilesWithUnicodeFlag(source);
    if (!unicode) {
      try {
        new RegExp(source);
      } catch {
        // The error JSON Schema's reading gives (with the flag) says best what is wrong.
        try {
          new RegExp(source, "u");
        } catch (e) {
          throw new Error(`pattern ${stringLiteral(source)} is not a valid regular expression: ${(e as Error).message}`);
        }
      }
    }
    // A fixed prefix (`^https?://`) is a RegExp too: written as startsWith calls it was 1.25x slower in isWebhook
    // (V8 calls the builtin), as charCodeAt tests as fast as the RegExp but 230 bytes minified where this is 30.
    const name = `PATTERN_${this.patterns.size + 1}`;
    this.patterns.set(source, `${name}.test(`);
    const plan = patternPlan(source, unicode ? "u" : "");
    if (plan.kind === "linear") {
      // Could backtrack super-linearly (a nested or repeated quantifier): the linear-time matcher (src/codegen/spec-pattern.ts).
      this.constants.add("", `// ${lineCommentText(source)}: matched in linear time (a backtracking RegExp could take exponential time).`);
      this.constants.add("", [`const ${name} = `, this.rt("linearPattern"), `(${stringLiteral(source)}${unicode ? ", \"u\"" : ""});`]);
      return `${name}.test(`;
    }
    if (plan.kind === "backtracking") this.constants.add("", `// ${lineCommentText(source)}: backtracking RegExp (${lineCommentText(plan.reason)} has no linear-time matcher).`);
    const flags = !unicode || unicodeFlagChangesNothing(source) ? "" : ", \"u\"";
    this.constants.add("", `const ${name} = new RegExp(${stringLiteral(source)}${flags});`);
    return `${name}.test(`;
  }

  /**
   * The module-level `IS_OWN(o, key)`: whether `o`'s property `key`, just read, is its own. The same test record
   * checks write inline, as a function that is only a few bytes at each call site: an is<T> calls it on its way to
   * `return false` for an optional property, where the inline form made a type of ten optional properties too large
   * for the optimizing compiler to inline into its caller (typia's checks, with no guard, are inlined).
   */
  ownFunction(): string {
    if (!this.ownDeclared) {
      this.ownDeclared = true;
      // Object.prototype read where it is used, not through OBJECT_PROTOTYPE: the optimizing compiler folds a read
      // of a missing property of that constant object (guarded by a dependency), not one through a module constant.
      this.constants.add("", "/** Whether the property `key` of `o` is its own (see ownCheck in json-validators/records.ts). */");
      this.constants.add("", [
        "function IS_OWN(o: object, key: string): boolean {",
        "  return (Object.getPrototypeOf(o) === Object.prototype && (Object.prototype as Readonly<Record<string, unknown>>)[key] === undefined) || Object.hasOwn(o, key);",
        "}",
      ].join("\n"));
    }
    return "IS_OWN";
  }

  /** A module-level constant (`const VALUE_3 = ...;`) for an expression, declared once per distinct expression. */
  constant(prefix: string, expr: Code): string {
    const key = `${prefix}:${JSON.stringify(expr)}`;
    const known = this.namedConstants.get(key);
    if (known) return known;
    const name = `${prefix}_${this.namedConstants.size + 1}`;
    this.namedConstants.set(key, name);
    this.constants.add("", `const ${name} = `, expr, ";");
    return name;
  }

  /** A module-level set of allowed values, for enumerations too long for a chain of `===`. */
  valueSet(literals: readonly string[]): string {
    const key = literals.join(", ");
    const known = this.sets.get(key);
    if (known) return known;
    const name = `VALUES_${this.sets.size + 1}`;
    this.sets.set(key, name);
    this.constants.add("", `const ${name}: ReadonlySet<unknown> = new Set([${literals.join(", ")}]);`);
    return name;
  }
}

/**
 * Whether a pattern compiles with the `u` flag, which JSON Schema asks for. One that only compiles without it uses
 * syntax JavaScript keeps for legacy regular expressions (Annex B), such as DigitalOcean's `^[a-zA-Z0-9_\-\:]+$`
 * (`\:` escapes a character that needs no escape): it is compiled without the flag, as a browser or ajv with
 * `unicodeRegExp: false` reads it, rather than refusing a document that every JavaScript regex engine understands.
 */
export function compilesWithUnicodeFlag(source: string): boolean {
  try {
    new RegExp(source, "u");
    return true;
  } catch {
    return false;
  }
}

/**
 * Whether a pattern (already known to compile with `u`) matches exactly the same strings without it. V8 runs a
 * non-unicode regular expression faster (`^https?://`, before it became a prefix check: 28 ns against 36 ns). The
 * flag only changes how astral characters and escapes are read: a pattern of ASCII characters only, with no
 * escapes, no `.` and no negated class, can never see half of a surrogate pair, so it means the same either way.
 * Anything else keeps `u` (the JSON Schema rule: patterns are ECMA-262 with unicode semantics).
 */
export function unicodeFlagChangesNothing(source: string): boolean {
  return /^[\x20-\x7e]*$/.test(source) && !source.includes("\\") && !source.includes(".") && !source.includes("[^");
}
