import { describe, expect, it } from "vitest";
import { typecheckFiles } from "../../helpers/typecheck.js";
import { generateAwkward } from "./awkward-api.js";

describe("rest client emitter", () => {
  const out = generateAwkward();
  const client = out.files.find((f) => f.path === "odd/client.ts")!.content;

  it("declares one typed method per operation, typed by status", () => {
    expect(client).toContain("export interface OddAPIClient {");
    expect(client).toContain("export function createOddAPIClient(options: RestClientOptions): OddAPIClient {");
    expect(client).toContain("): Promise<RestResponse<200, Thing> | RestResponse<number, Problem>>;");
    expect(client).toContain('path: { "thing-id": string; n: number };');
    expect(client).toContain('header?: { "X-Trace"?: string };');
  });

  it("escapes path text and builds the path from encoded parameters", () => {
    expect(client).toContain('"/things/" + restPathParam(request.path["thing-id"]) + "/say\\"hi\\"/" + restPathParam(request.path.n)');
  });

  it("serializes query parameters by style and sends a form body when form is the only type", () => {
    expect(client).toContain('restAppendQuery(query, "tags", request.query?.tags, "form", true);');
    expect(client).toContain('restAppendQuery(query, "f", request.query?.f, "deepObject", true);');
    expect(client).toContain("const form = restFormPieces(request.body);");
    expect(client).toContain('{ "X-Trace": request.header?.["X-Trace"] === undefined ? undefined : String(request.header?.["X-Trace"]) }');
  });

  it("accepts 4XX as a range and returns every status of a default response", () => {
    expect(client).toContain("if (response.status === 200 || (response.status >= 400 && response.status <= 499)) {");
    expect(client).toMatch(/async createThing\(request, call\) \{[\s\S]*?return response as ResultOfOddAPIClient<"createThing">;\n {4}\},/);
  });

  it("type-checks under strict with the rest of the generated files", () => {
    const files = new Map(out.files.map((f) => [f.path, f.content]));
    expect(typecheckFiles(files)).toEqual([]);
  });
});
