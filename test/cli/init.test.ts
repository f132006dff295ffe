import { existsSync, readFileSync } from "node:fs";
import { mkdir, readdir, writeFile } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { configFileSchema } from "../../src/config/config-schema.js";
import { ferret, tempDir } from "./run-cli.js";

/** A small project: a handbook folder (English and German), a people folder and a CSV table. */
async function fixtureProject(): Promise<string> {
  const dir = await tempDir("ferret-init-");
  await mkdir(join(dir, "handbook"));
  await mkdir(join(dir, "people"));
  await mkdir(join(dir, "node_modules", "dep"), { recursive: true });
  await writeFile(
    join(dir, "handbook", "gateway.md"),
    "# Telemetry Gateway\n\nThe Telemetry Gateway is owned by the Data Platform Team, led by Ines Duarte.\n",
  );
  await writeFile(
    join(dir, "handbook", "pruefstand.md"),
    "# Prüfstand Mesa-2\n\nAm Prüfstand Mesa-2 gilt: Schutzbrille tragen, Zutritt nur mit Einweisung.\n",
  );
  await writeFile(join(dir, "people", "bands.md"), "# Salary bands\n\nBand E4 pays 120,000 to 150,000 EUR.\n");
  await writeFile(join(dir, "node_modules", "dep", "readme.md"), "# not a source\n");
  await writeFile(join(dir, "tickets.csv"), "id,title,status\nT-1,Gateway returns 500,open\nT-2,Login slow,closed\n");
  return dir;
}

describe("ferret init --yes", () => {
  it("writes a valid config with a $schema line, ingests the folder and answers a question from its content", async () => {
    const dir = await fixtureProject();
    const run = await ferret(["init", dir, "--yes"]);
    expect(run.code, run.stderr).toBe(0);
    const file = join(dir, "ferret.config.json");
    const config = configFileSchema.parse(JSON.parse(readFileSync(file, "utf8")));
    expect(existsSync(resolve(dirname(file), config.$schema ?? "missing"))).toBe(true);
    expect(config.model).toBe("offline");
    expect(config.embedder).toBe("none");
    expect(config.sources?.map((s) => [s.name, s.path])).toEqual([
      ["handbook", "handbook"],
      ["people", "people"],
      ["tickets", "tickets.csv"],
    ]);
    const handbook = config.sources?.[0];
    expect(handbook?.description).toContain("2 documents");
    expect(handbook?.description).toContain("Telemetry Gateway");
    expect(handbook?.description).toContain("Prüfstand Mesa-2");
    expect(existsSync(join(dir, ".ferret", "ferret.db"))).toBe(true);
    expect(run.stderr).toContain(`wrote ${file} (3 sources)`);
    expect(run.stderr).toMatch(/ingested 5 documents/);
    expect(run.stdout).toMatch(/^\? What is "[^"]+" about\?$/m);
    expect(run.stdout).toContain("— answered");

    // The folder now works as a project: the commands find the config and the store from inside it.
    const sources = await ferret(["sources", "--json"], { cwd: dir });
    expect((JSON.parse(sources.stdout) as { name: string }[]).map((s) => s.name)).toEqual([
      "handbook",
      "people",
      "tickets",
    ]);
    const asked = await ferret(["ask", "Who leads the team that owns the Telemetry Gateway?", "--json"], { cwd: dir });
    expect((JSON.parse(asked.stdout) as { text: string }).text).toContain("Ines Duarte");
  });

  it("--json reports what was written and ingested; flags choose the preset", async () => {
    const dir = await fixtureProject();
    const run = await ferret(["init", dir, "--yes", "--json", "--preset", "thorough"]);
    expect(run.code, run.stderr).toBe(0);
    const out = JSON.parse(run.stdout) as { config: string; documents: number; question: string };
    expect(out.config).toBe(join(dir, "ferret.config.json"));
    expect(out.documents).toBe(5);
    expect(out.question).toMatch(/about\?$/);
    expect(JSON.parse(readFileSync(out.config, "utf8")).ask.preset).toBe("thorough");
  });

  it("does not replace an existing config without --force", async () => {
    const dir = await fixtureProject();
    await writeFile(join(dir, "ferret.config.json"), "{}\n");
    const run = await ferret(["init", dir, "--yes"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("ferret.config.json exists; edit it, or pass --force");
    expect(readFileSync(join(dir, "ferret.config.json"), "utf8")).toBe("{}\n");
    expect((await ferret(["init", dir, "--yes", "--force"])).code).toBe(0);
  });

  it("asks for --yes when there is no terminal, and names an empty folder", async () => {
    const dir = await fixtureProject();
    const noTty = await ferret(["init", dir]);
    expect(noTty.code).toBe(2);
    expect(noTty.stderr).toContain("no terminal to ask on: pass --yes");
    const empty = await tempDir();
    const run = await ferret(["init", empty, "--yes"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(
      `found no documents (.md, .txt, .html, .pdf, .docx) or tables (.csv, .jsonl) under ${empty}`,
    );
    expect(await readdir(empty)).toEqual([]);
  });
});
