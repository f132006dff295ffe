import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";
import base from "../../vitest.config.js";

/** The project config plus the build the CLI tests need: `npx vitest run --config test/cli/vitest.config.ts`. */
export default defineConfig({
  ...base,
  root: fileURLToPath(new URL("../../", import.meta.url)),
  test: { ...base.test, include: ["test/cli/**/*.test.ts"], globalSetup: ["test/cli/global-setup.ts"] },
});
