import { createMembersAPIServer } from "../../generated/members/index.js";
import { DEFAULT_CORS_ALLOW_HEADERS, type CorsOptions, type ValidationIssue } from "../../src/runtime/index.js";
import { access, isFailure } from "./access.js";
import { loadMembersFixture, type MembersFixture } from "./fixture.js";
import { membersHandlers, writeAccess } from "./handlers.js";
import { createMembersStore, type MembersStore, type SourceKind } from "./store.js";

/** CORS beyond the runtime's defaults: a page authenticates with the PRIVATE-TOKEN header. */
export const MEMBERS_CORS: CorsOptions = { allowHeaders: [...DEFAULT_CORS_ALLOW_HEADERS, "private-token"] };

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });

/** Error bodies of the member endpoints: `{"message": "..."}`. */
const errorBody = (status: number, message: string) => ({ message: `${status} ${message}` });

const kindOf = (operation: string): SourceKind => (operation.includes("Project") ? "project" : "group");
const isWrite = (operation: string) => /^(add|update)/.test(operation);

/**
 * The members API emulator: the generated server for specs/members.openapi.yaml with the emulator's handlers.
 * The seed checks permission before missing parameters, so a body that fails validation is answered here in that
 * order: authentication (401), source (404), permission (403), then 400 for a missing parameter and 422 for an
 * access level that is not a level.
 */
export function createMembersEmulator(
  fixture: MembersFixture = loadMembersFixture(),
  options: { readonly development?: boolean } = {},
): (request: Request) => Promise<Response> {
  const store = createMembersStore(fixture);
  return createMembersAPIServer(membersHandlers(store), {
    development: options.development ?? false,
    errorBody,
    onValidationError(issues, ctx) {
      const sourceId = Number(ctx.pathParams[0]);
      const kind = kindOf(ctx.operation);
      if (ctx.stage === "parameters") {
        const a = access(store, kind, Number.isSafeInteger(sourceId) ? sourceId : -1, ctx.request);
        if (isFailure(a) && a.status === 401) return json(401, a.body);
        return json(404, { message: "404 Not found" });
      }
      return bodyFailure(store, kind, sourceId, ctx.operation, issues, ctx.request);
    },
  });
}

function bodyFailure(store: MembersStore, kind: SourceKind, sourceId: number, operation: string, issues: readonly ValidationIssue[], request: Request): Response {
  const a = isWrite(operation) ? writeAccess(store, kind, sourceId, request) : access(store, kind, sourceId, request);
  if (isFailure(a)) return json(a.status, a.body);
  const missing = issues.find((i) => i.rule === "required" || (i.path === "" && i.rule === "type"));
  if (missing) {
    const name = missing.path === "" ? /"?([a-z_]+)"?/.exec(missing.message)?.[1] ?? "body" : missing.path.slice(1);
    return json(400, { message: `400 Bad request - ${name} is missing` });
  }
  const level = issues.find((i) => i.path === "/access_level");
  if (level) return json(422, { message: "422 Access level is not valid" });
  return json(400, { message: `400 Bad request - ${issues.map((i) => `${i.path.slice(1)} ${i.message}`).join("; ")}` });
}
