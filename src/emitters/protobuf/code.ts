/**
 * What the codec printers share: the file, the proto model, imports by name, and the local names of the internal
 * helpers (chosen once, so that no helper clashes with an imported type or runtime function).
 */
import type { GeneratedFile, ImportToken, Printable } from "../../codegen/generated-file.js";
import type { TypeId } from "../../ir/model.js";
import type { EmitContext } from "../artifact.js";
import type { ProtoModel } from "./plan.js";

export interface CodecContext {
  readonly f: GeneratedFile;
  readonly emit: EmitContext;
  readonly model: ProtoModel;
  /** A runtime symbol (imported type-only when it is one of the runtime's types). */
  rt(name: string): ImportToken;
  /** A type from the sibling types.ts (type-only import). */
  type(id: TypeId): ImportToken;
  /** The local name of an internal helper, e.g. local("read", id). */
  local(kind: LocalKind, id: TypeId, extra?: string): string;
}

/** The module-private helpers of protobuf.ts (HelperRole of the naming pass). */
export type LocalKind = "read" | "write" | "nameOf" | "numberOf" | "fieldNames" | "readEntry";

/** Join template pieces and printable values into one printable line. */
export function code(strings: TemplateStringsArray, ...values: Printable[]): Printable[] {
  const out: Printable[] = [];
  strings.forEach((s, i) => {
    out.push(s);
    if (i < values.length) out.push(values[i]!);
  });
  return out;
}

