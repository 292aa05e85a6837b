import path from "node:path";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: {
    // Generated code imports "specforge/runtime"; in this repo that is the source, not the built package.
    alias: { "specforge/runtime": path.resolve(import.meta.dirname, "src/runtime/index.ts") },
  },
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
