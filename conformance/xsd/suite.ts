/**
 * The W3C XML Schema test suite (../shared/corpus/xsdtests) as a list of XSD 1.0 test groups: a schema document
 * whose expected validity is "valid" under XSD 1.0, and its instance documents with their expected validity.
 *
 * Which groups are XSD 1.0 (the rule xsdata's runner uses, tefra/xsdata-w3c-tests generate.py, plus the version a
 * testSet declares for all of its groups, which xsts.xsd says its groups inherit):
 * - a group's `version` attribute, else its testSet's, lists the versions it applies to; a group whose list names
 *   1.1 and not 1.0 is XSD 1.1-only and skipped (tokens that are not language versions, such as `Unicode_6.0.0` or
 *   `full-xpath-in-CTA`, are ignored);
 * - an `expected` element may be limited to some versions; the one that applies is the first whose `version` names
 *   1.0, else the first without a `version`; a schema or instance with only 1.1 expectations is skipped;
 * - groups whose schema is not valid XSD 1.0 are out of scope (specforge generates code, it is no schema
 *   validator); groups without a schema document likewise;
 * - as in xsdata: `particlesZ012` is 1.1 (its metadata says otherwise), and `wildZ003` and `ctZ007` use their second
 *   schema document (the first is imported by it). Other groups use their first schema document.
 *
 * The NIST datatype tests' metadata (nistMeta/NISTXMLSchemaDatatypes.testSet) is not in the corpus; their groups
 * are read from nistData's file names instead: `NISTSchema-SV-IV-<key>.xsd` is the (valid) schema of group
 * `IV-<key>`, whose instances `NISTXML-SV-IV-<key>-<n>.xml` are valid; `NISTSchema-SV-II-<key>.xsd` that of group
 * `II-<key>`, whose instances `NISTXML-SV-II-<key>-<n>.xml` are invalid.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { parseXml, type XmlElementNode } from "../../src/runtime/xml/index.js";

/** The suite: ../shared/corpus/xsdtests beside the repo, or $XSDTESTS. */
export const XSDTESTS = process.env["XSDTESTS"] ?? path.resolve(import.meta.dirname, "../../../shared/corpus/xsdtests");

const TS_NS = "http://www.w3.org/XML/2004/xml-schema-test-suite/";
const XLINK_NS = "http://www.w3.org/1999/xlink";

export interface InstanceCase {
  /** `<set>/<group>/<instance test name>`: unique in the suite. */
  readonly id: string;
  /** Path relative to XSDTESTS. */
  readonly file: string;
  readonly valid: boolean;
}

export interface TestGroup {
  /** `<set>/<group>`. */
  readonly id: string;
  readonly set: string;
  /**
   * The XSD version the group runs under: "1.0" for a group that applies to XSD 1.0 and whose schema is valid under
   * it (judged by libxml2), "1.1" for an XSD 1.1-only group or one whose schema is valid only under 1.1 (judged by
   * python's xmlschema, XSD 1.1 validator: conformance/xsd/judge.ts).
   */
  readonly version: "1.0" | "1.1";
  /** The schema document generated from, relative to XSDTESTS. */
  readonly schema: string;
  readonly instances: readonly InstanceCase[];
}

export interface SuiteSelection {
  readonly groups: TestGroup[];
  /** Groups left out, by reason (counted for the docs). */
  readonly skipped: Record<string, number>;
}

const versionTokens = (v: string | undefined): string[] | undefined => {
  if (v === undefined) return undefined;
  const langs = v.split(/\s+/).filter((t) => t === "1.0" || t === "1.1");
  return langs.length > 0 ? langs : undefined;
};

function attr(node: XmlElementNode, local: string, ns = ""): string | undefined {
  return node.attrs.find((a) => a.local === local && a.ns === ns)?.value;
}

function children(node: XmlElementNode, local: string): XmlElementNode[] {
  return node.children.filter((c) => c.ns === TS_NS && c.local === local);
}

