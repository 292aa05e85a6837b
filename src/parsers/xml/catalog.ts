/**
 * OASIS XML Catalogs (https://www.oasis-open.org/committees/download.php/14809/xml-catalogs.html), read the way
 * libxml2 (xmllint --catalogs, XML_CATALOG_FILES) reads them, so that one catalog serves both: `uri`, `rewriteURI`,
 * `system`, `rewriteSystem`, `delegateURI`, `delegateSystem`, `group` and `nextCatalog`, with `xml:base` on any of
 * them. A catalog maps the absolute location of a schema or WSDL import to a local file; specforge never fetches.
 *
 * Lookup of one location (libxml2's xmlResolveResourceFromCatalog): as a system identifier first, then as a URI.
 * Within one catalog file (spec section 7.2.2 / 7.3.2): an exact `system`/`uri` entry wins; else the rewrite entry
 * with the longest matching prefix; else, if delegate entries match, only their catalogs are consulted (longest
 * prefix first); else the `nextCatalog`s in order. `public` entries and the 1.1 suffix entries have no use here
 * (imports carry no public identifier; libxml2 has no suffix entries) and are ignored, like any other element.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { UsageError } from "../../errors.js";
import type { SpecHost } from "../host.js";
import { type XmlElement, XML_NS, attr, attrNs, specError } from "./dom.js";
import { readXml } from "./read.js";

export const CATALOG_NS = "urn:oasis:names:tc:entity:xmlns:xml:catalog";

type Kind = "system" | "uri";

interface Exact {
  readonly key: string;
  readonly target: string;
}
interface Rewrite {
  readonly prefix: string;
  readonly target: string;
}
interface Delegate {
  readonly prefix: string;
  readonly catalog: string;
}

/** One catalog file's entries, in document order (groups flattened, xml:base applied). */
interface CatalogFile {
  readonly exact: Record<Kind, Exact[]>;
  readonly rewrite: Record<Kind, Rewrite[]>;
  readonly delegate: Record<Kind, Delegate[]>;
  readonly next: string[];
}

/** How deep nextCatalog/delegate chains go: a catalog that names itself (directly or not) is read once anyway. */
const MAX_DEPTH = 32;

export class XmlCatalog {
  private readonly files = new Map<string, CatalogFile>();

  /** @param entry absolute path of the catalog file given by --catalog / the `catalog` config key */
  constructor(
    private readonly host: SpecHost,
    readonly entry: string,
  ) {}

  /**
   * Where a location (an absolute URI: http:, urn:, file:) resolves to: a local absolute path, a non-file URI the
   * catalog maps it to (the caller refuses that: nothing is fetched), or undefined when the catalog does not map it.
   * Throws SpecError for a malformed catalog file, ENOENT-like errors when the entry catalog cannot be read.
   */
  resolve(location: string): string | undefined {
    const key = normalize(location);
    const hit = this.lookup("system", key, this.entry, 0, new Set()) ?? this.lookup("uri", key, this.entry, 0, new Set());
    if (hit === undefined) return undefined;
    return hit.startsWith("file:") ? fileURLToPath(hit) : hit;
  }

  /**
   * The folders this catalog (and the catalogs it chains to) maps locations into, and the catalogs' own folders:
   * a run reads spec files only inside its roots, and a catalog the user wrote is a statement of where they are.
   * A catalog that cannot be read or parsed contributes what was read before it (its error is reported, located,
   * when a spec first uses it).
   */
  folders(): string[] {
    const out = new Set<string>();
    const seen = new Set<string>();
    const visit = (file: string, depth: number): void => {
      if (depth > MAX_DEPTH || seen.has(file)) return;
      seen.add(file);
      let cat: CatalogFile | undefined;
      try {
        cat = this.read(file, depth > 0);
      } catch {
        return;
      }
      if (cat === undefined) return;
      out.add(path.dirname(file));
      const local = (uri: string): string | undefined => (uri.startsWith("file:") ? fileURLToPath(uri) : undefined);
      for (const kind of ["system", "uri"] as const) {
        for (const e of cat.exact[kind]) {
          const p = local(e.target);
          if (p !== undefined) out.add(path.dirname(p));
        }
        for (const r of cat.rewrite[kind]) {
          const p = local(r.target);
          if (p !== undefined) out.add(r.target.endsWith("/") ? p : path.dirname(p));
        }
        for (const d of cat.delegate[kind]) visit(d.catalog, depth + 1);
      }
      for (const next of cat.next) visit(next, depth + 1);
    };
    visit(this.entry, 0);
    return [...out];
  }

  private lookup(kind: Kind, key: string, file: string, depth: number, seen: Set<string>): string | undefined {
    if (depth > MAX_DEPTH || seen.has(file)) return undefined;
    seen.add(file);
    const cat = this.read(file, depth > 0);
    if (cat === undefined) return undefined;
    for (const e of cat.exact[kind]) if (e.key === key) return e.target;
    let best: Rewrite | undefined;
    for (const r of cat.rewrite[kind]) if (key.startsWith(r.prefix) && (!best || r.prefix.length > best.prefix.length)) best = r;
    if (best) return best.target + key.slice(best.prefix.length);
    const delegates = cat.delegate[kind].filter((d) => key.startsWith(d.prefix)).sort((a, b) => b.prefix.length - a.prefix.length);
    if (delegates.length > 0) {
      for (const d of delegates) {
        const hit = this.lookup(kind, key, d.catalog, depth + 1, new Set());
        if (hit !== undefined) return hit;
      }
      return undefined;
    }
    for (const next of cat.next) {
      const hit = this.lookup(kind, key, next, depth + 1, seen);
      if (hit !== undefined) return hit;
    }
    return undefined;
  }

