import { Command, InvalidArgumentError } from "commander";
import { UsageError } from "../../errors.js";
import { loadSpecForMock } from "../../mock/load.js";
import { createRestMock, mockCorsHeaders, mockedOperations, type MockLogEntry } from "../../mock/rest.js";
import { createSoapMock, mockedSoapOperations, soapServicePaths } from "../../mock/soap.js";
import { boundServices } from "../../emitters/soap-client/bound-operations.js";
import { readFileSync } from "node:fs";
import path from "node:path";
import { DEFAULT_CORS_ALLOW_HEADERS, withCors } from "../../runtime/http/cors.js";
import { serveNode } from "../../runtime/http/node.js";
import type { CommandContext } from "../io.js";

/**
 * `specforge mock <spec> [--port N] [--host H] [--seed S] [--dynamic] [--json]`: a stub server answering every
 * operation of an OpenAPI document from its examples or generated values (docs/mock.md). Runs until Ctrl-C; one
 * log line per request on stderr (a JSON object per line with --json).
 */
export function mockCommand(ctx: CommandContext): Command {
  return new Command("mock")
    .description("serve every operation of a spec from its examples or generated values, validating requests (OpenAPI, WSDL)")
    .argument("<spec>", "spec file (OpenAPI .yaml/.json, WSDL)")
    .option("-p, --port <n>", "port to listen on (0 picks a free one)", port, 4010)
    .option("--host <host>", "interface to bind", "127.0.0.1")
    .option("--seed <seed>", "seed of generated values: the same seed gives the same answers", "specforge")
    .option("--dynamic", "answer with generated values even where the spec has examples, new ones per request")
    .option("--delay <ms>", "wait this long before each answer", delay)
    .option("--cors-origin <origin...>", "origins whose pages may call the mock (\"*\" for any; default http(s) pages on localhost)")
    .option("--no-cors", "answer no CORS preflights and add no CORS headers")
    .option("--json", "log requests as JSON lines on stderr")
    .action(async (spec: string, opts: { port: number; host: string; seed: string; dynamic?: boolean; delay?: number; cors: boolean; corsOrigin?: string[]; json?: boolean }) => {
      const loaded = await loadSpecForMock({ spec });
      if (loaded.doc.format !== "openapi" && loaded.doc.format !== "wsdl") {
        throw new UsageError(`specforge mock: ${spec} is ${loaded.doc.format === "proto" ? "a .proto" : "an XSD"}; only OpenAPI documents and WSDLs with services can be mocked so far`);
      }
      if (loaded.doc.format === "wsdl" && mockedSoapOperations(loaded.doc).length === 0) {
        throw new UsageError(`specforge mock: ${spec} binds no SOAP operation the generated server can serve (no wsdl:service, or only skipped operations)`);
      }
      const log = (e: MockLogEntry) =>
        ctx.io.err(opts.json
          ? `${JSON.stringify({ event: "request", ...e })}\n`
          : `${e.method} ${e.path} -> ${e.status}${e.operation ? ` ${e.operation}` : ""}${e.source && e.source !== "none" ? ` (${e.source}${e.example ? ` ${e.example}` : ""})` : ""}${e.note ? ` [${e.note}]` : ""}\n`);
      const common = { seed: opts.seed, ...(opts.dynamic ? { dynamic: true } : {}), ...(opts.delay !== undefined ? { delayMs: opts.delay } : {}), log };
      const soap = loaded.doc.format === "wsdl";
      const mock = soap ? createSoapMock(loaded, { ...common, wsdl: readFileSync(path.resolve(spec), "utf8") }) : createRestMock(loaded, common);
      const { allowHeaders, exposeHeaders } = soap ? { allowHeaders: ["soapaction", "prefer"], exposeHeaders: [] } : mockCorsHeaders(loaded);
      const origins = opts.corsOrigin === undefined ? undefined : opts.corsOrigin.includes("*") ? "*" as const : opts.corsOrigin;
      const handler = opts.cors
        ? withCors(mock, { allowHeaders: [...DEFAULT_CORS_ALLOW_HEADERS, ...allowHeaders], exposeHeaders, ...(origins !== undefined ? { origins } : {}) })
        : mock;
      const server = await serveNode(handler, { port: opts.port, host: opts.host });
      const count = soap ? mockedSoapOperations(loaded.doc).length : mockedOperations(loaded).length;
      // SOAP: the endpoints are the ports' address paths (any path answers when the WSDL has one service).
      const endpoints = soap ? [...new Set(boundServices(loaded.doc).flatMap((s) => soapServicePaths(s)))].map((p) => `${server.url}${p === "/" ? "" : p}`) : [server.url];
      if (opts.json) ctx.io.err(`${JSON.stringify({ event: "listening", url: server.url, ...(soap ? { endpoints } : {}), operations: count })}\n`);
      else ctx.io.err(`specforge mock: ${count} operation${count === 1 ? "" : "s"} of ${spec} at ${endpoints.join(", ")}\n`);
      await ctx.interrupted();
      await server.close();
    });
}

function delay(text: string): number {
  const n = Number(text);
  if (!/^\d+$/.test(text) || n > 600_000) throw new InvalidArgumentError("expected milliseconds, 0-600000");
  return n;
}

function port(text: string): number {
  const n = Number(text);
  if (!/^\d+$/.test(text) || n > 65535) throw new InvalidArgumentError("expected a port number 0-65535");
  return n;
}
