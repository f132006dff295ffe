import { spawn } from "node:child_process";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { IngestSummary } from "../../src/ingest/ingest.js";
import type { SourceInfo } from "../../src/spec/source.js";
import { BIN, ferret, ferretJson, ROOT, tempDir } from "./run-cli.js";

const FILES = 2000;
const WORDS =
  "anchor beacon cobalt dynamo ember falcon glacier harbor iris jetty kelp lantern meteor nebula orbit pylon quartz relay sonar tundra umbra vortex willow xenon yarrow zenith".split(
    " ",
  );
const QUERIES = ["item1234 nebula relay", "falcon glacier harbor", "note 1999 zenith", "pylon quartz item0007"];

/** Writes `FILES` small Markdown notes with varied vocabulary, so searches rank them distinctly. */
async function generateCorpus(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true });
  const writes: Promise<void>[] = [];
  for (let i = 0; i < FILES; i++) {
    const id = String(i).padStart(4, "0");
    const paragraphs = [0, 1, 2].map((p) => {
      const words = Array.from(
        { length: 40 + ((i + p) % 25) },
        (_, w) => WORDS[(i * 7 + p * 13 + w * w) % WORDS.length],
      );
      return `${words.join(" ")} item${id}.`;
    });
    writes.push(writeFile(join(dir, `note-${id}.md`), `# Note ${i}\n\n${paragraphs.join("\n\n")}\n`));
  }
  await Promise.all(writes);
}

/** Starts an ingest and SIGKILLs it 300 ms after its first progress line; resolves with how it ended. */
function killedIngest(
  folder: string,
  db: string,
): Promise<{ signal: NodeJS.Signals | null; code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, "ingest", folder, "--db", db], {
      cwd: ROOT,
      stdio: ["ignore", "ignore", "pipe"],
    });
    let stderr = "";
    let timer: NodeJS.Timeout | undefined;
    child.stderr.setEncoding("utf8").on("data", (d: string) => {
      stderr += d;
      timer ??= setTimeout(() => child.kill("SIGKILL"), 300);
    });
    child.on("error", reject);
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stderr });
    });
  });
}

async function snapshot(db: string) {
  const sources = await ferretJson<SourceInfo[]>(["sources", "--db", db]);
  const searches = await Promise.all(
    QUERIES.map(async (q) => {
      const hits = await ferretJson<{ id: string; score: number; text: string }[]>([
        "search",
        q,
        "--k",
        "5",
        "--db",
        db,
      ]);
      return hits.map((h) => ({ id: h.id, score: h.score, text: h.text }));
    }),
  );
  return { counts: sources.map((s) => ({ name: s.name, documents: s.documents, chunks: s.chunks })), searches };
}

describe("ferret ingest killed part-way", () => {
  it("re-runs to the same documents, chunks and search results as a clean ingest", async () => {
    const dir = await tempDir("ferret-crash-");
    const corpus = join(dir, "notes");
    await generateCorpus(corpus);
    const crashedDb = join(dir, "crashed.db");
    const cleanDb = join(dir, "clean.db");

    const [clean, killed] = await Promise.all([
      ferretJson<IngestSummary>(["ingest", corpus, "--db", cleanDb]),
      killedIngest(corpus, crashedDb),
    ]);
    expect(clean).toMatchObject({ added: FILES, failed: [] });
    expect(killed.stderr).toMatch(/load \d+\/2000/);
    expect(killed.signal, "the ingest finished before it could be killed").toBe("SIGKILL");

    const rerun = await ferret(["ingest", corpus, "--db", crashedDb, "--json"]);
    expect(rerun.code, rerun.stderr).toBe(0);
    const resumed = JSON.parse(rerun.stdout) as IngestSummary;
    // Whatever the killed run committed is kept as is; the rest is added now; nothing is half-written.
    expect(resumed.added + resumed.unchanged).toBe(FILES);
    expect(resumed).toMatchObject({ updated: 0, removed: 0, failed: [] });

    const [a, b] = await Promise.all([snapshot(crashedDb), snapshot(cleanDb)]);
    expect(a.counts).toEqual([{ name: "notes", documents: FILES, chunks: clean.chunks }]);
    expect(a.counts).toEqual(b.counts);
    for (const hits of b.searches) expect(hits.length).toBeGreaterThan(0);
    expect(a.searches).toEqual(b.searches);
    expect(b.searches[0]?.[0]?.id).toBe("note-1234.md::0");
  });
});
