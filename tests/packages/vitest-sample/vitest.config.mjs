import { defineConfig } from "vitest/config";

// No tables of its own: every worker's database holds the preloaded models.
export default defineConfig({
  test: {
    globalSetup: ["localdynamo-test/vitest"],
    setupFiles: ["localdynamo-test/vitest/setup"],
    pool: "forks",
    testTimeout: 20000,
  },
});
