import type { ElementId, HttpOperation, IrDocument, NamedType, TypeId } from "../ir/model.js";
import { collectSubtypes } from "../ir/passes/subtypes.js";
import { findFeedPages } from "../emitters/proto-http/find-pages.js";
import {
  derivedFunctionNames, derivedLate, derivedWithType, isModuleInternalName, isSharedDerivedRole, sharedDerivedName, sharedHelperName, SPELL, stemOf,
  type DerivedRole, type SharedRole,
} from "./derived.js";
import { clientMethodName } from "./property-name.js";
import { functionIdentifier, pascalOf, typeIdentifier, type WordStyle } from "./identifier.js";

/** Identifiers of one HTTP operation. */
export interface OperationNames {
  /** The client's method, the server's handler and the operations interface's key (camelCase). */
  readonly method: string;
  /** The server's module-level functions for this operation. */
  readonly parseParameters: string;
  readonly decodeForm: string;
  readonly decodeMultipart: string;
  readonly validateResponse: string;
}

/** Identifiers of one XSD global element's codec functions. */
export interface ElementNames {
  readonly stem: string;
  readonly encode: string;
  readonly decode: string;
}

/** Identifiers of one HTTP service's client and server. */
export interface ApiNames {
  readonly client: string;
  readonly createClient: string;
  /** The client's helper type: the resolved result of one of its methods. */
  readonly clientResult: string;
  readonly handlers: string;
  /** The server's helper type: the input of one of its handlers. */
  readonly handlerInput: string;
  readonly server: string;
  readonly createServer: string;
  /** The TanStack Query plugin's options factory, and the MSW plugin's default handlers and handler factory. */
  readonly queries: string;
  readonly mockHandlers: string;
  readonly mswHandlers: string;
}

/** Identifiers of one SOAP service's client (client.ts) and server (server.ts). */
export interface SoapNames {
  readonly client: string;
  readonly createClient: string;
  /** client.ts's module-private binding table and RPC message table. */
  readonly clientBinding: string;
  readonly clientMessages: string;
  readonly handlers: string;
  readonly faults: string;
  /** server.ts's module-private table of the faults' namespaces. */
  readonly faultNamespaces: string;
  /** The function building a fault for a handler to throw. */
  readonly fault: string;
  readonly server: string;
  readonly createServer: string;
  /** server.ts's module-private service descriptor and RPC message table. */
  readonly descriptor: string;
  readonly serverMessages: string;
}

/** Identifiers of one proto service in connect.ts. */
export interface RpcNames {
  readonly client: string;
  readonly implementation: string;
  readonly createClient: string;
  readonly createHandler: string;
  /** The TanStack Query plugin's options factory for the service's unary methods. */
  readonly queries: string;
  /** The module-private procedure constant of the method at this index of the service's `methods`. */
  procedure(methodIndex: number): string;
}

/** Identifiers of one feed page message's functions in feed.ts (see findFeedPages). */
export interface FeedNames {
  readonly fetch: string;
  readonly iterate: string;
  readonly serve: string;
  /** Module-private: how paging reads a page. */
  readonly parts: string;
}

/**
 * Every TypeScript identifier a document's generated code declares, chosen before anything is printed.
 * Clashes are resolved here, deterministically (declaration order wins; later ones get "_2", "_3", ...), against
 * one set for the whole document: the index re-exports every artifact with `export *`, and each artifact imports
 * the others' names, so a name is only free if it is free everywhere. Runtime exports are not reserved: a file
 * that uses one of their names imports the runtime's under an alias (see GeneratedFile).
 */
