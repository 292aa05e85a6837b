/** Calling a REST mock through the generated client: valid requests, credentials, the expected status and validator. */
import type { HttpOperation, HttpService } from "../../../src/ir/model.js";
import type { LoadedSpec } from "../../../src/mock/load.js";
import type { ValueGenerator } from "../../../src/mock/values.js";

type Fn = (...args: unknown[]) => unknown;

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
  if (body) {
    const validate = body.type.kind === "ref" ? (spec.module[`validate${spec.names.type(body.type.id)}`] as Fn | undefined) : undefined;
    const drawn = gen.validValue((s) => gen.valueOf(body.type, s), (v) => !validate || (validate(v) as unknown[]).length === 0, `${seed}:body`);
    input["body"] = drawn!.value;
  }
  return input;
}

export function validatorFor(spec: LoadedSpec, op: HttpOperation, status: number): Fn | undefined {
  const r = op.responses.find((x) => x.status === String(status)) ?? op.responses.find((x) => x.status === `${String(status)[0]}XX`) ?? op.responses.find((x) => x.status === "default");
  const c = r?.contents.find((x) => /json/.test(x.mediaType)) ?? r?.contents[0];
  return c?.type.kind === "ref" ? (spec.module[`validate${spec.names.type(c.type.id)}`] as Fn | undefined) : undefined;
}

