import { existsSync, readFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const SRC = dirname(fileURLToPath(import.meta.url));
const ROOT = dirname(SRC);
/** `import … from "x"`, `export … from "x"`, `import "x"` and `import("x")`, type imports included. */
const SPECIFIER = /\b(?:import|export)\s[^;"']*?\bfrom\s*"([^"]+)"|\bimport\s*"([^"]+)"|\bimport\(\s*"([^"]+)"\s*\)/g;

/** Every source file an entry reaches through relative imports, and the packages they import. */
function reach(entry: string): { files: Set<string>; packages: Set<string> } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const pending = [join(SRC, entry)];
  for (let file = pending.pop(); file !== undefined; file = pending.pop()) {
    if (files.has(file)) continue;
    files.add(file);
    for (const match of readFileSync(file, "utf8").matchAll(SPECIFIER)) {
      const spec = match[1] ?? match[2] ?? match[3] ?? "";
      if (!spec.startsWith(".")) {
        packages.add(spec.startsWith("@") ? spec.split("/").slice(0, 2).join("/") : spec.split("/")[0]!);
        continue;
      }
      const target = join(dirname(file), spec);
      const source = [target.replace(/\.js$/, ".ts"), target.replace(/\.js$/, ".tsx"), target].find(existsSync);
      if (source === undefined) throw new Error(`${relative(ROOT, file)} imports ${spec}, which does not exist`);
      pending.push(source);
    }
  }
  return { files, packages };
}

describe("package entries", () => {
  it("keeps vitest and the conformance suites out of the main entry", () => {
    const main = reach("index.ts");
    expect(main.files.size).toBeGreaterThan(50);
    expect(main.packages.has("better-sqlite3")).toBe(true);
    expect(main.packages.has("vitest")).toBe(false);
    expect([...main.files].map((f) => relative(SRC, f)).filter((f) => f.startsWith("testing"))).toEqual([]);
  });

  it("ships the suites from ferret/testing, which alone needs vitest (an optional peer)", () => {
    const testing = reach("testing/index.ts");
    expect(testing.packages.has("vitest")).toBe(true);
    expect([...testing.files].some((f) => relative(SRC, f).startsWith("stores"))).toBe(false);
    const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8"));
    expect(pkg.exports["./testing"]).toEqual({
      types: "./dist/testing/index.d.ts",
      import: "./dist/testing/index.js",
    });
    expect(pkg.peerDependencies.vitest).toBeDefined();
    expect(pkg.peerDependenciesMeta.vitest.optional).toBe(true);
    expect(pkg.dependencies.vitest).toBeUndefined();
  });
});
