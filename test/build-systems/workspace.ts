/**
 * A small workspace of three packages for the build-system tests (Turborepo, Nx): `orders` (a .proto), `pets` (an
 * OpenAPI document) and `shop`, whose .proto imports orders.proto from the orders package (so shop's generation
 * depends on orders'). Each package generates with the repo's own CLI into its `generated/`.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { REPO } from "../helpers/seeds.js";

export const SPECFORGE = path.join(REPO, "bin", "specforge.js");
export const ORDERS_PROTO = 'syntax = "proto3";\npackage orders;\nmessage Order { string id = 1; }\n';
const SHOP_PROTO = 'syntax = "proto3";\npackage shop;\nimport "orders.proto";\nmessage Cart { repeated orders.Order orders = 1; }\n';
const PETS_YAML = 'openapi: 3.0.3\ninfo: {title: Pets, version: "1"}\npaths: {}\ncomponents:\n  schemas:\n    Pet: {type: object, properties: {name: {type: string}}}\n';

export interface Workspace {
  readonly root: string;
  /** Absolute path of a file in a package. */
  file(pkg: "orders" | "pets" | "shop", rel: string): string;
}

/** Write the workspace; `extra` adds each tool's own files (turbo.json, nx.json, project.json...). */
export function makeWorkspace(prefix: string, extra: (root: string) => void): Workspace {
  const root = mkdtempSync(path.join(tmpdir(), prefix));
  const write = (rel: string, text: string) => {
    mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    writeFileSync(path.join(root, rel), text);
  };
  write("package.json", JSON.stringify({ name: "ws", private: true, workspaces: ["packages/*"], packageManager: "npm@11.6.2" }, null, 2));
  const pkg = (name: string, deps: Record<string, string>, config: object, spec: [string, string]) => {
    write(`packages/${name}/package.json`, JSON.stringify({ name, private: true, dependencies: deps, scripts: { generate: `node ${JSON.stringify(SPECFORGE)} generate --quiet` } }, null, 2));
    write(`packages/${name}/specforge.config.json`, JSON.stringify(config, null, 2));
    write(`packages/${name}/specs/${spec[0]}`, spec[1]);
  };
  pkg("orders", {}, { specs: ["specs"], out: "generated" }, ["orders.proto", ORDERS_PROTO]);
  pkg("pets", {}, { specs: ["specs"], out: "generated" }, ["pets.yaml", PETS_YAML]);
  pkg("shop", { orders: "*" }, { specs: ["specs"], out: "generated", protoPaths: ["../orders/specs"] }, ["shop.proto", SHOP_PROTO]);
  extra(root);
  return { root, file: (p, rel) => path.join(root, "packages", p, rel) };
}
