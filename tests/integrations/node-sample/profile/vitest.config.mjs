import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["vitest/**/*.test.mjs"],
    globalSetup: ["localdynamo-test/vitest"],
    setupFiles: ["localdynamo-test/vitest/setup"],
    pool: "forks",
    testTimeout: 20000,
  },
});
