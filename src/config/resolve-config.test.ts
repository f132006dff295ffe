import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { InvalidInputError } from "../spec/errors.js";
import { describeOrigin, resolveConfig } from "./resolve-config.js";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function folderWith(config?: unknown): string {
  const dir = mkdtempSync(join(tmpdir(), "ferret-config-"));
  dirs.push(dir);
  if (config !== undefined)
    writeFileSync(join(dir, "ferret.config.json"), typeof config === "string" ? config : JSON.stringify(config));
  return dir;
}

function errorOf(run: () => unknown): InvalidInputError {
  try {
    run();
  } catch (error) {
    if (error instanceof InvalidInputError) return error;
    throw error;
  }
  throw new Error("expected an InvalidInputError");
}

describe("resolveConfig: flags > environment > file > defaults", () => {
  const file = { retrieval: "hierarchical", model: "ollama:qwen3", ask: { preset: "thorough", maxSteps: 4 } };

  it("takes each value from the first layer that gives it, and says which", () => {
    const cwd = folderWith(file);
    const config = resolveConfig({
      cwd,
      flags: { retrieval: "flat" },
      env: { FERRET_RETRIEVAL: "auto", FERRET_PRESET: "conservative" },
    });
    expect(config.file).toBe(join(cwd, "ferret.config.json"));
    expect(config.settings.retrieval).toEqual({ value: "flat", origin: { from: "flag", name: "--retrieval" } });
    expect(config.settings["ask.preset"]).toEqual({
      value: "conservative",
      origin: { from: "env", name: "FERRET_PRESET" },
    });
    expect(config.settings.model?.value).toBe("ollama:qwen3");
    expect(describeOrigin(config.settings.model!.origin)).toBe(`${config.file} (model)`);
    expect(config.settings["ask.maxSteps"]?.value).toBe(4);
    expect(config.settings.embedder).toEqual({ value: "none", origin: { from: "default" } });
    expect(config.settings.reranker).toBeUndefined();
  });

  it("the environment wins over the file, the file over the defaults", () => {
    const cwd = folderWith(file);
    expect(resolveConfig({ cwd, env: { FERRET_RETRIEVAL: "auto" } }).settings.retrieval?.value).toBe("auto");
    expect(resolveConfig({ cwd, env: {} }).settings.retrieval?.value).toBe("hierarchical");
    expect(resolveConfig({ cwd: folderWith(), env: {} }).settings.retrieval?.value).toBe("flat");
  });

  it("reads numbers and booleans from the environment, and a store path in the file relative to the file", () => {
    const cwd = folderWith({ db: "kb/store.db" });
    const config = resolveConfig({
      cwd: "/",
      flags: { config: join(cwd, "ferret.config.json") },
      env: { FERRET_CACHE: "false", FERRET_MAX_STEPS: "7" },
    });
    expect(config.settings.db?.value).toBe(join(cwd, "kb", "store.db"));
    expect(config.settings.cache?.value).toBe(false);
    expect(config.settings["ask.maxSteps"]?.value).toBe(7);
  });
});

describe("resolveConfig errors name the variable, or the file and the field", () => {
  it.each([
    [{ FERRET_RETRIEVAL: "deep" }, 'environment variable FERRET_RETRIEVAL="deep"'],
    [{ FERRET_MAX_STEPS: "five" }, 'environment variable FERRET_MAX_STEPS="five"'],
    [{ FERRET_CACHE: "maybe" }, 'environment variable FERRET_CACHE="maybe"'],
    [{ FERRET_AS: "acme" }, 'environment variable FERRET_AS="acme": must be TENANT:USER:ROLE,ROLE'],
    [{ FERRET_MIN_CONFIDENCE: "3" }, 'environment variable FERRET_MIN_CONFIDENCE="3"'],
  ])("%j", (env, message) => {
    const error = errorOf(() => resolveConfig({ cwd: folderWith(), env }));
    expect(error.message).toContain(message);
    expect(error.context.field).toBe(Object.keys(env)[0]);
  });

  it.each([
    [{ ask: { maxSteps: "five" } }, "field ask.maxSteps:", "ask.maxSteps"],
    [{ modle: "offline" }, 'field (top level): Unrecognized key: "modle"', ""],
    [{ serve: { port: 70000 } }, "field serve.port:", "serve.port"],
    [{ sources: [{ name: "x" }] }, "field sources.0.path:", "sources.0.path"],
    ["{ not json", "is not valid JSON", undefined],
  ])("file %j", (content, message, field) => {
    const cwd = folderWith(content);
    const error = errorOf(() => resolveConfig({ cwd, env: {} }));
    expect(error.message).toContain(`config file ${join(cwd, "ferret.config.json")}`);
    expect(error.message).toContain(message);
    expect(error.context.file).toBe(join(cwd, "ferret.config.json"));
    expect(error.context.field).toBe(field);
  });

  it("a config file named by --config or FERRET_CONFIG must exist", () => {
    const cwd = folderWith();
    expect(errorOf(() => resolveConfig({ cwd, flags: { config: "nope.json" } })).message).toContain(
      `--config names ${join(cwd, "nope.json")}, which cannot be read (ENOENT)`,
    );
    expect(errorOf(() => resolveConfig({ cwd, env: { FERRET_CONFIG: "gone.json" } })).message).toContain(
      `FERRET_CONFIG names ${join(cwd, "gone.json")}`,
    );
  });
});

describe("dbRead: a read replica of a PostgreSQL db", () => {
  it("comes from --db-read over FERRET_DB_READ over the file, and must be a postgres:// URL", async () => {
    const { ferretOptionsFrom } = await import("./ferret-options.js");
    const cwd = folderWith({ db: "postgres://primary/kb", dbRead: "postgres://file-replica/kb" });
    const env = { FERRET_DB_READ: "postgres://env-replica/kb" };
    expect(ferretOptionsFrom(resolveConfig({ cwd, env }), { env }).dbRead).toBe("postgres://env-replica/kb");
    const flagged = resolveConfig({ cwd, env, flags: { dbRead: "postgres://flag-replica/kb" } });
    expect(ferretOptionsFrom(flagged, { env }).dbRead).toBe("postgres://flag-replica/kb");
    expect(ferretOptionsFrom(resolveConfig({ cwd, env: {} }), { env: {} }).dbRead).toBe("postgres://file-replica/kb");
    expect(errorOf(() => resolveConfig({ cwd, env: { FERRET_DB_READ: "replica.db" } })).message).toContain(
      "FERRET_DB_READ",
    );
  });

  it("is refused with a SQLite db, naming the setting", async () => {
    const { createFerret } = await import("../ferret.js");
    await expect(createFerret({ db: ":memory:", dbRead: "postgres://replica/kb" })).rejects.toMatchObject({
      name: "InvalidInputError",
      context: { field: "dbRead" },
    });
  });
});
