import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createFerret } from "../ferret.js";
import { InvalidInputError } from "../spec/errors.js";
import { resolveLimits } from "./limits.js";
import { loadFile } from "./load-file.js";
import { createLoaderRegistry, type LoaderRegistration } from "./loader-registry.js";
import { defaultLoaders } from "./loaders/index.js";
import { createParsePool } from "./pool/parse-pool.js";

const dir = await mkdtemp(join(tmpdir(), "ferret-registry-"));
afterAll(() => rm(dir, { recursive: true, force: true }));

/** A made-up `key = value` format: one document per file, the pairs as lines. */
const recipeLoader: LoaderRegistration = {
  name: "recipe",
  extensions: [".Recipe"],
  mediaTypes: ["text/x-recipe"],
  text: true,
  load: async ({ bytes, relPath }) => {
    const text = Buffer.from(bytes).toString("utf8");
    const pairs = text.split("\n").filter((l) => l.includes("="));
    return {
      docs: [{ id: relPath, title: "Recipe card", text: pairs.join("\n"), acl: [], metadata: { pairs: pairs.length } }],
      warnings: [],
    };
  },
};

describe("loader registry", () => {
  it("finds loaders by extension (case-insensitive, leading dot optional) and by media type", () => {
    const registry = createLoaderRegistry([recipeLoader]);
    expect(registry.forPath("menus/Soup.RECIPE")?.name).toBe("recipe");
    expect(registry.forMediaType("Text/X-Recipe; charset=utf-8")?.name).toBe("recipe");
    expect(registry.forPath("menus/soup.txt")).toBeUndefined();
    expect(registry.forPath("recipe")).toBeUndefined();
    expect(registry.extensions()).toEqual(["recipe"]);
  });

  it("refuses a registration without a key or with a malformed one, naming the loader and field", () => {
    const registry = createLoaderRegistry();
    expect(() => registry.register({ ...recipeLoader, extensions: [], mediaTypes: [] })).toThrow(InvalidInputError);
    expect(() => registry.register({ ...recipeLoader, extensions: ["a b"] })).toThrow(
      /loader "recipe", field "extensions"/,
    );
    expect(() => registry.register({ ...recipeLoader, mediaTypes: ["nonsense"] })).toThrow(/field "mediaTypes"/);
  });

  it("has the built-in formats, and an extended registry adds without changing the process-wide one", () => {
    expect(defaultLoaders.extensions()).toEqual(expect.arrayContaining(["md", "pdf", "docx", "csv", "jsonl"]));
    const extended = defaultLoaders.extend([recipeLoader]);
    expect(extended.forPath("a.recipe")?.name).toBe("recipe");
    expect(extended.forPath("a.md")?.name).toBe("markdown");
    expect(defaultLoaders.forPath("a.recipe")).toBeUndefined();
  });

  it("dispatches loadFile through the registry it is given", async () => {
    await writeFile(join(dir, "stew.recipe"), "# not a pair\nsalt = 2 g\nwater = 1 l\n");
    const file = { absPath: join(dir, "stew.recipe"), relPath: "stew.recipe" };
    expect(await loadFile(file)).toEqual({ kind: "skipped", reason: "unsupported file type" });
    const loaded = await loadFile({ ...file, loaders: createLoaderRegistry([recipeLoader]) });
    expect(loaded).toMatchObject({ kind: "loaded", docs: [{ id: "stew.recipe", metadata: { pairs: 2 } }] });
  });

  it("parses a run-time loader's files in process even when a worker pool is running", async () => {
    await writeFile(join(dir, "pie.recipe"), "flour = 300 g\n");
    const pool = createParsePool({ workers: 1 });
    try {
      const parsed = await pool.parse({
        absPath: join(dir, "pie.recipe"),
        relPath: "pie.recipe",
        limits: resolveLimits(),
        source: "s",
        tenant: "t",
        sourceAcl: [],
        known: new Map(),
        loaders: defaultLoaders.extend([{ ...recipeLoader, builtin: false }]),
      });
      expect(parsed).toMatchObject({ kind: "loaded", docs: [{ kind: "changed", id: "pie.recipe" }] });
    } finally {
      await pool.close();
    }
  });

  it("createFerret({ loaders }) ingests and finds files of a user's format", async () => {
    const folder = join(dir, "kitchen");
    await rm(folder, { recursive: true, force: true });
    await import("node:fs/promises").then((fs) => fs.mkdir(folder));
    await writeFile(join(folder, "broth.recipe"), "marrowbone = 2 kg\nsimmer = 9 hours\n");
    const ferret = await createFerret({ db: ":memory:", loaders: [recipeLoader] });
    try {
      const summary = await ferret.ingest(folder, { source: "kitchen" });
      expect(summary.added).toBe(1);
      const found = await ferret.search("marrowbone simmer");
      expect(found[0]?.docId).toBe("broth.recipe");
    } finally {
      await ferret.close();
    }
  });
});