  /** A catalog file, parsed once. A missing nextCatalog/delegate catalog is skipped, as libxml2 does; the entry catalog must exist. */
  private read(file: string, optional: boolean): CatalogFile | undefined {
    const known = this.files.get(file);
    if (known) return known;
    let text: string;
    try {
      text = this.host.readFile(file);
    } catch (e) {
      if (optional) return undefined;
      throw new UsageError(`cannot read XML catalog ${this.host.displayPath(file)}: ${(e as Error).message}`);
    }
    const root = readXml(text, file, this.host.displayPath(file), { allowDoctype: true });
    if (root.name.ns !== CATALOG_NS || root.name.local !== "catalog") {
      throw specError(root, `expected an OASIS XML catalog (<catalog xmlns="${CATALOG_NS}">), found <${root.name.local}> (${root.name.ns || "no namespace"})`);
    }
    const cat: CatalogFile = { exact: { system: [], uri: [] }, rewrite: { system: [], uri: [] }, delegate: { system: [], uri: [] }, next: [] };
    this.entries(root, baseOf(root, pathToFileURL(file).href), cat);
    this.files.set(file, cat);
    return cat;
  }

  private entries(holder: XmlElement, base: string, cat: CatalogFile): void {
    for (const el of holder.children) {
      if (el.name.ns !== CATALOG_NS) continue; // other vocabularies may extend a catalog: ignored, as the spec says
      const at = baseOf(el, base);
      const need = (name: string): string => {
        const v = attr(el, name);
        if (v === undefined || v.trim() === "") throw specError(el, `catalog <${el.name.local}> without ${name}=`);
        return v.trim();
      };
      const target = (name: string): string => absolute(need(name), at, el);
      switch (el.name.local) {
        case "group":
          this.entries(el, at, cat);
          break;
        case "system":
          cat.exact.system.push({ key: normalize(need("systemId")), target: target("uri") });
          break;
        case "uri":
          cat.exact.uri.push({ key: normalize(need("name")), target: target("uri") });
          break;
        case "rewriteSystem":
          cat.rewrite.system.push({ prefix: normalize(need("systemIdStartString")), target: target("rewritePrefix") });
          break;
        case "rewriteURI":
          cat.rewrite.uri.push({ prefix: normalize(need("uriStartString")), target: target("rewritePrefix") });
          break;
        case "delegateSystem":
          cat.delegate.system.push({ prefix: normalize(need("systemIdStartString")), catalog: localCatalog(target("catalog"), el) });
          break;
        case "delegateURI":
          cat.delegate.uri.push({ prefix: normalize(need("uriStartString")), catalog: localCatalog(target("catalog"), el) });
          break;
        case "nextCatalog":
          cat.next.push(localCatalog(target("catalog"), el));
          break;
        default:
          break; // public, delegatePublic, systemSuffix, uriSuffix: nothing an import looks up (see above)
      }
    }
  }
}

/** The base URI in effect at an element: its xml:base resolved against the enclosing one. */
function baseOf(el: XmlElement, enclosing: string): string {
  const b = attrNs(el, XML_NS, "base");
  return b === undefined ? enclosing : new URL(b.trim(), enclosing).href;
}

function absolute(ref: string, base: string, el: XmlElement): string {
  try {
    return new URL(ref, base).href;
  } catch {
    throw specError(el, `'${ref}' is not a URI reference`);
  }
}

/** nextCatalog / delegate catalogs are read from disk only. */
function localCatalog(uri: string, el: XmlElement): string {
  if (!uri.startsWith("file:")) throw specError(el, `catalog '${uri}' is not a local file (specforge never fetches)`);
  return fileURLToPath(uri);
}

/**
 * System identifiers and URIs as the spec normalizes them before comparing (section 6.3): characters outside the
 * printable ASCII range and a few reserved ones %-escaped; existing escapes kept. Windows drive letters are not a
 * concern here: locations are URIs.
 */
export function normalize(uri: string): string {
  let out = "";
  for (const ch of uri.trim()) {
    const c = ch.codePointAt(0)!;
    if (c <= 0x20 || c > 0x7e || ch === '"' || ch === "<" || ch === ">" || ch === "\\" || ch === "^" || ch === "`" || ch === "{" || ch === "|" || ch === "}") {
      for (const b of Buffer.from(ch, "utf8")) out += `%${b.toString(16).toUpperCase().padStart(2, "0")}`;
    } else out += ch;
  }
  return out;
}

/** The folders a run may read spec files from because its catalog maps locations into them (see XmlCatalog.folders). */
export function catalogRoots(catalogFile: string): string[] {
  return new XmlCatalog({ readFile: (p) => readFileSync(p, "utf8"), displayPath: (p) => p }, catalogFile).folders();
}

/** The keys a local path is looked up by: its file: URL (libxml2 sees paths as given; both are tried). */
export function fileKeys(absolutePath: string): string[] {
  return [pathToFileURL(absolutePath).href, absolutePath.split(path.sep).join("/")];
}
