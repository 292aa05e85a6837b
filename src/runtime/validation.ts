/**
 * What every generated validator reports: one issue per failed rule, with where it failed.
 * `path` is a JSON pointer into the value ("/webhook/delivery_url", "/entry/3/source/title"; "" for the root).
 */
export interface ValidationIssue {
  readonly path: string;
  /** A short machine-readable rule name: "required", "type", "enum", "pattern", "maxLength", "range", ... */
  readonly rule: string;
  readonly message: string;
  /**
   * protovalidate rules only: the field path as protovalidate names it (proto field names, `[index]`, `["key"]`:
   * "items[2].name"; "" for the message itself). `rule` is then protovalidate's rule id ("string.min_len").
   */
  readonly field?: string;
  /** protovalidate rules only: the violation is about a map key rather than its value. */
  readonly forKey?: boolean;
}

/** Thrown by `assert*` helpers and decoders that validate: carries every issue found. */
export class ValidationError extends Error {
  constructor(readonly issues: readonly ValidationIssue[]) {
    super(issues.map((i) => `${i.path || "/"}: ${i.message}`).join("; "));
    this.name = "ValidationError";
  }
}

/** Append a JSON pointer segment, escaping "~" and "/" as RFC 6901 says. */
export function pointerJoin(base: string, segment: string | number): string {
  // Called for every nested value on the decode paths: indexes and ordinary keys need no escaping, so the two
  // replacements run only for a key that has a '~' or a '/'.
  if (typeof segment === "number") return base + "/" + segment;
  if (segment.indexOf("~") < 0 && segment.indexOf("/") < 0) return base + "/" + segment;
  return `${base}/${segment.replace(/~/g, "~0").replace(/\//g, "~1")}`;
}

/**
 * The Standard Schema v1 interface (https://standardschema.dev), declared here as the spec asks of implementers, so
 * that generated code needs no dependency: structurally the same as `StandardSchemaV1` of `@standard-schema/spec`,
 * which is what TanStack Form, react-hook-form's resolver, tRPC, Hono and others accept.
 */
export interface StandardSchemaV1<Input = unknown, Output = Input> {
  readonly "~standard": StandardSchemaV1.Props<Input, Output>;
}

export declare namespace StandardSchemaV1 {
  interface Props<Input = unknown, Output = Input> {
    readonly version: 1;
    readonly vendor: string;
    readonly validate: (value: unknown, options?: Options | undefined) => Result<Output> | Promise<Result<Output>>;
    readonly types?: Types<Input, Output> | undefined;
  }
  interface Options {
    readonly libraryOptions?: Record<string, unknown> | undefined;
  }
  type Result<Output> = SuccessResult<Output> | FailureResult;
  interface SuccessResult<Output> {
    readonly value: Output;
    readonly issues?: undefined;
  }
  interface FailureResult {
    readonly issues: ReadonlyArray<Issue>;
  }
  interface Issue {
    readonly message: string;
    readonly path?: ReadonlyArray<PropertyKey | PathSegment> | undefined;
  }
  interface PathSegment {
    readonly key: PropertyKey;
  }
  interface Types<Input = unknown, Output = Input> {
    readonly input: Input;
    readonly output: Output;
  }
  type InferInput<Schema extends StandardSchemaV1> = NonNullable<Schema["~standard"]["types"]>["input"];
  type InferOutput<Schema extends StandardSchemaV1> = NonNullable<Schema["~standard"]["types"]>["output"];
}

/** A Standard Schema issue: specforge's message, its rule, and its JSON pointer as path keys. */
export interface StandardSchemaIssue extends StandardSchemaV1.Issue {
  readonly path: readonly PropertyKey[];
  /** The specforge rule that failed ("required", "type", "pattern", ...), as in ValidationIssue. */
  readonly rule: string;
}

/**
 * A generated validator as a Standard Schema v1 object: `validate` answers `{ value }` (the value itself, unchanged)
 * when `check` finds nothing and `{ issues }` otherwise, each issue's JSON pointer split into path keys (array
 * indexes as numbers: "/items/0/name" -> ["items", 0, "name"]). Synchronous, and it only wraps `check`: the
 * generated `is`/`validate` functions are unchanged.
 */
export function standardSchema<T>(check: (value: unknown) => readonly ValidationIssue[]): StandardSchemaV1<T> {
  return {
    "~standard": {
      version: 1,
      vendor: "specforge",
      validate(value: unknown): StandardSchemaV1.Result<T> {
        const found = check(value);
        if (found.length === 0) return { value: value as T };
        return { issues: found.map(standardSchemaIssue) };
      },
    },
  };
}

/** A ValidationIssue as a Standard Schema issue (its `path` JSON pointer as keys). */
export function standardSchemaIssue(issue: ValidationIssue): StandardSchemaIssue {
  return { message: issue.message, path: pointerKeys(issue.path), rule: issue.rule };
}

/** The keys of an RFC 6901 JSON pointer: "" -> [], "/a~1b/3" -> ["a/b", 3]. Canonical decimal segments are numbers. */
function pointerKeys(pointer: string): PropertyKey[] {
  if (pointer === "") return [];
  const keys: PropertyKey[] = [];
  for (const raw of pointer.slice(1).split("/")) {
    const key = raw.indexOf("~") < 0 ? raw : raw.replace(/~1/g, "/").replace(/~0/g, "~");
    keys.push(/^(0|[1-9]\d{0,15})$/.test(key) ? Number(key) : key);
  }
  return keys;
}
