import { existsSync } from "node:fs";
import { copyFile, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type IngestSummary, ingestPath } from "../../src/ingest/ingest.js";
import { createRetriever } from "../../src/retrieval/search.js";
import type { Principal } from "../../src/spec/principal.js";
import type { StoreV1 } from "../../src/spec/store.js";
import { createSqliteStore } from "../../src/stores/sqlite/index.js";
import { type EncodingCorpus, LEGACY_TEXTS, writeEncodingCorpus } from "../fixtures/hostile/encodings.js";
import { type FrontMatterCorpus, writeFrontMatterCorpus } from "../fixtures/hostile/front-matter.js";
import { ARTICLE, BOILERPLATE_WORDS, writeHtmlPages } from "../fixtures/hostile/html-pages.js";
import { type PathsCorpus, writeSymlinkCorpus } from "../fixtures/hostile/paths.js";
import { writeZipBombCorpus, type ZipBombCorpus } from "../fixtures/hostile/zip-bomb.js";
import { FIXTURES } from "../fixtures/ingest/fixtures.js";

const MB = 1024 * 1024;
const TENANT = "acme";
const OWNER: Principal = { tenant: TENANT, user: "t", roles: ["*"] };
const LIMITS = { maxFileBytes: 72_000, maxZipBytes: 4 * MB, maxZipEntries: 50 };
/**
 * Markdown of exactly `bytes` bytes. Most of it sits in a front-matter field (kept as metadata, not
 * chunked) so the file is large without making the chunker the slow part of this test.
 */
function markdownOf(bytes: number): string {
  const head = `---\nnotes: "${"crate ".repeat(10_000)}"\n---\n# Crates\n\n`;
  return head + "Crates are stacked three high. ".repeat(bytes).slice(0, bytes - head.length);
}
/** Ordinary files that must all be ingested next to the hostile ones: id -> a phrase of their text. */
const NORMAL: Record<string, string> = {
  "handbook.md": "Propellant",
  "de-wartung.md": "Wartung",
  "zh-test-procedure.md": "测试",
  "ja-launch-day.md": "打ち上げ",
  "page.html": "tracks rockets on S-band",
  "launch-checklist.pdf": "The pad crew arms the igniter 90 seconds before launch.",
  "at-cap.md": "Crates are stacked three high.",
};

let dir: string;
let corpusDir: string;
let store: StoreV1;
let summary: IngestSummary;
let front: FrontMatterCorpus;
let zips: ZipBombCorpus;
let paths: PathsCorpus;
let encodings: EncodingCorpus;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "ferret-hostile-"));
  corpusDir = join(dir, "corpus");
  await mkdir(corpusDir);
  for (const name of Object.keys(NORMAL).filter((n) => n !== "at-cap.md"))
    await copyFile(join(FIXTURES, name), join(corpusDir, name));
  await writeFile(join(corpusDir, "at-cap.md"), markdownOf(LIMITS.maxFileBytes));
  await writeFile(join(corpusDir, "over-cap.md"), markdownOf(LIMITS.maxFileBytes + 1));
  front = await writeFrontMatterCorpus({ dir: corpusDir, markerDir: dir });
  zips = await writeZipBombCorpus({ dir: corpusDir, declaredOverBytes: 8 * MB, inflatesTo: 32 * MB, entries: 60 });
  paths = await writeSymlinkCorpus({ root: corpusDir, outside: join(dir, "outside") });
  encodings = await writeEncodingCorpus({ dir: corpusDir });
  await writeHtmlPages({ dir: corpusDir });
  store = await createSqliteStore({ path: join(dir, "ferret.db") });
  summary = await ingestPath({ store, path: corpusDir, tenant: TENANT, source: "corpus", limits: LIMITS });
}, 120_000);

afterAll(async () => {
  await store?.close();
  await rm(dir, { recursive: true, force: true });
});

const reasonOf = (list: { file: string; reason: string }[], file: string) => list.find((e) => e.file === file)?.reason;

