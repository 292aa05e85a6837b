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
import type { PluginContext, PluginFile, SpecforgePlugin } from "../user-plugins.js";

const hasHttpService = (doc: IrDocument) => doc.services.some((s) => s.kind === "http");

export const tanstackQueryPlugin: SpecforgePlugin = {
  name: "tanstack-query",
  applies: hasHttpService,
  emit(ctx: PluginContext): PluginFile[] {
    if (!ctx.files.includes("client.ts")) return [];
    const lines: string[] = [ctx.header, ""];
    const clients: string[] = [];
    const body: string[] = [];
    ctx.doc.services.forEach((s, index) => {
      if (s.kind !== "http") return;
      const api = ctx.names.api(index);
      const C = api.client;
      clients.push(C);
      // `<client>Queries`: derived from the client's claimed name, which ends in "Client" (WebhooksAPIClient ->
      // webhooksAPIQueries); the file exports nothing else, and the index does not re-export it.
      const stem = C.replace(/Client(_\d+)?$/, "$1");
      const factory = `${stem.charAt(0).toLowerCase()}${stem.slice(1)}Queries`;
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
    lines.push(`import type { ${clients.join(", ")} } from "./client.js";`, "");
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
