/**
 * Requests and checks shared by the tests of `specforge mock` (test/mock/rest-mock.test.ts) and of the MSW plugin
 * (test/pipeline/msw-plugin.test.ts): valid client requests drawn from the value generator, credentials for every
 * security scheme, the status a mock answers by default, and the generated validator of a response.
 */
import { expect } from "vitest";
import type { LoadedSpec } from "../../src/mock/load.js";
import { mockedOperations, mockResponseContent, mockResponseFor, mockStatusHasNoBody } from "../../src/mock/rest.js";
import { ValueGenerator } from "../../src/mock/values.js";
import type { HttpOperation, HttpService } from "../../src/ir/model.js";

export type Fn = (...args: unknown[]) => unknown;

/** Client auth giving every credential the service's security schemes name (the mock checks presence). */
export function credentials(service: HttpService): (request: Request) => Request {
  return (request) => {
    const url = new URL(request.url);
    const headers = new Headers(request.headers);
    for (const s of service.securitySchemes) {
      if (s.type === "apiKey" && s.paramName !== undefined) {
        if (s.in === "query") url.searchParams.set(s.paramName, "key");
        else if (s.in === "cookie") headers.append("cookie", `${s.paramName}=key`);
        else headers.set(s.paramName, "key");
      }
    }
    const bearer = service.securitySchemes.some((s) => s.type === "oauth2" || s.type === "openIdConnect" || (s.type === "http" && s.scheme?.toLowerCase() === "bearer"));
    headers.set("authorization", bearer ? "Bearer token" : "Basic dTpw");
    return new Request(url, { method: request.method, headers, body: request.body, duplex: "half" } as RequestInit);
  };
}

/** The status the mock answers by default: the lowest 2xx, else 2XX/default as 200, else the lowest declared. */
export function defaultStatus(op: HttpOperation): number {
  const numeric = op.responses.map((r) => r.status).filter((s) => /^\d+$/.test(s)).map(Number).sort((a, b) => a - b);
  return numeric.find((s) => s >= 200 && s < 300) ?? (op.responses.some((r) => r.status === "2XX" || r.status === "default") ? 200 : numeric[0]!);
}

/** A valid client request for `op`: required parameters and the body drawn from the value generator. */
export function requestFor(spec: LoadedSpec, gen: ValueGenerator, op: HttpOperation, seed: number): Record<string, unknown> {
  const input: Record<string, Record<string, unknown> | unknown> = {};
  for (const p of op.parameters) {
    if (!p.required) continue;
    const value = gen.valueOf(p.type, `${seed}:${p.name}`, p.facets);
    const where = (input[p.in] ??= {}) as Record<string, unknown>;
    where[p.name] = value;
  }
  const body = op.requestBody?.contents.find((c) => /json/.test(c.mediaType)) ?? op.requestBody?.contents[0];
  // fetch refuses a GET or HEAD with a body (Stripe declares optional form bodies on its GETs): left out unless required.
  const bodiless = (op.method === "get" || op.method === "head") && op.requestBody?.required !== true;
  if (body && !bodiless) {
    const validate = body.type.kind === "ref" ? (spec.module[spec.names.derived(body.type.id, "validate")] as Fn | undefined) : undefined;
    const drawn = gen.validValue((s) => gen.valueOf(body.type, s), (v) => !validate || (validate(v) as unknown[]).length === 0, `${seed}:body`);
    input["body"] = drawn!.value;
  }
  return input;
}

/** The generated validator of the body `op` declares for `status` (exact, NXX, default), if it is a named type. */
export function validatorFor(spec: LoadedSpec, op: HttpOperation, status: number): Fn | undefined {
  const r = op.responses.find((x) => x.status === String(status)) ?? op.responses.find((x) => x.status === `${String(status)[0]}XX`) ?? op.responses.find((x) => x.status === "default");
  const c = r?.contents.find((x) => /json/.test(x.mediaType)) ?? r?.contents[0];
  return c?.type.kind === "ref" ? (spec.module[spec.names.derived(c.type.id, "validate")] as Fn | undefined) : undefined;
}

/** A body as the client read it, as comparable JSON (dates and 64-bit integers as their JSON text). */
/** A body as JSON text says it: the generated client revives `format: byte` bodies into Uint8Array (base64 on the wire). */
const asJson = (v: unknown) =>
  JSON.parse(JSON.stringify(v, (_key, x: unknown) => (x instanceof Uint8Array ? Buffer.from(x).toString("base64") : x)) ?? "null") as unknown;

