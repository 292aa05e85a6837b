/**
 * The symbol table for a set of loaded .proto files, and protoc's name lookup.
 *
 * Every declared name is registered under its fully qualified name (without leading dot): package components,
 * messages (incl. groups), enums, enum values (which, C++-style, live in the enum's *parent* scope), fields,
 * oneofs, extensions, services and methods. A clash is a "duplicate name" error, which covers duplicate type names
 * and duplicate field names alike.
 *
 * Lookup follows protoc: a leading dot means fully qualified; otherwise the first component of the name is looked
 * up from the innermost scope outwards, and once it hits an aggregate (message, enum, package, service) the rest of
 * the name must be found inside it. Only symbols of the file itself, its imports and their public imports are
 * visible.
 */
import { SpecError } from "../../errors.js";
import type { Diagnostics } from "../diagnostics.js";
import type { EnumDecl, FieldDecl, MessageDecl, Pos, ProtoFile } from "./ast.js";
import type { LoadedFile } from "./load.js";

export type SymbolKind =
  | "package"
  | "message"
  | "enum"
  | "enumValue"
  | "field"
  | "oneof"
  | "extension"
  | "service"
  | "method";

export interface ProtoSymbol {
  readonly kind: SymbolKind;
  /** Fully qualified name without the leading dot. */
  readonly fullName: string;
  readonly file: ProtoFile;
  readonly pos: Pos;
  readonly message?: MessageDecl;
  readonly enumDecl?: EnumDecl;
}

export const join = (scope: string, name: string): string => (scope === "" ? name : `${scope}.${name}`);

const isAggregate = (k: SymbolKind): boolean => k === "message" || k === "enum" || k === "package" || k === "service";
export const isType = (k: SymbolKind): boolean => k === "message" || k === "enum";

export class SymbolTable {
  private readonly symbols = new Map<string, ProtoSymbol>();
  /** For each file path: the files whose symbols it may use. */
  private readonly visible = new Map<string, Set<string>>();

  /** `diagnostics` collects duplicate names (the first declaration wins, so lowering can go on). */
  constructor(files: readonly LoadedFile[], private readonly diagnostics?: Diagnostics) {
    const byPath = new Map(files.map((f) => [f.ast.path, f]));
    const publicClosure = (f: LoadedFile, into: Set<string>): void => {
      for (const imp of f.imports) {
        if (imp.decl.modifier !== "public" || into.has(imp.target)) continue;
        into.add(imp.target);
        publicClosure(byPath.get(imp.target)!, into);
      }
    };
    for (const f of files) {
      const vis = new Set<string>([f.ast.path]);
      for (const imp of f.imports) {
        vis.add(imp.target);
        publicClosure(byPath.get(imp.target)!, vis);
      }
      this.visible.set(f.ast.path, vis);
    }
    for (const f of files) this.registerFile(f.ast);
  }

  get(fullName: string): ProtoSymbol | undefined {
    return this.symbols.get(fullName);
  }

  /**
   * Resolve `name` as referenced from inside `scope` (a package or message full name) in `file`.
   * Returns the symbol, or an explanation of why there is none.
   */
  lookup(name: string, scope: string, file: ProtoFile, typesOnly: boolean): ProtoSymbol | { error: string } {
    let hidden: ProtoSymbol | undefined;
    const find = (full: string): ProtoSymbol | undefined => {
      const s = this.symbols.get(full);
      if (!s) return undefined;
      if (s.kind === "package" || this.visible.get(file.path)!.has(s.file.path)) return s;
      hidden ??= s;
      return undefined;
    };
    const notFound = (): { error: string } =>
      hidden
        ? { error: `"${name}" seems to be defined in "${hidden.file.display}", which is not imported by "${file.display}"` }
        : { error: `unknown type "${name}"` };

    if (name.startsWith(".")) return find(name.slice(1)) ?? notFound();
    const dot = name.indexOf(".");
    const first = dot < 0 ? name : name.slice(0, dot);
    let current: string | undefined = scope;
    while (current !== undefined) {
      const candidate = join(current, first);
      const sym = find(candidate);
      if (sym) {
        if (dot >= 0) {
          // Compound name: once the first part names an aggregate, the rest must be inside it (protoc does not
          // keep searching outer scopes then).
          if (isAggregate(sym.kind)) return find(join(current, name)) ?? notFound();
        } else if (!typesOnly || isType(sym.kind)) {
          return sym;
        }
      }
      if (current === "") break;
      const cut = current.lastIndexOf(".");
      current = cut < 0 ? "" : current.slice(0, cut);
    }
    return notFound();
  }

