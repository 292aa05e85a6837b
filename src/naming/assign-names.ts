import type { IrDocument, NamedType, TypeId } from "../ir/model.js";
import { collectSubtypes } from "../ir/passes/subtypes.js";
import { typeIdentifier } from "./identifier.js";

/**
 * Every TypeScript identifier a document's generated code declares, chosen before anything is printed.
 * Clashes are resolved here, deterministically (declaration order wins; later ones get "_2", "_3", ...).
 */
export interface Names {
  /** The declaration name of a named type. */
  type(id: TypeId): string;
  /** For a record with subtypes: the name of the union of the record and all its subtypes. */
  family(id: TypeId): string | undefined;
  /** For an enum: the name of the `as const` array of its values. */
  enumValues(id: TypeId): string;
  /** The operations interface of the service at this index of `doc.services`. */
  service(index: number): string;
}

export function assignNames(doc: IrDocument): Names {
  const subtypes = collectSubtypes(doc);
  const used = new Set<string>();
  const claim = (wanted: string): string => {
    let name = wanted;
    for (let i = 2; used.has(name); i++) name = `${wanted}_${i}`;
    used.add(name);
    return name;
  };

  const typeNames = new Map<TypeId, string>();
  const familyNames = new Map<TypeId, string>();
  const valuesNames = new Map<TypeId, string>();
  // Declared names first so that "Foo" keeps "Foo" even if another type's derived name would also be "Foo".
  for (const t of doc.types) typeNames.set(t.id, claim(typeIdentifier(sourceNameOf(t))));
  for (const t of doc.types) {
    const base = typeNames.get(t.id)!.replace(/\$$/, "");
    if (t.kind === "record" && (subtypes.get(t.id)?.length ?? 0) > 0) familyNames.set(t.id, claim(`Any${base}`));
    if (t.kind === "enum") valuesNames.set(t.id, claim(`${base}Values`));
  }

  const serviceNames = doc.services.map((s) => {
    const base = typeIdentifier(s.kind === "rpc" ? s.fullName.split(".").pop()! : s.name).replace(/\$$/, "");
    return claim(`${base}Operations`);
  });

  return {
    service: (index) => {
      const name = serviceNames[index];
      if (name === undefined) throw new Error(`internal: no service ${index}`);
      return name;
    },
    type: (id) => {
      const name = typeNames.get(id);
      if (name === undefined) throw new Error(`internal: no name for type ${id}`);
      return name;
    },
    family: (id) => familyNames.get(id),
    enumValues: (id) => {
      const name = valuesNames.get(id);
      if (name === undefined) throw new Error(`internal: ${id} is not an enum`);
      return name;
    },
  };
}

/** proto nested types are named by their path inside the package ("Outer.Inner" -> "Outer_Inner"). */
function sourceNameOf(t: NamedType): string {
  if (t.id.startsWith("proto:.")) {
    const full = t.id.slice("proto:.".length);
    const inPackage = t.scope && full.startsWith(`${t.scope}.`) ? full.slice(t.scope.length + 1) : full;
    return inPackage.split(".").map((s) => typeIdentifier(s).replace(/\$$/, "")).join("_");
  }
  return t.name;
}
