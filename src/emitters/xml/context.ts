import type { GeneratedFile, ImportToken, Printable } from "../../codegen/generated-file.js";
import type { IrDocument, NamedType, TypeId } from "../../ir/model.js";
import type { Names } from "../../naming/assign-names.js";
import type { EmitContext } from "../artifact.js";
import { lookupType, typesContext, type TypesContext } from "../types/context.js";
import { recordLayout, type RecordLayout } from "./record-layout.js";

/** Shared state of one xml.ts being emitted: the file, names, namespace constants and on-demand helpers. */
export interface XmlContext {
  readonly f: GeneratedFile;
  readonly types: TypesContext;
  readonly names: Names;
  readonly doc: IrDocument;
  /** Every name types.ts declares (types and families), to import them when printed. */
  readonly typeNames: ReadonlySet<string>;
  /** A runtime symbol. */
  rt(name: string, typeOnly?: boolean): ImportToken;
  /** A type from ./types.js. */
  ts(name: string): ImportToken;
  /** The module constant holding a namespace URI ("" is printed as the literal). */
  ns(uri: string): string;
  type(id: TypeId): NamedType;
  layout(id: TypeId): RecordLayout;
  /** Helper functions generated on demand (unions, literals), printed at the end of the file. */
  readonly helpers: Map<string, { readonly name: string; readonly lines: Printable[] }>;
}

export function xmlContext(f: GeneratedFile, ctx: EmitContext): XmlContext {
  const types = typesContext(ctx.doc, ctx.names, { int64: ctx.int64, ...(ctx.dates ? { dates: ctx.dates } : {}) });
  const nsNames = new Map<string, string>();
  const layouts = new Map<TypeId, RecordLayout>();
  return {
    f,
    types,
    names: ctx.names,
    doc: ctx.doc,
    typeNames: new Set(ctx.doc.types.flatMap((t) => [ctx.names.type(t.id), ctx.names.family(t.id) ?? ""]).filter(Boolean)),
    rt: (name, typeOnly = false) => f.import(name, ctx.runtimeModule, { typeOnly }),
    ts: (name) => f.import(name, "./types.js", { typeOnly: true }),
    ns: (uri) => {
      if (uri === "") return '""';
      let name = nsNames.get(uri);
      if (name === undefined) {
        name = `ns${nsNames.size + 1}`;
        nsNames.set(uri, name);
      }
      return name;
    },
    type: (id) => lookupType(types, id),
    layout: (id) => {
      let l = layouts.get(id);
      if (!l) {
        const t = lookupType(types, id);
        if (t.kind !== "record") throw new Error(`internal: ${id} is not a record`);
        l = recordLayout(t, types);
        layouts.set(id, l);
      }
      return l;
    },
    helpers: new Map(),
  };
}

/** Code as the writer prints it: strings and import tokens; `code` is a template tag that keeps tokens as tokens. */
export function code(strings: TemplateStringsArray, ...parts: Printable[]): Printable[] {
  const out: Printable[] = [strings[0]!];
  parts.forEach((p, i) => out.push(p, strings[i + 1]!));
  return out;
}

/**
 * An identifier as TypeScript reads one: the naming pass keeps non-ASCII letters (`éléments` -> `Éléments`), so the
 * names to find are Unicode ID_Start/ID_Continue runs, not ASCII words (an ASCII scan saw `l`, `ments` and missed
 * the import).
 */
const TS_IDENTIFIER = /[\p{ID_Start}_$][\p{ID_Continue}$\u200C\u200D]*/gu;

/**
 * A TypeScript type string (as the types emitter prints it) with every generated type name in it turned into an
 * import token, so the import from ./types.js is added exactly when the name is printed.
 */
export function typeRef(ts: string, x: XmlContext): Printable[] {
  const out: Printable[] = [];
  let last = 0;
  for (const m of ts.matchAll(TS_IDENTIFIER)) {
    if (!x.typeNames.has(m[0])) continue;
    out.push(ts.slice(last, m.index), x.ts(m[0]));
    last = m.index + m[0].length;
  }
  out.push(ts.slice(last));
  return out;
}