/** The expected validity under XSD `version`, or undefined when only other versions say. */
function expectedFor(node: XmlElementNode, version: "1.0" | "1.1"): boolean | undefined {
  const all = children(node, "expected");
  const pick = all.find((e) => versionTokens(attr(e, "version"))?.includes(version)) ?? all.find((e) => versionTokens(attr(e, "version")) === undefined);
  if (pick === undefined) return undefined;
  const validity = attr(pick, "validity");
  return validity === "valid" ? true : validity === "invalid" ? false : undefined;
}

function readXml(file: string): XmlElementNode {
  return parseXml(readFileSync(file, "utf8"));
}

export interface SuiteOptions {
  /**
   * Also the groups XSD 1.0 leaves out and XSD 1.1 has: XSD 1.1-only groups, and groups whose schema is valid under
   * 1.1 only, with their instances' expected validity under 1.1 (version "1.1"). Default true.
   */
  readonly xsd11?: boolean;
}

export function readSuite(root = XSDTESTS, { xsd11 = true }: SuiteOptions = {}): SuiteSelection {
  const groups: TestGroup[] = [];
  const skipped: Record<string, number> = {};
  const skip = (why: string) => (skipped[why] = (skipped[why] ?? 0) + 1);
  const suite = readXml(path.join(root, "suite.xml"));
  for (const ref of children(suite, "testSetRef")) {
    const href = attr(ref, "href", XLINK_NS)!;
    const file = path.join(root, href);
    let set: XmlElementNode;
    try {
      set = readXml(file);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "ENOENT") throw e;
      if (href.startsWith("nistMeta/")) groups.push(...nistGroups(root));
      else skip("test set file missing");
      continue;
    }
    const setName = attr(set, "name") ?? path.basename(href);
    const setVersion = versionTokens(attr(set, "version"));
    const dir = path.dirname(file);
    const rel = (h: string) => path.relative(root, path.resolve(dir, h)).split(path.sep).join("/");
    for (const g of children(set, "testGroup")) {
      const name = attr(g, "name")!;
      const versions = versionTokens(attr(g, "version")) ?? setVersion;
      const applies10 = (versions === undefined || versions.includes("1.0")) && name !== "particlesZ012";
      const applies11 = versions === undefined || versions.includes("1.1") || name === "particlesZ012";
      // Without XSD 1.1, groups that are not for 1.0 are left out before anything else (the counts as they were).
      if (!applies10 && !xsd11) {
        skip("XSD 1.1 only");
        continue;
      }
      const schemaTest = children(g, "schemaTest")[0];
      const docs = schemaTest ? children(schemaTest, "schemaDocument") : [];
      if (schemaTest === undefined || docs.length === 0) {
        skip("no schema document");
        continue;
      }
      const schemaValid10 = applies10 ? expectedFor(schemaTest, "1.0") : undefined;
      let version: "1.0" | "1.1";
      if (schemaValid10 === true) version = "1.0";
      else if (xsd11 && applies11 && expectedFor(schemaTest, "1.1") === true) version = "1.1";
      else {
        skip(!applies10 ? "schema invalid under XSD 1.1" : schemaValid10 === undefined ? "XSD 1.1 only" : xsd11 ? "schema invalid under XSD 1.0 and 1.1" : "schema invalid under XSD 1.0");
        continue;
      }
      const doc = docs[name === "wildZ003" || name === "ctZ007" ? 1 : 0]!;
      const id = `${setName}/${name}`;
      const instances: InstanceCase[] = [];
      for (const it of children(g, "instanceTest")) {
        const valid = expectedFor(it, version);
        const idoc = children(it, "instanceDocument")[0];
        if (valid === undefined || idoc === undefined) continue;
        instances.push({ id: `${id}/${attr(it, "name")}`, file: rel(attr(idoc, "href", XLINK_NS)!), valid });
      }
      groups.push({ id, set: setName, version, schema: rel(attr(doc, "href", XLINK_NS)!), instances });
    }
  }
  return { groups, skipped };
}