export interface Names {
  /** The declaration name of a named type. */
  type(id: TypeId): string;
  /** For a record with subtypes: the name of the union of the record and all its subtypes. */
  family(id: TypeId): string | undefined;
  /** For an enum: the name of the `as const` array of its values. */
  enumValues(id: TypeId): string;
  /**
   * The Standard Schema v1 object exported next to a type's validator (`WebhookSchema` beside `validateWebhook`).
   * Every type has one except proto enums (proto validators are per message).
   */
  standardSchema(id: TypeId): string;
  /**
   * The name of a function or constant declared per type (`validate`, `encode`, `toJsonString`, `defaults`, ...),
   * claimed once for the document (see src/naming/derived.ts). Throws for a role the format's types do not have.
   */
  derived(id: TypeId, role: DerivedRole): string;
  /**
   * An XSD global element's codec functions (`encode<E>Element`, `decode<E>Element`) and `stem`, E itself: the
   * element's key in xml.ts's codec table and the name `specforge convert` accepts.
   */
  element(id: ElementId): ElementNames;
  /** The operations interface of the service at this index of `doc.services`. */
  service(index: number): string;
  /** The interface listing the extensions (proto `extend`) declared for a message. */
  extensions(extendee: TypeId): string;
  /** An HTTP operation's identifiers (the operation object as found in `doc.services`). */
  operation(op: HttpOperation): OperationNames;
  /** The client and server identifiers of the HTTP service at this index of `doc.services`. */
  api(index: number): ApiNames;
  /** The client and server identifiers of the SOAP service at this index of `doc.services`. */
  soap(index: number): SoapNames;
  /** connect.ts's identifiers of the proto service at this index of `doc.services`. */
  rpc(index: number): RpcNames;
  /** feed.ts's functions of a feed page message (undefined for a message that is no page). */
  feed(id: TypeId): FeedNames | undefined;
  /**
   * The name under which a type's module exports one of its helpers to the modules of other input files
   * (`$readEntry`; src/emitters/modules.ts). The same in the declaring module and in every module importing it.
   */
  shared(id: TypeId, role: SharedRole): string;
}

/**
 * Names a type of another input file already has (its module's): with the output laid out one module per input
 * file, this module imports those types under these names, so they are claimed first and never renamed here.
 */
export interface ImportedNames {
  /** The module that declares the type, with the names its own generation gave; undefined for this file's types. */
  homeOf(id: TypeId): Names | undefined;
}

