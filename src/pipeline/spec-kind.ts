/**
 * Which parser reads a spec file. The extension decides when it names a format (.wsdl, .xsd, .proto, .yaml, .yml,
 * .json); otherwise the content does, the way a user's files actually arrive: WSDLs saved from a `?wsdl` URL or
 * published as `service.xml`, schemas named `.xml`, a `.proto` copied as `.txt`, an OpenAPI document with no
 * extension. Only the head of the file is looked at (the XML root element, the first OpenAPI/proto statement).
 */
import { closeSync, openSync, readSync } from "node:fs";
import path from "node:path";
import { SaxesParser, type SaxesTagNS } from "saxes";
import { WSDL_NS, XSD_NS } from "../parsers/xsd/builtins.js";

export type SpecKind = "wsdl" | "proto" | "openapi";

const WSDL2_NS = "http://www.w3.org/ns/wsdl";

/** The extensions that name a format; everything else (.xml, .txt, none) is decided by content. */
const BY_EXTENSION: Readonly<Record<string, SpecKind>> = {
  ".wsdl": "wsdl",
  ".xsd": "wsdl",
  ".proto": "proto",
  ".yaml": "openapi",
  ".yml": "openapi",
  ".json": "openapi",
};

/** The kind an extension names, or undefined when the content must decide. */
export function specKindByExtension(file: string): SpecKind | undefined {
  return BY_EXTENSION[path.extname(file).toLowerCase()];
}

/**
 * Extensions whose files are looked at when a folder is scanned for specs (besides those that name a format): XML
 * files may be WSDLs or schemas. Other files in a folder (README, LICENSE, data) are not opened.
 */
export function worthSniffing(file: string): boolean {
  return path.extname(file).toLowerCase() === ".xml";
}

/** How much of a file is read to sniff it: the root element may follow a long licence comment. */
const SNIFF_BYTES = 256 * 1024;

/**
 * What a file found while scanning a folder is: its extension's kind (OpenAPI only when the content says so:
 * package.json is not a spec), or for an .xml file its content's; undefined for everything else.
 */
export function specKindOnDisk(file: string): SpecKind | undefined {
  const byExtension = specKindByExtension(file);
  if (byExtension !== undefined && byExtension !== "openapi") return byExtension;
  if (byExtension === undefined && !worthSniffing(file)) return undefined;
  const head = readHead(file);
  if (byExtension === "openapi") return isOpenApi(head.slice(0, 4096)) ? "openapi" : undefined;
  return specKindOfText(head).kind;
}

function readHead(file: string): string {
  const fd = openSync(file, "r");
  try {
    const buf = Buffer.alloc(SNIFF_BYTES);
    const n = readSync(fd, buf, 0, SNIFF_BYTES, 0);
    return buf.subarray(0, n).toString("utf8");
  } finally {
    closeSync(fd);
  }
}

/** What a text's content says it is, or why it is none of the formats. */
export type Sniffed = { readonly kind: SpecKind } | { readonly kind: undefined; readonly why: string };

/** The kind of spec a file's text is, from its first element (XML) or first statements (proto, OpenAPI). */
export function specKindOfText(text: string): Sniffed {
  const head = text.replace(/^\uFEFF/, "");
  if (/^\s*</.test(head)) return xmlKind(head);
  if (isOpenApi(head.slice(0, 4096))) return { kind: "openapi" };
  if (isProto(head)) return { kind: "proto" };
  return { kind: undefined, why: "its content is not XML, an OpenAPI document (an openapi or swagger key) or a .proto file (syntax, package, import or message)" };
}

/** An OpenAPI/Swagger document says so at its top level, usually on its first lines (JSON or YAML). */
export function isOpenApi(head: string): boolean {
  return /^\s*["']?(openapi|swagger)["']?\s*:/m.test(head) || /^\s*\{\s*"(openapi|swagger)"\s*:/.test(head);
}

/** A .proto file starts (after comments) with syntax/edition, or with a package, import, option or message. */
function isProto(text: string): boolean {
  const rest = text.replace(/^(?:\s+|\/\/[^\n]*(?:\n|$)|\/\*[\s\S]*?\*\/)*/, "");
  return (
    /^(syntax|edition)\s*=\s*["']/.test(rest) ||
    /^package\s+[A-Za-z_][\w.]*\s*;/.test(rest) ||
    /^import\s+(?:public\s+|weak\s+)?["']/.test(rest) ||
    /^option\s+[\w.()]+\s*=/.test(rest) ||
    /^(message|enum|service)\s+[A-Za-z_]\w*\s*\{/.test(rest)
  );
}

/** Stops saxes at the root element. */
class RootFound {
  constructor(readonly tag: SaxesTagNS) {}
}

/** The root element's expanded name, read with the same XML parser as the specs (namespaces resolved). */
function xmlKind(text: string): Sniffed {
  const parser = new SaxesParser({ xmlns: true });
  parser.on("opentag", (tag) => {
    throw new RootFound(tag);
  });
  // A DOCTYPE is refused by the XML reader with its position; here it is only skipped over.
  parser.on("error", (err) => {
    throw err;
  });
  let root: SaxesTagNS | undefined;
  try {
    parser.write(text).close();
  } catch (e) {
    if (e instanceof RootFound) root = e.tag;
    else return { kind: undefined, why: `it is not well-formed XML before its root element (${(e as Error).message})` };
  }
  if (!root) return { kind: undefined, why: "it is XML without a root element" };
  const ns = root.uri ?? "";
  const local = root.local ?? root.name;
  if (local === "definitions" && ns === WSDL_NS) return { kind: "wsdl" };
  // WSDL 2.0 goes to the WSDL parser too, which says (located) that only WSDL 1.1 is supported.
  if (local === "description" && ns === WSDL2_NS) return { kind: "wsdl" };
  if (local === "schema" && ns === XSD_NS) return { kind: "wsdl" };
  return {
    kind: undefined,
    why: `its root element is <${root.name}> (${ns === "" ? "no namespace" : ns}), not a WSDL 1.1 wsdl:definitions (${WSDL_NS}) or an XML Schema xs:schema (${XSD_NS})`,
  };
}
