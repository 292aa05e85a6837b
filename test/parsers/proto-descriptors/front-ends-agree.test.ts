/**
 * The two .proto front ends agree (issue 18, item 3): for every .proto of the shared corpus, the files generated
 * from the IR the text parser builds and from the IR lowered from a compiler's descriptors (buf's, and protoc's)
 * are byte-identical, every artifact included. Doc comments come from SourceCodeInfo, declaration order from its
 * spans. Editions files (proto-editions/) are compared with buf's descriptors only: Debian's protoc 3.21 predates
 * editions.
 */
import path from "node:path";
import { existsSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import type { FileDescriptorProto } from "@bufbuild/protobuf/wkt";
import { beforeAll, describe, expect, it } from "vitest";
import { nodeSpecHost } from "../../../src/parsers/host.js";
import { lowerDescriptors } from "../../../src/parsers/proto-descriptors/index.js";
import { generateFromDocument, generateSpec, type SpecOutput } from "../../../src/pipeline/generate-files.js";
import { SHARED } from "../../helpers/seeds.js";
import { bufDescriptors, protocDescriptors, protoFiles } from "./descriptor-sets.js";

const CORPUS = path.join(SHARED, "corpus/proto");
const EDITIONS = path.join(SHARED, "corpus/proto-editions");
const present = existsSync(CORPUS);

/** buf refuses this upstream test file (message-set extensions inside option values); protoc compiles it. */
const BUF_REFUSES = ["google/protobuf/unittest_custom_options.proto"];

/** Paths whose contents differ between two outputs, plus files only one of them has. */
function differences(a: SpecOutput, b: SpecOutput): string[] {
  const out: string[] = [];
  const other = new Map(b.files.map((f) => [f.path, f.content]));
  for (const f of a.files) {
    const c = other.get(f.path);
    if (c === undefined) out.push(`${f.path}: missing`);
    else if (c !== f.content) {
      const la = f.content.split("\n");
      const lb = c.split("\n");
      const i = la.findIndex((l, k) => l !== lb[k]);
      out.push(`${f.path}:${i + 1}: ${JSON.stringify(la[i])} vs ${JSON.stringify(lb[i])}`);
    }
    other.delete(f.path);
  }
  for (const p of other.keys()) out.push(`${p}: extra`);
  return out;
}

describe.skipIf(!present)("descriptors and .proto text generate the same files", () => {
  const files = present ? protoFiles(CORPUS) : [];
  let buf: FileDescriptorProto[];
  let protoc: FileDescriptorProto[];
  beforeAll(() => {
    buf = bufDescriptors(CORPUS, BUF_REFUSES);
    protoc = protocDescriptors(CORPUS, files);
  });

  it("covers the whole corpus", () => {
    expect(files.length).toBeGreaterThan(25);
    for (const rel of files) expect(protoc.some((f) => f.name === rel), rel).toBe(true);
  });

  it.each(files)("%s", (rel) => {
    const spec = { file: path.join(CORPUS, rel), display: rel };
    const fromText = generateSpec(spec, nodeSpecHost({ includeDirs: [CORPUS] }));
    expect(fromText.files.length).toBeGreaterThan(1);
    expect(differences(fromText, generateFromDocument(lowerDescriptors(protoc, rel), spec)), "protoc").toEqual([]);
    if (!BUF_REFUSES.includes(rel)) expect(differences(fromText, generateFromDocument(lowerDescriptors(buf, rel), spec)), "buf").toEqual([]);
  });
});

describe.skipIf(!present || !existsSync(EDITIONS))("editions descriptors and .proto text generate the same files", () => {
  const files = existsSync(EDITIONS) ? protoFiles(EDITIONS) : [];
  let buf: FileDescriptorProto[];
  let root: string;
  beforeAll(() => {
    buf = bufDescriptors(EDITIONS);
    root = oneProtoPath();
    return () => rmSync(root, { recursive: true, force: true });
  });

  /**
   * buf serves google/protobuf/*.proto from its own bundle, so in its descriptors they sit beside the editions
   * files. The text parser names an import by its path from the entry's folder; with the well-known types under
   * another -I folder that path would differ. One proto path (symlinks to both corpora) makes the names agree.
   */
  function oneProtoPath(): string {
    const dir = mkdtempSync(path.join(tmpdir(), "specforge-editions-"));
    for (const name of readdirSync(EDITIONS)) symlinkSync(path.join(EDITIONS, name), path.join(dir, name));
    symlinkSync(path.join(CORPUS, "google"), path.join(dir, "google"));
    return dir;
  }

  it("covers the editions corpus, three edition 2023 files among it", () => {
    expect(files.length).toBe(6);
    expect(buf.filter((f) => f.syntax === "editions").map((f) => f.name).sort()).toEqual([
      "conformance/test_protos/test_messages_edition2023.proto",
      "editions/golden/test_messages_proto2_editions.proto",
      "editions/golden/test_messages_proto3_editions.proto",
    ]);
  });

  it.each(files)("%s", (rel) => {
    const spec = { file: path.join(root, rel), display: rel };
    const fromText = generateSpec(spec, nodeSpecHost({ includeDirs: [root] }));
    expect(fromText.files.length).toBeGreaterThan(1);
    expect(differences(fromText, generateFromDocument(lowerDescriptors(buf, rel), spec)), "buf").toEqual([]);
  });
});
