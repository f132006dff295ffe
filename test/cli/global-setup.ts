import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

/**
 * Builds dist/ once before the CLI tests: bin/ferret.js runs the compiled CLI, not the sources.
 * tsc still emits when someone else's in-progress file has a type error, so only a missing CLI fails.
 */
export default function setup(): void {
  const tsc = fileURLToPath(new URL("../../node_modules/typescript/bin/tsc", import.meta.url));
  const built = spawnSync(process.execPath, [tsc, "-p", "tsconfig.build.json"], { cwd: ROOT, encoding: "utf8" });
  if (built.status !== 0) {
    process.stderr.write(
      `test/cli: tsc reported errors (continuing with what it emitted):\n${built.stdout}${built.stderr}\n`,
    );
  }
  if (!existsSync(new URL("../../dist/cli/main.js", import.meta.url))) {
    throw new Error("test/cli: the build did not produce dist/cli/main.js");
  }
}
