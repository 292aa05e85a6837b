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
import { serveNodeHttp2 } from "../../runtime/http/node-http2.js";
import { createRpcMock, mockedRpcMethods } from "../../mock/rpc.js";
import { createValidatingProxy, type ProxyLogEntry } from "../../mock/proxy.js";
import type { CommandContext } from "../io.js";

/**
 * `specforge mock <spec> [--port N] [--host H] [--seed S] [--dynamic] [--json]`: a stub server answering every
 * operation of an OpenAPI document from its examples or generated values (docs/mock.md). Runs until Ctrl-C; one
 * log line per request on stderr (a JSON object per line with --json).
 */
export function mockCommand(ctx: CommandContext): Command {
  return new Command("mock")
    .description("serve every operation of a spec from its examples or generated values, validating requests (OpenAPI, WSDL, .proto)")
    .argument("<spec>", "spec file (OpenAPI .yaml/.json, WSDL, .proto)")
    .option("-p, --port <n>", "port to listen on (0 picks a free one)", port, 4010)
    .option("--grpc-port <n>", "HTTP/2 port for gRPC (.proto; default the next port, or a free one with --port 0; \"none\" for no HTTP/2 listener)", grpcPort)
    .option("--host <host>", "interface to bind", "127.0.0.1")
    .option("--seed <seed>", "seed of generated values: the same seed gives the same answers", "specforge")
    .option("--dynamic", "answer with generated values even where the spec has examples, new ones per request")
    .option("--delay <ms>", "wait this long before each answer", delay)
    .option("--stream-count <n>", "messages per server stream (.proto)", streamCount, 3)
    .option("-I, --proto-path <dir...>", "directories searched for .proto imports")
    .option("--cors-origin <origin...>", "origins whose pages may call the mock (\"*\" for any; default http(s) pages on localhost)")
    .option("--no-cors", "answer no CORS preflights and add no CORS headers")
    .option("--proxy <url>", "forward every request to this real server, check request and answer against the spec and report each violation (OpenAPI, WSDL, .proto); answers go back unchanged")
    .option("--proxy-grpc <url>", "with --proxy on a .proto: where gRPC calls go, over HTTP/2 (default the --proxy URL)")
    .option("--json", "log requests as JSON lines on stderr")
    .action(async (spec: string, opts: { port: number; grpcPort?: number | "none"; host: string; seed: string; dynamic?: boolean; delay?: number; streamCount: number; protoPath?: string[]; cors: boolean; corsOrigin?: string[]; proxy?: string; proxyGrpc?: string; json?: boolean }) => {
      const loaded = await loadSpecForMock({ spec, ...(opts.protoPath ? { protoPaths: opts.protoPath } : {}) });
      const format = loaded.doc.format;
      if (format === "xsd") throw new UsageError(`specforge mock: ${spec} is an XSD, which has no operations to serve (mock a WSDL, an OpenAPI document or a .proto with services)`);
      const count =
        format === "wsdl" ? mockedSoapOperations(loaded.doc).length : format === "proto" ? mockedRpcMethods(loaded.doc, loaded.names).length : mockedOperations(loaded).length;
      if (count === 0) {
        throw new UsageError(
          format === "wsdl"
            ? `specforge mock: ${spec} binds no SOAP operation the generated server can serve (no wsdl:service, or only skipped operations)`
            : format === "proto"
              ? `specforge mock: ${spec} declares no service`
              : `specforge mock: ${spec} declares no operation`,
        );
      }
      const log = (e: MockLogEntry) =>
        ctx.io.err(opts.json
          ? `${JSON.stringify({ event: "request", ...e })}\n`
          : `${e.method} ${e.path} -> ${e.status}${e.operation ? ` ${e.operation}` : ""}${e.source && e.source !== "none" ? ` (${e.source}${e.example ? ` ${e.example}` : ""})` : ""}${e.note ? ` [${e.note}]` : ""}\n`);
      const common = { seed: opts.seed, ...(opts.dynamic ? { dynamic: true } : {}), ...(opts.delay !== undefined ? { delayMs: opts.delay } : {}), log };
      if (opts.proxy !== undefined) {
        for (const url of [opts.proxy, ...(opts.proxyGrpc !== undefined ? [opts.proxyGrpc] : [])]) {
          if (!/^https?:\/\/[^/]/i.test(url)) throw new UsageError(`specforge mock --proxy: expected an http(s) URL, got ${JSON.stringify(url)}`);
        }
      }
      if (opts.proxyGrpc !== undefined && (opts.proxy === undefined || format !== "proto")) throw new UsageError("specforge mock --proxy-grpc: only with --proxy, for a .proto");
      const proxyLog = (e: ProxyLogEntry) => {
        if (opts.json) {
          ctx.io.err(`${JSON.stringify({ event: "request", ...e })}\n`);
          for (const v of e.violations) ctx.io.err(`${JSON.stringify({ event: "violation", method: e.method, path: e.path, ...(e.operation ? { operation: e.operation } : {}), ...v })}\n`);
          return;
        }
        ctx.io.err(`${e.method} ${e.path} -> ${e.status}${e.operation ? ` ${e.operation}` : ""} (proxied to ${e.upstream})${e.note ? ` [${e.note}]` : ""}${e.violations.length === 0 ? " ok" : ""}\n`);
        for (const v of e.violations) {
          ctx.io.err(`  violation (${v.side}): ${v.message}\n`);
          for (const i of v.issues ?? []) ctx.io.err(`    ${i.path || "/"}: ${i.message}\n`);
        }
      };
      const mock = opts.proxy !== undefined
        ? createValidatingProxy(loaded, { target: opts.proxy, ...(opts.proxyGrpc !== undefined ? { grpcTarget: opts.proxyGrpc } : {}), log: proxyLog })
        : format === "wsdl"
          ? createSoapMock(loaded, { ...common, wsdl: readFileSync(path.resolve(spec), "utf8") })
          : format === "proto"
            ? createRpcMock(loaded, { ...common, streamCount: opts.streamCount })
            : createRestMock(loaded, common);
      const { allowHeaders, exposeHeaders } =
        format === "wsdl"
          ? { allowHeaders: ["soapaction", "prefer"], exposeHeaders: [] }
          : format === "proto"
            ? { allowHeaders: [], exposeHeaders: ["grpc-status", "grpc-message", "grpc-status-details-bin"] }
            : mockCorsHeaders(loaded);
      const origins = opts.corsOrigin === undefined ? undefined : opts.corsOrigin.includes("*") ? "*" as const : opts.corsOrigin;
      const handler = opts.cors
        ? withCors(mock, { allowHeaders: [...DEFAULT_CORS_ALLOW_HEADERS, ...allowHeaders], exposeHeaders, ...(origins !== undefined ? { origins } : {}) })
        : mock;
      const server = await serveNode(handler, { port: opts.port, host: opts.host });
      // gRPC needs HTTP/2 with trailers, which node:http cannot send: a second listener serving the same handler.
      const wantH2 = format === "proto" && opts.grpcPort !== "none";
      const h2 = wantH2
        ? await serveNodeHttp2(handler, { port: typeof opts.grpcPort === "number" ? opts.grpcPort : opts.port === 0 ? 0 : opts.port + 1, host: opts.host }).catch(async (error: unknown) => {
            await server.close();
            throw error;
          })
        : undefined;
      // SOAP: the endpoints are the ports' address paths (any path answers when the WSDL has one service).
      const endpoints = format === "wsdl" ? [...new Set(boundServices(loaded.doc).flatMap((s) => soapServicePaths(s)))].map((p) => `${server.url}${p === "/" ? "" : p}`) : [server.url];
      if (opts.json) {
        ctx.io.err(`${JSON.stringify({ event: "listening", url: server.url, ...(format === "wsdl" ? { endpoints } : {}), ...(h2 ? { grpcUrl: h2.url } : {}), ...(opts.proxy !== undefined ? { proxy: opts.proxy } : {}), operations: count })}\n`);
      } else {
        ctx.io.err(`specforge mock: ${count} operation${count === 1 ? "" : "s"} of ${spec} at ${endpoints.join(", ")}${h2 ? ` (Connect, gRPC-Web), ${h2.url} (gRPC over HTTP/2)` : ""}${opts.proxy !== undefined ? `, proxied to ${opts.proxy}` : ""}\n`);
      }
      await ctx.interrupted();
      await Promise.all([server.close(), h2?.close()]);
    });
}

function grpcPort(text: string): number | "none" {
  return text === "none" ? "none" : port(text);
}

function streamCount(text: string): number {
  const n = Number(text);
  if (!/^\d+$/.test(text) || n > 100_000) throw new InvalidArgumentError("expected a number of messages, 0-100000");
  return n;
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