/**
 * Every operation of the spec called once through its generated client at `baseUrl` (where something, e.g. MSW
 * handlers, answers) with a valid request and every credential, and the same request asked of `reference` (a
 * `createRestMock` handler): the status must be the mock's default one and the body the reference's, and each body
 * of a named type must pass its generated validator, unless every issue is one `options.tolerate` names (a known
 * limitation elsewhere, listed in the result). Returns how many operations answered, how many bodies were validated
 * (every one of a named type: inline schemas have no generated validator) and the operations tolerated. With
 * `allowRefusals`, a 400 that the reference gives too (same body) is counted and listed instead of failing: the
 * generated server refusing the generated client's request is a client/server matter, not the handler's.
 */
export async function everyOperationAsTheMock(
  spec: LoadedSpec,
  reference: (request: Request) => Promise<Response>,
  baseUrl: string,
  options: { tolerate?: (issue: { rule: string; message: string }) => boolean; allowRefusals?: boolean } = {},
): Promise<{ served: number; validated: number; tolerated: string[]; refused: string[] }> {
  const tolerated: string[] = [];
  const refused: string[] = [];
  const gen = new ValueGenerator(spec.doc);
  const ops = mockedOperations(spec);
  expect(ops.length).toBeGreaterThan(0);
  let served = 0;
  let validated = 0;
  for (const [index, service] of spec.doc.services.entries()) {
    if (service.kind !== "http") continue;
    // The client's request, as sent (credentials added), is kept to ask the reference the same.
    const seen: Request[] = [];
    const auth = credentials(service);
    const keep = (r: Request) => {
      const sent = auth(r);
      seen.push(sent.clone());
      return sent;
    };
    const client = (spec.module[spec.names.api(index).createClient] as Fn)({ baseUrl, auth: keep }) as Record<string, Fn>;
    for (const op of service.operations) {
      const before = seen.length;
      const call = client[spec.names.operation(op).method]!(requestFor(spec, gen, op, 3)) as Promise<{ status: number; body: unknown }>;
      const result = await call.then((r) => ({ ok: true as const, r }), (e: unknown) => ({ ok: false as const, e }));
      if (seen.length === before) throw new Error(`${op.name}: the client sent nothing: ${result.ok ? "" : String(result.e)}`);
      const expected = await reference(seen.at(-1)!);
      if (op.responses.length === 0) {
        // Nothing declared: a 500 saying so (as Prism's NO_RESPONSE_DEFINED), which the client reports as undeclared.
        expect(result.ok, op.name).toBe(false);
        expect(result.ok ? undefined : result.e, op.name).toMatchObject({ status: 500 });
        expect(expected.status).toBe(500);
        served++;
        continue;
      }
      if (!result.ok) throw result.e;
      const res = result.r;
      const text = await expected.text();
      if (options.allowRefusals && res.status === 400 && expected.status === 400) {
        // The generated server refused the generated client's request (the reference did too, with the same body).
        expect(asJson(res.body), op.name).toEqual(JSON.parse(text));
        refused.push(op.name);
        served++;
        continue;
      }
      expect(res.status, op.name).toBe(defaultStatus(op));
      expect(res.status, op.name).toBe(expected.status);
      if (text === "") expect(res.body ?? null, `${op.name}: no body, as the reference`).toBeNull();
      else expect(asJson(res.body), `${op.name}: the answer is the reference's`).toEqual(JSON.parse(text));
      const validate = validatorFor(spec, op, res.status);
      if (validate && !mockStatusHasNoBody(res.status)) {
        const issues = validate(res.body) as { rule: string; message: string }[];
        if (issues.length > 0 && options.tolerate && issues.every(options.tolerate)) tolerated.push(op.name);
        else expect(issues, `${op.name}: ${JSON.stringify(res.body)}`).toEqual([]);
        validated++;
      }
      served++;
    }
  }
  expect(served).toBe(ops.length);
  const named = ops.filter(({ operation }) => {
    const chosen = mockResponseFor(operation, undefined);
    const content = chosen && mockResponseContent(chosen.response);
    return chosen !== undefined && content?.type.kind === "ref" && !mockStatusHasNoBody(chosen.status);
  }).length;
  expect(validated).toBe(named - refusedWithBody(ops, refused));
  return { served, validated, tolerated, refused };
}

/** How many of the refused operations' default answers have a named body type (those were not validated). */
function refusedWithBody(ops: { operation: HttpOperation }[], refused: readonly string[]): number {
  return ops.filter(({ operation }) => {
    if (!refused.includes(operation.name)) return false;
    const chosen = mockResponseFor(operation, undefined);
    const content = chosen && mockResponseContent(chosen.response);
    return chosen !== undefined && content?.type.kind === "ref" && !mockStatusHasNoBody(chosen.status);
  }).length;
}