describe("ingesting a hostile corpus", () => {
  it("fails exactly the files with code in their front matter or a lying zip, naming the engine (the summary pairs each reason with its file)", () => {
    const failed = Object.fromEntries(summary.failed.map((f) => [f.file, f.reason]));
    expect(Object.keys(failed).sort()).toEqual([front.jsEngine, ...front.otherEngines, zips.lying].sort());
    expect(failed[front.jsEngine]).toBe(
      'front matter engine "js" is not supported: only YAML, TOML and JSON front matter is read, as data',
    );
    expect(failed["javascript-engine.md"]).toMatch(/^front matter engine "javascript"/);
    expect(failed["coffee-engine.md"]).toMatch(/^front matter engine "coffee"/);
    expect(failed[zips.lying]).toBe(
      'not a readable .docx file (entry "word/document.xml" inflates past its declared 1024 bytes)',
    );
  });

  it("never runs front-matter code", () => {
    expect(existsSync(front.marker)).toBe(false);
    expect((globalThis as Record<string, unknown>)[front.flag]).toBeUndefined();
  });

  it("skips exactly the files over a cap and the links that leave the root, each with its reason", () => {
    const expected: Record<string, RegExp> = {
      [front.aliasBomb]: /^front matter YAML aliases expand past the cap \(maxFrontMatterAliases = 50\)$/,
      [front.oversize]: /^front matter is \d+ bytes, over the 65536-byte cap \(maxFrontMatterBytes\)$/,
      [zips.declaredOver]: /^zip declares \d+ uncompressed bytes, over the cap of 4194304 \(maxZipBytes\)$/,
      [zips.manyEntries]: /^zip holds 63 entries, over the cap of 50 \(maxZipEntries\)$/,
      "over-cap.md": /^file is 72001 bytes, over the 72000-byte limit \(maxFileBytes\)$/,
      ...paths.skipped,
    };
    expect(summary.skipped.map((s) => s.file).sort()).toEqual(Object.keys(expected).sort());
    for (const [file, pattern] of Object.entries(expected)) expect(reasonOf(summary.skipped, file)).toMatch(pattern);
  });

  it("ingests every normal file, the followed links, TOML and JSON front matter, and the decoded encodings", async () => {
    const wanted: Record<string, string> = {
      ...NORMAL,
      ...paths.ingested,
      [front.toml]: "The pump is serviced every 90 days.",
      [front.json]: "Fuel was loaded at 06:00.",
      [zips.valid]: zips.validText,
      ...encodings.files,
      "pallet-surcharges.html": "Surcharges apply per pallet",
      "opening-hours.html": "HUB-12 | 19:00",
    };
    for (const [id, phrase] of Object.entries(wanted)) {
      const doc = await store.getDocument(id, OWNER);
      expect(doc, id).toBeDefined();
      expect(doc?.text, id).toContain(phrase.trim().split("\n").pop());
    }
    expect(summary.added).toBe(Object.keys(wanted).length);
    expect((await store.getDocument(front.toml, OWNER))?.title).toBe("Wartungsplan");
  });

  it("reads nothing outside the root: /etc/passwd and the outside folder are not in the store", async () => {
    expect(await store.getDocument("passwd.txt", OWNER)).toBeUndefined();
    const retriever = createRetriever({ store });
    expect(await retriever.search(paths.outsidePhrase, { principal: OWNER, k: 5 })).toEqual([]);
    expect(await retriever.search("root nologin bash", { principal: OWNER, k: 5 })).toEqual([]);
  });

  it("warns with the encoding used and finds the decoded words by search", async () => {
    for (const [file, encoding] of Object.entries(encodings.detected)) {
      expect(summary.warnings.find((w) => w.file === file)?.message).toMatch(
        new RegExp(`^not valid UTF-8; decoded as ${encoding} \\(detected`),
      );
    }
    const retriever = createRetriever({ store });
    for (const sample of Object.values(LEGACY_TEXTS)) {
      for (const word of sample.words.slice(0, 2)) {
        const hits = await retriever.search(word, { principal: OWNER, k: 5 });
        expect(
          hits.map((h) => h.docId),
          `${word} in ${sample.file}`,
        ).toContain(sample.file);
      }
    }
  });

  it("keeps boilerplate out of the HTML page's chunks and the table header with its rows", async () => {
    const ids = Array.from({ length: 10 }, (_, i) => `pallet-surcharges.html::${i}`);
    const chunks = await store.getChunks(ids, OWNER);
    expect(chunks.length).toBeGreaterThan(0);
    const text = chunks.map((c) => c.text).join("\n");
    for (const word of BOILERPLATE_WORDS) expect(text).not.toContain(word);
    for (const phrase of ARTICLE.phrases.filter((p) => !p.startsWith("#"))) expect(text).toContain(phrase);
    expect(
      chunks.some((c) => c.text.includes("Zone | Standard pallet | Oversize pallet\nNorth | 12 EUR | 18 EUR")),
    ).toBe(true);
  });
});
