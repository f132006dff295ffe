import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["src/**/*.test.ts", "test/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: "forks",
    // The CLI tests run bin/ferret.js, which loads dist/: build once before any test file runs.
    globalSetup: ["test/cli/global-setup.ts"],
  },
});