  // ---- registration ---------------------------------------------------------------------------------------

  private add(sym: ProtoSymbol): void {
    const existing = this.symbols.get(sym.fullName);
    if (!existing) {
      this.symbols.set(sym.fullName, sym);
      return;
    }
    if (existing.kind === "package" && sym.kind === "package") return;
    const cut = sym.fullName.lastIndexOf(".");
    const simple = sym.fullName.slice(cut + 1);
    const where = cut < 0 ? "" : ` in "${sym.fullName.slice(0, cut)}"`;
    const first = `${existing.file.display}:${existing.pos.line}:${existing.pos.column}`;
    const note = sym.kind === "enumValue" || existing.kind === "enumValue"
      ? " (enum values use C++ scoping: they are siblings of their enum, not children of it)"
      : "";
    const error = new SpecError(sym.file.display, sym.pos.line, sym.pos.column, `"${simple}" is already defined${where} (first defined at ${first})${note}`);
    if (!this.diagnostics) throw error;
    this.diagnostics.report(error);
  }

  private registerFile(file: ProtoFile): void {
    if (file.package !== "") {
      const parts = file.package.split(".");
      for (let i = 1; i <= parts.length; i++) {
        this.add({ kind: "package", fullName: parts.slice(0, i).join("."), file, pos: { line: 1, column: 1 } });
      }
    }
    for (const d of file.decls) {
      switch (d.kind) {
        case "message":
          this.registerMessage(file, file.package, d);
          break;
        case "enum":
          this.registerEnum(file, file.package, d);
          break;
        case "extend":
          for (const f of d.fields) this.registerField(file, file.package, f, "extension", file.package);
          break;
        case "service": {
          const full = join(file.package, d.name);
          this.add({ kind: "service", fullName: full, file, pos: d.pos });
          for (const m of d.methods) this.add({ kind: "method", fullName: join(full, m.name), file, pos: m.pos });
          break;
        }
      }
    }
  }

  private registerMessage(file: ProtoFile, scope: string, m: MessageDecl): void {
    const full = join(scope, m.name);
    this.add({ kind: "message", fullName: full, file, pos: m.pos, message: m });
    for (const d of m.body) {
      switch (d.kind) {
        case "field":
          this.registerField(file, full, d, "field", full);
          break;
        case "oneof":
          this.add({ kind: "oneof", fullName: join(full, d.name), file, pos: d.pos });
          for (const f of d.fields) this.registerField(file, full, f, "field", full);
          break;
        case "message":
          this.registerMessage(file, full, d);
          break;
        case "enum":
          this.registerEnum(file, full, d);
          break;
        case "extend":
          for (const f of d.fields) this.registerField(file, full, f, "extension", full);
          break;
      }
    }
  }

  /** `groupScope`: where a group's message type lives (the message, or the scope around an extend block). */
  private registerField(file: ProtoFile, scope: string, f: FieldDecl, kind: "field" | "extension", groupScope: string): void {
    if (f.group) this.registerMessage(file, groupScope, f.group);
    this.add({ kind, fullName: join(scope, f.name), file, pos: f.pos });
  }

  private registerEnum(file: ProtoFile, scope: string, e: EnumDecl): void {
    this.add({ kind: "enum", fullName: join(scope, e.name), file, pos: e.pos, enumDecl: e });
    for (const v of e.values) this.add({ kind: "enumValue", fullName: join(scope, v.name), file, pos: v.pos });
  }
}