/** The NIST datatype groups, from nistData's file names (their testSet is not in the corpus). */
function nistGroups(root: string): TestGroup[] {
  const out: TestGroup[] = [];
  const walk = (dir: string): void => {
    const names = readdirSync(dir).sort();
    const schemas = new Map<string, string>();
    const instances = new Map<string, InstanceCase[]>();
    for (const n of names) {
      const p = path.join(dir, n);
      if (statSync(p).isDirectory()) {
        walk(p);
        continue;
      }
      const rel = path.relative(root, p).split(path.sep).join("/");
      // The kind (IV: valid instances, II: invalid ones) is part of the key: both kinds of schema exist for a key.
      const s = /^NISTSchema-SV-(I[IV]-.+)\.xsd$/.exec(n);
      if (s) schemas.set(s[1]!, rel);
      const i = /^NISTXML-SV-((IV|II)-.+)-(\d+)\.xml$/.exec(n);
      if (i) {
        const list = instances.get(i[1]!) ?? [];
        list.push({ id: `NISTXMLSchemaDatatypes/${i[1]}/${i[3]}`, file: rel, valid: i[2] === "IV" });
        instances.set(i[1]!, list);
      }
    }
    for (const [key, schema] of schemas) {
      const list = (instances.get(key) ?? []).sort((a, b) => a.id.localeCompare(b.id, "en", { numeric: true }));
      out.push({ id: `NISTXMLSchemaDatatypes/${key}`, set: "NISTXMLSchemaDatatypes", version: "1.0", schema, instances: list });
    }
  };
  walk(path.join(root, "nistData"));
  return out;
}

/**
 * The valid-instance cases xsdata counts (tefra/xsdata-w3c-tests generate.py; its README's "14,580 passed, 5 failed,
 * 89 skipped" are these cases): every test group of every test set suite.xml lists, whatever XSD version it is for
 * (1.1-only groups included: xsdata validates them with xmlschema's XSD 1.1 validator), whose schema test and
 * instance test each have an `expected` of validity "valid" for some version (any one of them, not the 1.0 one),
 * the schema being the group's first schema document (`wildZ003` and `ctZ007`: the second). The introspection set
 * (common/xsts.xsd, whose imports of the XLink and xml.xsd schemas are remote: xsdata and its validator fetch them)
 * is in. The NIST datatype set is read from nistData's file names as readSuite does (valid instances of `IV-` groups).
 * Ids as readSuite's instance cases, so a run's results can be looked up by them.
 */
export function xsdataValidCases(root = XSDTESTS): string[] {
  const anyValid = (node: XmlElementNode): boolean => children(node, "expected").some((e) => attr(e, "validity") === "valid");
  const out: string[] = [];
  const suite = readXml(path.join(root, "suite.xml"));
  for (const ref of children(suite, "testSetRef")) {
    const href = attr(ref, "href", XLINK_NS)!;
    let set: XmlElementNode;
    try {
      set = readXml(path.join(root, href));
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "ENOENT") throw e;
      if (href.startsWith("nistMeta/")) for (const g of nistGroups(root)) out.push(...g.instances.filter((i) => i.valid).map((i) => i.id));
      continue;
    }
    const setName = attr(set, "name") ?? path.basename(href);
    for (const g of children(set, "testGroup")) {
      const schemaTest = children(g, "schemaTest")[0];
      if (schemaTest === undefined || children(schemaTest, "schemaDocument").length === 0 || !anyValid(schemaTest)) continue;
      for (const it of children(g, "instanceTest")) {
        if (children(it, "instanceDocument").length > 0 && anyValid(it)) out.push(`${setName}/${attr(g, "name")}/${attr(it, "name")}`);
      }
    }
  }
  return out;
}

