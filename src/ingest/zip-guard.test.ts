import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  BOMB_ENTRY,
  lieAboutSize,
  writeZipBombCorpus,
  type ZipBombCorpus,
} from "../../test/fixtures/hostile/zip-bomb.js";
import { InvalidInputError, LimitExceededError } from "../spec/errors.js";
import { DEFAULT_INGEST_LIMITS } from "./limits.js";
import { checkZip } from "./zip-guard.js";

const MB = 1024 * 1024;
let dir: string;
let corpus: ZipBombCorpus;
const limits = { ...DEFAULT_INGEST_LIMITS, maxZipBytes: 4 * MB, maxZipEntries: 50 };

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "ferret-zip-"));
  corpus = await writeZipBombCorpus({ dir, declaredOverBytes: 8 * MB, inflatesTo: 64 * MB, entries: 60 });
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function failure(name: string): Promise<Error> {
  const bytes = await readFile(join(dir, name));
  const error = await checkZip({ bytes, relPath: name, kind: ".docx file", limits }).then(
    () => undefined,
    (e: unknown) => e as Error,
  );
  if (!error) throw new Error(`expected ${name} to be refused`);
  return error;
}

describe("checkZip", () => {
  it("refuses a zip whose declared sizes exceed the cap, before inflating", async () => {
    const error = await failure(corpus.declaredOver);
    expect(error).toBeInstanceOf(LimitExceededError);
    expect(error.message).toMatch(
      /^bomb-declared\.docx: zip declares \d+ uncompressed bytes, over the cap of 4194304 \(maxZipBytes\)$/,
    );
  });

  it("stops a zip that lies about its sizes at the first chunk past the declared size", async () => {
    const error = await failure(corpus.lying);
    expect(error).toBeInstanceOf(InvalidInputError);
    expect(error.message).toMatch(
      /^bomb-lying\.docx: not a readable \.docx file \(entry "word\/document\.xml" inflates past its declared 1024 bytes\)$/,
    );
  });

  it("inflates a lying entry only to the first chunk past its declared size, not to what it holds", async () => {
    const error = (await failure(corpus.lying)) as InvalidInputError;
    expect(error.context).toMatchObject({ file: "bomb-lying.docx", entry: BOMB_ENTRY, declared: 1024 });
    expect(error.context.inflated).toBeGreaterThan(1024);
    expect(error.context.inflated).toBeLessThan(MB);
    expect(corpus.inflatesTo).toBe(64 * MB);
  });

  it("refuses a lie that claims more than the cap before inflating", async () => {
    const bytes = lieAboutSize(await readFile(join(dir, corpus.lying)), BOMB_ENTRY, 100 * MB);
    const error = await checkZip({ bytes, relPath: "x.docx", kind: ".docx file", limits }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LimitExceededError);
    expect((error as LimitExceededError).context).toMatchObject({ limit: "maxZipBytes", cap: 4 * MB });
  });

  it("refuses more entries than the entry cap", async () => {
    const error = await failure(corpus.manyEntries);
    expect(error).toBeInstanceOf(LimitExceededError);
    expect(error.message).toBe("bomb-entries.docx: zip holds 63 entries, over the cap of 50 (maxZipEntries)");
  });

  it("passes a valid DOCX and reports bytes that are not a zip as unreadable", async () => {
    const bytes = await readFile(join(dir, corpus.valid));
    await expect(checkZip({ bytes, relPath: "ok.docx", kind: ".docx file", limits })).resolves.toEqual(new Map());
    const kept = await checkZip({
      bytes,
      relPath: "ok.docx",
      kind: ".docx file",
      limits,
      keep: (n) => n.endsWith(".xml"),
    });
    expect(kept.get("word/document.xml")?.toString("utf8")).toMatch(/^<\?xml/);
    const error = await checkZip({
      bytes: new TextEncoder().encode("not a zip"),
      relPath: "fake.docx",
      kind: ".docx file",
      limits,
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidInputError);
    expect((error as Error).message).toMatch(/^fake\.docx: not a readable \.docx file/);
  });
});
