import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { writeFrontMatterCorpus } from "../../../test/fixtures/hostile/front-matter.js";
import { fixture } from "../../../test/fixtures/ingest/fixtures.js";
import { InvalidInputError } from "../../spec/errors.js";
import { loadMarkdown } from "./md.js";

const bytes = (s: string) => new TextEncoder().encode(s);

describe("loadMarkdown", () => {
  it("reads front matter: title, updated_at as an ISO date, acl list, other keys as metadata", async () => {
    const { docs, warnings } = await loadMarkdown({ bytes: fixture("handbook.md"), relPath: "guides/handbook.md" });
    expect(warnings).toEqual([]);
    expect(docs).toHaveLength(1);
    const doc = docs[0];
    expect(doc?.id).toBe("guides/handbook.md");
    expect(doc?.title).toBe("Propellant Handling Guide");
    expect(doc?.updatedAt).toBe("2026-03-04");
    expect(doc?.acl).toEqual(["engineering", "safety"]);
    expect(doc?.metadata).toEqual({ owner: "Pad Operations", tags: ["propellant", "safety"] });
    expect(doc?.text.startsWith("# Propellant Handling Guide")).toBe(true);
    expect(doc?.text).not.toContain("owner:");
  });

  it("takes a comma-separated acl and a full timestamp", async () => {
    const { docs } = await loadMarkdown({ bytes: fixture("acl-string.md"), relPath: "acl-string.md" });
    expect(docs[0]?.acl).toEqual(["hr", "finance"]);
    expect(docs[0]?.updatedAt).toBe("2026-01-15T09:30:00Z");
    expect(docs[0]?.title).toBe("acl-string");
  });

  it("falls back to the first # heading, then the file name", async () => {
    const withHeading = await loadMarkdown({ bytes: bytes("intro\n\n# Real Title\n\ntext"), relPath: "a/b.md" });
    expect(withHeading.docs[0]?.title).toBe("Real Title");
    const withSub = await loadMarkdown({ bytes: fixture("notice.md"), relPath: "notice.md" });
    expect(withSub.docs[0]?.title).toBe("Opening hours");
    const bare = await loadMarkdown({ bytes: bytes("just text"), relPath: "folder/plain-note.md" });
    expect(bare.docs[0]?.title).toBe("plain-note");
  });

  it("names the file and line of broken front matter", async () => {
    const broken = bytes("---\ntitle: ok\nacl: [hr\n---\nbody");
    const error = await loadMarkdown({ bytes: broken, relPath: "bad.md" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidInputError);
    expect((error as InvalidInputError).context).toMatchObject({ file: "bad.md", field: "front matter" });
    expect((error as Error).message).toContain("bad.md");
  });

  it("warns about an updated_at that is not a date", async () => {
    const { docs, warnings } = await loadMarkdown({ bytes: bytes("---\nupdated_at: soon\n---\nx"), relPath: "x.md" });
    expect(docs[0]?.updatedAt).toBeUndefined();
    expect(warnings[0]).toContain("not a date");
  });

  it("never runs ---js front matter: the file fails naming the engine and the payload leaves no trace", async () => {
    const dir = await mkdtemp(join(tmpdir(), "ferret-md-"));
    try {
      const corpus = await writeFrontMatterCorpus({ dir, markerDir: dir });
      const bytes = await readFile(join(dir, corpus.jsEngine));
      const error = await loadMarkdown({ bytes, relPath: corpus.jsEngine }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(InvalidInputError);
      expect((error as Error).message).toMatch(/^js-engine\.md: front matter engine "js" is not supported/);
      expect(existsSync(corpus.marker)).toBe(false);
      expect((globalThis as Record<string, unknown>)[corpus.flag]).toBeUndefined();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("reads TOML and JSON front matter as data", async () => {
    const toml = await loadMarkdown({
      bytes: bytes('+++\ntitle = "Wartung"\nupdated_at = 2026-04-01\nacl = ["ops"]\nowner = "Pad"\n+++\n\nBody.'),
      relPath: "w.md",
    });
    expect(toml.docs[0]).toMatchObject({
      title: "Wartung",
      updatedAt: "2026-04-01",
      acl: ["ops"],
      metadata: { owner: "Pad" },
      text: "Body.",
    });
    const json = await loadMarkdown({
      bytes: bytes('---json\n{"title": "Log", "acl": "a, b"}\n---\nBody.'),
      relPath: "l.md",
    });
    expect(json.docs[0]).toMatchObject({ title: "Log", acl: ["a", "b"], text: "Body." });
  });
});
