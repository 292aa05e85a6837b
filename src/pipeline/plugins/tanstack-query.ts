/**
 * First-party plugin `specforge:tanstack-query` (docs/plugins.md): `query.ts` with TanStack Query options for every
 * REST operation of an OpenAPI spec, built on the generated client. For each HTTP service, one function taking a
 * client and returning, per operation (the client's method names):
 *  - GET and HEAD: `(request) => ({ queryKey, queryFn })`, for `useQuery`/`queryClient.fetchQuery`; the key is
 *    `[service, operation, request]` (TanStack hashes keys with sorted object keys, so equal requests share a
 *    cache entry whatever their property order) and `queryFn` passes TanStack's abort signal to the call;
 *  - other methods: `() => ({ mutationKey, mutationFn })`, `mutationFn` taking the request.
 * Typed by the client interface (`Parameters`/`ReturnType` of its methods): the generated code imports nothing from
 * TanStack, and the objects fit `queryOptions`/`mutationOptions` of every TanStack Query adapter.
 */
import type { IrDocument } from "../../ir/model.js";
import { connectServiceNames, isUnary } from "../../emitters/proto-http/emit-connect.js";
import type { PluginContext, PluginFile, SpecforgePlugin } from "../user-plugins.js";

const hasService = (doc: IrDocument) => doc.services.length > 0;

export const tanstackQueryPlugin: SpecforgePlugin = {
  name: "tanstack-query",
  applies: hasService,
  emit(ctx: PluginContext): PluginFile[] {
    const rest = ctx.files.includes("client.ts") && ctx.doc.services.some((s) => s.kind === "http");
    const connect = ctx.files.includes("connect.ts") ? connectServiceNames(ctx.doc, ctx.names).filter((s) => s.methods.some((m) => isUnary(m.method))) : [];
    if (!rest && connect.length === 0) return [];
    const lines: string[] = [ctx.header, ""];
    const clients: string[] = [];
    const body: string[] = [];
    if (rest) ctx.doc.services.forEach((s, index) => {
      if (s.kind !== "http") return;
      const api = ctx.names.api(index);
      const C = api.client;
      clients.push(C);
      // `<client>Queries`, the naming pass's (WebhooksAPIClient -> webhooksAPIQueries).
      const factory = api.queries;
      const key = ctx.stringLiteral(s.name);
      body.push(
        `/** TanStack Query options for every operation of ${C}: queries for GET and HEAD, mutations for the others. */`,
        `export function ${factory}(client: ${C}) {`,
        "  return {",
      );
      for (const op of s.operations) {
        const m = ctx.names.operation(op).method;
        const k = ctx.stringLiteral(m);
        const what = ctx.stringLiteral(`${op.method.toUpperCase()} ${op.path}`).slice(1, -1).replace(/\*\//g, "*\\/");
        body.push(`    /** ${what} */`);
        if (op.method === "get" || op.method === "head") {
          body.push(
            `    ${m}: (...[request]: RequestArgs<${C}, ${k}>) => ({`,
            `      queryKey: [${key}, ${k}, request ?? {}] as const,`,
            `      queryFn: ({ signal }: { signal: AbortSignal }): ReturnType<${C}[${k}]> => client.${m}(request as RequestOf<${C}, ${k}>, { signal }),`,
            "    }),",
          );
        } else {
          body.push(
            `    ${m}: () => ({`,
            `      mutationKey: [${key}, ${k}] as const,`,
            `      mutationFn: (request: RequestOf<${C}, ${k}>): ReturnType<${C}[${k}]> => client.${m}(request),`,
            "    }),",
          );
        }
      }
      body.push("  };", "}", "");
    });
    const rpcClients: string[] = [];
    for (const { service, names, methods } of connect) {
      const C = names.client;
      rpcClients.push(C);
      const factory = names.queries;
      const key = ctx.stringLiteral(service.fullName);
      body.push(
        `/** TanStack Query options for the unary methods of ${C}: queries for those without side effects (idempotency_level), mutations for the others. */`,
        `export function ${factory}(client: ${C}) {`,
        "  return {",
      );
      for (const { method, property } of methods) {
        if (!isUnary(method)) continue;
        const k = ctx.stringLiteral(property);
        body.push(`    /** ${ctx.stringLiteral(`rpc ${service.fullName}.${method.name}`).slice(1, -1).replace(/\*\//g, "*\\/")} */`);
        if (method.options?.["idempotency_level"] === "NO_SIDE_EFFECTS") {
          body.push(
            `    ${property}: (request: RequestOf<${C}, ${k}>) => ({`,
            `      queryKey: [${key}, ${k}, request] as const,`,
            `      queryFn: ({ signal }: { signal: AbortSignal }): ReturnType<${C}[${k}]> => client.${property}(request, { signal }),`,
            "    }),",
          );
        } else {
          body.push(
            `    ${property}: () => ({`,
            `      mutationKey: [${key}, ${k}] as const,`,
            `      mutationFn: (request: RequestOf<${C}, ${k}>): ReturnType<${C}[${k}]> => client.${property}(request),`,
            "    }),",
          );
        }
      }
      body.push("  };", "}", "");
    }
    if (clients.length > 0) lines.push(`import type { ${clients.join(", ")} } from "./client.js";`);
    if (rpcClients.length > 0) lines.push(`import type { ${rpcClients.join(", ")} } from "./connect.js";`);
    lines.push("");
    lines.push(
      "type Method<C> = { [K in keyof C]: C[K] extends (...args: never[]) => unknown ? K : never }[keyof C];",
      "/** The first parameter of a client method: the operation's request. */",
      "type RequestOf<C, K extends Method<C>> = C[K] extends (request: infer R, ...rest: never[]) => unknown ? R : never;",
      "/** The request as an argument list: optional when the client method's is. */",
      "type RequestArgs<C, K extends Method<C>> = undefined extends RequestOf<C, K> ? [request?: RequestOf<C, K>] : [request: RequestOf<C, K>];",
      "",
    );
    lines.push(...body);
    return [{ path: "query.ts", content: lines.join("\n") }];
  },
};