export function assignNames(doc: IrDocument, imported?: ImportedNames): Names {
  const subtypes = collectSubtypes(doc);
  const style: WordStyle = doc.format === "openapi" ? "free-text" : "keep-underscores";
  const derived = (name: string) => derivedFunctionNames(doc.format, name);
  const used = new Set<string>();
  // Runtime exports are not reserved: the writer aliases a runtime import whose name a file uses (GeneratedFile).
  const free = (name: string) => !used.has(name) && !isModuleInternalName(name);
  /**
   * Where the search for a free `wanted` of a kind of group resumes: the suffix after the one claimed last time (1
   * standing for `wanted` itself). Every candidate before it was taken then, and names are never given back, so they
   * still are: the search finds what searching from the start would, without trying them all again. (From the start,
   * a spec with N types of one name tried N^2/2 candidates: with the partner schemas repeated, this function's share
   * of a generation profile grew from 1.8% at 3 copies to 6% at 40.)
   */
  const nextSuffix = new Map<string, number>();
  /**
   * Claim the first of `wanted`, `wanted_2`, ... whose every name (`group(candidate)`) is free. `kind` names the
   * group function (the same kind, the same function): which candidates are free depends on it.
   */
  const claimGroup = (kind: string, wanted: string, group: (candidate: string) => readonly string[]): string => {
    const key = `${kind}\0${wanted}`;
    let i = nextSuffix.get(key) ?? 1;
    let name = i === 1 ? wanted : `${wanted}_${i}`;
    while (!group(name).every(free)) name = `${wanted}_${++i}`;
    nextSuffix.set(key, i + 1);
    for (const n of group(name)) used.add(n);
    return name;
  };
  const claim = (wanted: string) => claimGroup("name", wanted, (n) => [n]);
  /** A type name with the derived functions claimed with it (see WITH_TYPE in derived.ts). */
  const claimType = (wanted: string): string => claimGroup("type", wanted, (n) => [n, ...derived(n)]);

  const typeNames = new Map<TypeId, string>();
  const derivedNames = new Map<TypeId, Map<DerivedRole, string>>();
  const setDerived = (id: TypeId, role: DerivedRole, name: string) => {
    const roles = derivedNames.get(id) ?? new Map<DerivedRole, string>();
    roles.set(role, name);
    derivedNames.set(id, roles);
  };
  const familyNames = new Map<TypeId, string>();
  const valuesNames = new Map<TypeId, string>();
  const schemaNames = new Map<TypeId, string>();
  // Declared names first so that "Foo" keeps "Foo" even if another type's derived name would also be "Foo";
  // then anonymous types (an element's inline type, an inline schema), which on a clash say what they are.
  const xml = doc.format === "wsdl" || doc.format === "xsd";
  const homes = new Map<TypeId, Names>();
  for (const t of doc.types) {
    const home = imported?.homeOf(t.id);
    if (home === undefined) continue;
    homes.set(t.id, home);
    const name = home.type(t.id);
    typeNames.set(t.id, name);
    used.add(name);
    const late = hasLateRoles(doc, t) ? derivedLate(doc.format).map((l) => l.role) : [];
    for (const r of [...derivedWithType(doc.format, name).map(([role]) => role), ...late]) {
      const n = home.derived(t.id, r);
      setDerived(t.id, r, n);
      used.add(n);
    }
    const family = home.family(t.id);
    if (family !== undefined) familyNames.set(t.id, family);
    if (family !== undefined && xml) {
      setDerived(t.id, "checkFamily", home.derived(t.id, "checkFamily"));
      used.add(home.derived(t.id, "checkFamily"));
    }
    if (t.kind === "enum") valuesNames.set(t.id, home.enumValues(t.id));
    if (doc.format !== "proto" || t.kind === "record") schemaNames.set(t.id, home.standardSchema(t.id));
    for (const n of [familyNames.get(t.id), valuesNames.get(t.id), schemaNames.get(t.id)]) if (n !== undefined) used.add(n);
  }
  for (const t of doc.types) if (!t.anonymous && !homes.has(t.id)) typeNames.set(t.id, claimType(typeIdentifier(sourceNameOf(t), style)));
  for (const t of doc.types) {
    if (!t.anonymous || homes.has(t.id)) continue;
    const base = typeIdentifier(sourceNameOf(t), style);
    typeNames.set(t.id, claimType(xml && used.has(base) ? SPELL.anonymousElement(stemOf(base)) : base));
  }
  for (const t of doc.types) {
    if (homes.has(t.id)) continue;
    const base = stemOf(typeNames.get(t.id)!);
    if (t.kind === "record" && (subtypes.get(t.id)?.length ?? 0) > 0) familyNames.set(t.id, claim(SPELL.family(base)));
    if (t.kind === "enum") valuesNames.set(t.id, claim(SPELL.enumValues(base)));
    // Claimed after every type name (not as a derived name of the type): a spec's own `WebhookSchema` type keeps its
    // name, and the Standard Schema object of `Webhook` becomes `WebhookSchema_2`.
    if (doc.format !== "proto" || t.kind === "record") schemaNames.set(t.id, claim(SPELL.standardSchema(base)));
  }

  const serviceBases: string[] = [];
  const serviceNames = doc.services.map((s) => {
    const base = stemOf(typeIdentifier(s.kind === "rpc" ? s.fullName.split(".").pop()! : s.name, style));
    serviceBases.push(base);
    return claim(SPELL.operations(base));
  });

  const extensionNames = new Map<TypeId, string>();
  for (const e of doc.extensions) {
    if (!extensionNames.has(e.extendee) && typeNames.has(e.extendee)) {
      extensionNames.set(e.extendee, claim(SPELL.extensions(stemOf(typeNames.get(e.extendee)!))));
    }
  }

  // Per-type roles claimed with the type name (`claimType` made sure they were free).
  for (const t of doc.types) {
    if (homes.has(t.id)) continue;
    for (const [role, n] of derivedWithType(doc.format, typeNames.get(t.id)!)) setDerived(t.id, role, n);
  }

  const apiNames = new Map<number, ApiNames>();
  const operationNames = new Map<HttpOperation, OperationNames>();
  doc.services.forEach((s, index) => {
    if (s.kind !== "http") return;
    const base = serviceBases[index]!;
    const client = claimGroup("client", SPELL.client(base), (n) => [n, SPELL.create(n), SPELL.resultOf(n)]);
    const handlers = claimGroup("handlers", SPELL.handlers(base), (n) => [n, SPELL.inputOf(n)]);
    const server = claimGroup("server", SPELL.server(base), (n) => [n, SPELL.create(n)]);
    // The plugins' names keep the client's number: WebhooksAPIClient_2 -> webhooksAPI_2Queries.
    const clientStem = client.replace(/Client(_\d+)?$/, "$1");
    apiNames.set(index, {
      client, createClient: SPELL.create(client), clientResult: SPELL.resultOf(client),
      handlers, handlerInput: SPELL.inputOf(handlers),
      server, createServer: SPELL.create(server),
      queries: claim(SPELL.queries(clientStem)), mockHandlers: claim(SPELL.mockHandlers(clientStem)), mswHandlers: claim(SPELL.mswHandlers(clientStem)),
    });
    const methods = new Set<string>();
    for (const op of s.operations) {
      // The same rule as SOAP and Connect clients: `then` would make the client a thenable, so it gets a `$`.
      const safe = clientMethodName(functionIdentifier(op.name));
      let method = safe;
      for (let i = 2; methods.has(method); i++) method = `${safe}_${i}`;
      methods.add(method);
      const stem = claimGroup("operation", stemOf(pascalOf(method)), (p) => [
        SPELL.parseParameters(p), SPELL.decodeForm(p), SPELL.decodeMultipart(p), SPELL.validateResponse(p),
      ]);
      operationNames.set(op, {
        method,
        parseParameters: SPELL.parseParameters(stem),
        decodeForm: SPELL.decodeForm(stem),
        decodeMultipart: SPELL.decodeMultipart(stem),
        validateResponse: SPELL.validateResponse(stem),
      });
    }
  });

  // SOAP clients and servers: the same groups as HTTP's (a name and its `create` function together), then the
  // service's other declarations one by one.
  const soapNames = new Map<number, SoapNames>();
  doc.services.forEach((s, index) => {
    if (s.kind !== "soap") return;
    const base = serviceBases[index]!;
    const client = claimGroup("client", SPELL.client(base), (n) => [n, SPELL.create(n)]);
    const handlers = claim(SPELL.handlers(base));
    const faults = claim(SPELL.faults(base));
    const fault = claim(SPELL.fault(base));
    const server = claimGroup("server", SPELL.server(base), (n) => [n, SPELL.create(n)]);
    soapNames.set(index, {
      client, createClient: SPELL.create(client),
      clientBinding: claim(SPELL.clientBinding(client)), clientMessages: claim(SPELL.clientMessages(client)),
      handlers, faults, faultNamespaces: claim(SPELL.faultNamespaces(faults)), fault,
      server, createServer: SPELL.create(server),
      descriptor: claim(SPELL.descriptor(base)), serverMessages: claim(SPELL.serverMessages(base)),
    });
  });

  // Proto services (connect.ts), then feed pages (feed.ts): after every type and service name, so neither renames one.
  const rpcNames = new Map<number, RpcNames>();
  doc.services.forEach((s, index) => {
    if (s.kind !== "rpc") return;
    const base = serviceBases[index]!;
    const client = claim(SPELL.client(base));
    const implementation = claim(SPELL.implementation(base));
    const createClient = claim(SPELL.createClient(base));
    const createHandler = claim(SPELL.createHandler(base));
    const procedures = s.methods.map((m) => claim(SPELL.procedure(base, m.name)));
    const queries = claim(SPELL.queries(client.replace(/Client(_\d+)?$/, "$1")));
    rpcNames.set(index, {
      client, implementation, createClient, createHandler, queries,
      procedure: (i) => {
        const name = procedures[i];
        if (name === undefined) throw new Error(`internal: no method ${i} in ${s.fullName}`);
        return name;
      },
    });
  });
  const feedNames = new Map<TypeId, FeedNames>();
  for (const page of findFeedPages(doc)) {
    if (homes.has(page.page.id)) continue;
    const pageStem = stemOf(typeNames.get(page.page.id)!);
    const itemStem = stemOf(typeNames.get(page.itemType)!);
    feedNames.set(page.page.id, {
      parts: claim(SPELL.pageParts(pageStem)),
      fetch: claim(SPELL.fetchPage(pageStem)),
      iterate: claim(SPELL.iterateItems(itemStem)),
      serve: claim(SPELL.servePages(pageStem)),
    });
  }

  // Element codecs: the element's local name in PascalCase without a keyword `$` (always wrapped in a prefix and a
  // suffix); elements whose names collide (one local name in two namespaces, "foo" and "Foo") or whose functions
  // another name took get "_2", "_3", ... in declaration order.
  const elementNames = new Map<ElementId, ElementNames>();
  for (const el of doc.elements ?? []) {
    const stem = claimGroup("element", stemOf(typeIdentifier(el.name.local)), (n) => [SPELL.encodeElement(n), SPELL.decodeElement(n)]);
    elementNames.set(el.id, { stem, encode: SPELL.encodeElement(stem), decode: SPELL.decodeElement(stem) });
  }

  // The other per-type roles, last, role by role: they never rename a type, an operation or a service.
  // A taken name tries its "Of" spelling (toJsonStringOfValue) before a number: see spellOf in derived.ts.
  for (const { role, wanted, alternative } of derivedLate(doc.format)) {
    for (const t of doc.types) {
      if (homes.has(t.id) || !hasLateRoles(doc, t)) continue;
      const first = wanted(typeNames.get(t.id)!);
      const second = alternative(typeNames.get(t.id)!);
      setDerived(t.id, role, free(first) || second === undefined || !free(second) ? claim(first) : claim(second));
    }
  }
  if (xml) {
    for (const t of doc.types) {
      const family = familyNames.get(t.id);
      if (!homes.has(t.id) && family !== undefined) setDerived(t.id, "checkFamily", claim(SPELL.checkFamily(family)));
    }
  }

  return {
    derived: (id, role) => {
      const name = derivedNames.get(id)?.get(role);
      if (name === undefined) throw new Error(`internal: no ${role} name for ${id}`);
      return name;
    },
    element: (id) => {
      const names = elementNames.get(id);
      if (names === undefined) throw new Error(`internal: no codec names for element ${id}`);
      return names;
    },
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
    standardSchema: (id) => {
      const name = schemaNames.get(id);
      if (name === undefined) throw new Error(`internal: no Standard Schema name for ${id}`);
      return name;
    },
    operation: (op) => {
      const names = operationNames.get(op);
      if (names === undefined) throw new Error(`internal: no names for operation ${op.name}`);
      return names;
    },
    api: (index) => {
      const names = apiNames.get(index);
      if (names === undefined) throw new Error(`internal: service ${index} is not an HTTP service`);
      return names;
    },
    soap: (index) => {
      const names = soapNames.get(index);
      if (names === undefined) throw new Error(`internal: service ${index} is not a SOAP service`);
      return names;
    },
    rpc: (index) => {
      const names = rpcNames.get(index);
      if (names === undefined) throw new Error(`internal: service ${index} is not a proto service`);
      return names;
    },
    feed: (id) => feedNames.get(id) ?? (homes.get(id)?.feed(id)),
    shared: (id, role) => {
      if (isSharedDerivedRole(role)) {
        const derived = derivedNames.get(id)?.get(role);
        if (derived === undefined) throw new Error(`internal: no ${role} name for ${id}`);
        return sharedDerivedName(derived);
      }
      const name = typeNames.get(id);
      if (name === undefined) throw new Error(`internal: no name for type ${id}`);
      return sharedHelperName(role, name);
    },
  };
}

/** The roles claimed last (derived.ts LATE): proto ones are per message (enums have no defaults, JSON or text functions). */
function hasLateRoles(doc: IrDocument, t: NamedType): boolean {
  return doc.format !== "proto" || t.kind === "record";
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
