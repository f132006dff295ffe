import { existsSync } from "node:fs";
import { mkdir, readdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ferret, tempDir } from "./run-cli.js";

/** A project folder: two small document folders and a config file naming them as sources. */
async function project(config: Record<string, unknown>): Promise<string> {
  const dir = await tempDir("ferret-project-");
  await mkdir(join(dir, "handbook"));
  await mkdir(join(dir, "people"));
  await writeFile(
    join(dir, "handbook", "gateway.md"),
    "# Telemetry Gateway\n\nThe Telemetry Gateway is owned by the Data Platform Team, led by Ines Duarte.\n",
  );
  await writeFile(
    join(dir, "people", "bands.md"),
    "# Salary bands\n\nEngineering band E4 pays between 120,000 and 150,000 EUR.\n",
  );
  await writeFile(join(dir, "ferret.config.json"), JSON.stringify(config, null, 2));
  return dir;
}

const SOURCES = [
  { path: "handbook", name: "handbook", description: "engineering handbook: teams and products" },
  { path: "people", name: "people", description: "salary bands", acl: ["hr"] },
];

describe("ferret.config.json", () => {
  it("`ferret ingest` without a path ingests the file's sources into the file's store; reads use it and its principal", async () => {
    const dir = await project({
      $schema: "./ferret.config.schema.json",
      db: "kb/store.db",
      as: "default:sam:",
      sources: SOURCES,
    });
    const ingest = await ferret(["ingest", "--json"], { cwd: dir });
    expect(ingest.code, ingest.stderr).toBe(0);
    expect((JSON.parse(ingest.stdout) as { sources: string[] }).sources).toEqual(["handbook", "people"]);
    expect(existsSync(join(dir, "kb", "store.db"))).toBe(true);
    expect(await readdir(dir)).not.toContain(".ferret");

    // The file's principal (sam, no hr role) reads only the open source; --as on the command line wins.
    const asSam = JSON.parse((await ferret(["sources", "--json"], { cwd: dir })).stdout) as {
      name: string;
      description: string;
    }[];
    expect(asSam.map((s) => s.name)).toEqual(["handbook"]);
    expect(asSam[0]?.description).toBe("engineering handbook: teams and products");
    const asOwner = JSON.parse(
      (await ferret(["sources", "--json", "--as", "default:owner:*"], { cwd: dir })).stdout,
    ) as { name: string }[];
    expect(asOwner.map((s) => s.name).sort()).toEqual(["handbook", "people"]);
  });

  it("`ferret config` shows each value and where it came from", async () => {
    const dir = await project({
      retrieval: "hierarchical",
      model: "offline",
      ask: { preset: "thorough", maxSteps: 4 },
    });
    const run = await ferret(["config", "--json", "--retrieval", "auto"], {
      cwd: dir,
      env: { FERRET_PRESET: "conservative" },
    });
    expect(run.code, run.stderr).toBe(0);
    const shown = JSON.parse(run.stdout) as {
      file: string;
      settings: Record<string, { value: unknown; from: string; name?: string }>;
    };
    expect(shown.file).toBe(join(dir, "ferret.config.json"));
    expect(shown.settings.retrieval).toEqual({ value: "auto", from: "flag", name: "--retrieval" });
    expect(shown.settings["ask.preset"]).toEqual({ value: "conservative", from: "env", name: "FERRET_PRESET" });
    expect(shown.settings["ask.maxSteps"]).toMatchObject({ value: 4, from: "file", name: "ask.maxSteps" });
    expect(shown.settings.embedder).toEqual({ value: "none", from: "default" });
    const human = await ferret(["config"], { cwd: dir });
    expect(human.stdout).toMatch(/^ask\.maxSteps\s+4\s+\S+ferret\.config\.json \(ask\.maxSteps\)\s+FERRET_MAX_STEPS$/m);
  });

  it("an apiKey written in a models entry is never printed", async () => {
    const dir = await project({ models: { "openai:gpt-4o-mini": { apiKey: "sk-secret-value" } } });
    const run = await ferret(["config", "--json"], { cwd: dir });
    expect(run.code).toBe(0);
    expect(run.stdout).not.toContain("sk-secret-value");
    expect(run.stdout).toContain('"apiKey": "(set)"');
  });

  it("an invalid file stops every command with exit 2, naming the file and the field, before anything is created", async () => {
    const dir = await project({ ask: { maxSteps: "five" } });
    for (const args of [["search", "gateway"], ["ingest", "handbook"], ["config"]]) {
      const run = await ferret(args, { cwd: dir });
      expect(run.code, args.join(" ")).toBe(2);
      expect(run.stderr).toContain(
        `ferret: config file ${join(dir, "ferret.config.json")}, field ask.maxSteps: Invalid input: expected number, received string`,
      );
    }
    expect(await readdir(dir)).not.toContain(".ferret");
  });

  it("an invalid environment variable is a usage error naming it", async () => {
    const dir = await tempDir();
    const run = await ferret(["config"], { cwd: dir, env: { FERRET_RETRIEVAL: "deep" } });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('ferret: environment variable FERRET_RETRIEVAL="deep": Invalid option');
  });

  it("`ferret ingest` with neither a path nor configured sources says what to do", async () => {
    const dir = await tempDir();
    const run = await ferret(["ingest"], { cwd: dir });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("name what to ingest (ferret ingest PATH), or list sources in ferret.config.json");
    expect(await readdir(dir)).toEqual([]);
  });
});
