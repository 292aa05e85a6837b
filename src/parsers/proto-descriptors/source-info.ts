/**
 * What a FileDescriptorProto's SourceCodeInfo says about one declaration: where it starts and its doc comment.
 * Locations are keyed by their path (field numbers and indexes into the descriptor, e.g. [4, 0, 2, 1] is the second
 * field of the first message). Without SourceCodeInfo (a compiler run without --include_source_info) every lookup
 * comes back empty: declarations then have no doc and position 1:1.
 */
import type { FileDescriptorProto } from "@bufbuild/protobuf/wkt";

/** Field numbers of descriptor.proto used in location paths. */
export const PATH = {
  file: { message: 4, enum: 5, service: 6, extension: 7, options: 8, syntax: 12, edition: 14 },
  message: { field: 2, nested: 3, enum: 4, extension: 6, oneof: 8 },
  enum: { value: 2 },
  service: { method: 2 },
} as const;

export interface SourcePos {
  /** 1-based, like the text parser's positions. */
  readonly line: number;
  readonly column: number;
}

export interface SourceInfo {
  pos(path: readonly number[]): SourcePos;
  /** The span start as one sortable number, or undefined when the location is not recorded. */
  order(path: readonly number[]): number | undefined;
  doc(path: readonly number[]): string | undefined;
}

export function sourceInfo(file: FileDescriptorProto): SourceInfo {
  const byPath = new Map<string, { span: readonly number[]; leading?: string; trailing?: string }>();
  for (const loc of file.sourceCodeInfo?.location ?? []) {
    const key = loc.path.join(",");
    // The first location of a path is the declaration itself (later ones, e.g. repeated extend blocks, are parts).
    if (byPath.has(key)) continue;
    byPath.set(key, {
      span: loc.span,
      ...(loc.leadingComments !== undefined ? { leading: loc.leadingComments } : {}),
      ...(loc.trailingComments !== undefined ? { trailing: loc.trailingComments } : {}),
    });
  }
  return {
    pos(path) {
      const span = byPath.get(path.join(","))?.span;
      return span && span.length >= 3 ? { line: span[0]! + 1, column: span[1]! + 1 } : { line: 1, column: 1 };
    },
    order(path) {
      const span = byPath.get(path.join(","))?.span;
      return span && span.length >= 3 ? span[0]! * 1_000_000 + span[1]! : undefined;
    },
    doc(path) {
      const loc = byPath.get(path.join(","));
      if (!loc) return undefined;
      const parts = [loc.leading, loc.trailing].map((c) => (c === undefined ? undefined : cleanComment(c))).filter((s): s is string => s !== undefined && s !== "");
      return parts.length ? parts.join("\n") : undefined;
    },
  };
}

/**
 * A comment as the compiler hands it over (comment markers removed, for block comments also the leading "*" of
 * continuation lines) cleaned the way the text parser cleans comments (src/parsers/proto/tokenizer.ts): the extra
 * "*" of a doc block, one conventional leading space per line, trailing blanks and blank edge lines dropped.
 */
export function cleanComment(text: string): string {
  const lines = text.split(/\r?\n/).map((s, idx) => {
    const t = s.replace(/\s+$/, "");
    return (idx === 0 ? t.replace(/^\*+(?=\s|$)/, "") : t).replace(/^ /, "");
  });
  while (lines.length && lines[lines.length - 1] === "") lines.pop();
  return lines.join("\n");
}
