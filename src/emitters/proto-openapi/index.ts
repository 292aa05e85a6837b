import { GeneratedFile } from "../../codegen/generated-file.js";
import type { Artifact } from "../artifact.js";
import { protoOpenApiDocument } from "./openapi.js";

/** A generated file that is not TypeScript: its text as given (no header, no imports; index.ts leaves it out). */
class TextFile extends GeneratedFile {
  constructor(path: string, source: string, private readonly text: string) {
    super(path, source);
  }
  override render(): string {
    return this.text;
  }
}

/**
 * openapi.json for proto documents with google.api.http routes (`--artifacts openapi`): an OpenAPI 3.1 document of
 * the transcoded routes with ProtoJSON schemas (see openapi.ts).
 */
export const protoOpenApiArtifact: Artifact = {
  name: "proto-openapi",
  applies: (doc) => doc.format === "proto" && doc.services.some((s) => s.kind === "rpc" && s.methods.some((m) => (m.httpRules?.length ?? 0) > 0)),
  emit: (ctx) => {
    // Bindings are warned about by connect.ts when it is emitted too; this file reports only what it leaves out.
    const document = protoOpenApiDocument(ctx.doc, (m, detail) => {
      if (detail.includes("OpenAPI")) ctx.warn?.(m.origin, detail);
    });
    return document === undefined ? [] : [new TextFile(`${ctx.dir}/openapi.json`, ctx.source, `${JSON.stringify(document, null, 2)}\n`)];
  },
};
