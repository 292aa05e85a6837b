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
  /** The interface listing the extensions (proto `extend`) declared for a message. */
  extensions(extendee: TypeId): string;
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
  // Declared names first so that "Foo" keeps "Foo" even if another type's derived name would also be "Foo";
  // then anonymous types (an element's inline type, an inline schema), which on a clash say what they are.
  const xml = doc.format === "wsdl" || doc.format === "xsd";
  for (const t of doc.types) if (!t.anonymous) typeNames.set(t.id, claim(typeIdentifier(sourceNameOf(t))));
  for (const t of doc.types) {
    if (!t.anonymous) continue;
    const base = typeIdentifier(sourceNameOf(t));
    typeNames.set(t.id, claim(xml && used.has(base) ? `${base.replace(/\$$/, "")}Element` : base));
  }
  for (const t of doc.types) {
    const base = typeNames.get(t.id)!.replace(/\$$/, "");
    if (t.kind === "record" && (subtypes.get(t.id)?.length ?? 0) > 0) familyNames.set(t.id, claim(`Any${base}`));
    if (t.kind === "enum") valuesNames.set(t.id, claim(`${base}Values`));
  }

  const serviceNames = doc.services.map((s) => {
    const base = typeIdentifier(s.kind === "rpc" ? s.fullName.split(".").pop()! : s.name).replace(/\$$/, "");
    return claim(`${base}Operations`);
  });

  const extensionNames = new Map<TypeId, string>();
  for (const e of doc.extensions) {
    if (!extensionNames.has(e.extendee) && typeNames.has(e.extendee)) {
      extensionNames.set(e.extendee, claim(`${typeNames.get(e.extendee)!.replace(/\$$/, "")}Extensions`));
    }
  }

  return {
    extensions: (id) => {
      const name = extensionNames.get(id);
      if (name === undefined) throw new Error(`internal: no extensions of ${id}`);
      return name;
    },
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
