import { describe, expect, it } from "vitest";
import { fixture } from "../../test/fixtures/ingest/fixtures.js";
import { countTokens, searchText } from "../text/tokenize.js";
import { type ChunkOptions, chunkDocument, chunkText } from "./chunker.js";
import { loadMarkdown } from "./loaders/md.js";

async function fixtureText(name: string): Promise<string> {
  const { docs } = await loadMarkdown({ bytes: fixture(name), relPath: name });
  return docs[0]?.text ?? "";
}

const FIXTURES = ["handbook.md", "zh-test-procedure.md", "ja-launch-day.md", "de-wartung.md"];
const SIZES: ChunkOptions[] = [{}, { targetTokens: 60, maxTokens: 90 }, { targetTokens: 20, maxTokens: 30 }];

describe("chunkDocument", () => {
  for (const name of FIXTURES) {
    for (const size of SIZES) {
      it(`${name} at ${JSON.stringify(size)}: text is the exact slice, nothing is lost, ids are ordinal`, async () => {
        const text = await fixtureText(name);
        const chunks = chunkDocument({ doc: { id: `kb/${name}`, text }, ...size });
        expect(chunks.length).toBeGreaterThan(0);
        const covered = new Uint8Array(text.length);
        chunks.forEach((chunk, i) => {
          expect(chunk.text).toBe(text.slice(chunk.start, chunk.end));
          expect(chunk.text).toBe(chunk.text.trim());
          expect(chunk.id).toBe(`kb/${name}::${i}`);
          expect(chunk.ordinal).toBe(i);
          expect(chunk.docId).toBe(`kb/${name}`);
          expect(chunk.tokens).toBe(countTokens(chunk.text));
          expect(chunk.tokens).toBeLessThanOrEqual(size.maxTokens ?? 384);
          expect(chunk.searchText).toBe(searchText(chunk.text));
          if (i > 0) expect(chunk.start).toBeGreaterThan((chunks[i - 1] as { start: number }).start);
          covered.fill(1, chunk.start, chunk.end);
        });
        for (let i = 0; i < text.length; i++)
          if (!/\s/.test(text[i] as string)) expect(covered[i], `char ${i}`).toBe(1);
      });
    }
  }

  it("follows the Markdown heading path", async () => {
    const text = await fixtureText("handbook.md");
    const chunks = chunkDocument({ doc: { id: "h.md", text }, targetTokens: 40, maxTokens: 60 });
    const humidity = chunks.find((c) => c.text.includes("below 60 percent"));
    expect(humidity?.section).toEqual(["Propellant Handling Guide", "Storage", "Humidity"]);
    expect(humidity?.text.startsWith("### Humidity")).toBe(true);
    expect(chunks.find((c) => c.text.includes("blue cart"))?.section).toEqual([
      "Propellant Handling Guide",
      "Transfer",
    ]);
  });

  it("splits Chinese and Japanese at sentence ends (。)", async () => {
    for (const name of ["zh-test-procedure.md", "ja-launch-day.md"]) {
      const text = await fixtureText(name);
      const chunks = chunkDocument({ doc: { id: name, text }, targetTokens: 60, maxTokens: 90 });
      expect(chunks.length).toBeGreaterThan(6);
      for (const chunk of chunks) {
        if (chunk.text.startsWith("#") && !chunk.text.includes("\n")) continue;
        expect(chunk.text, chunk.text).toMatch(/[。！？]$/);
      }
    }
  });

  it("repeats one sentence when it cuts inside a paragraph, none at a paragraph end", () => {
    const para = (n: number) =>
      Array.from({ length: 6 }, (_, i) => `Paragraph ${n} sentence ${i} talks about fins and nozzles.`).join(" ");
    const text = `${para(1)}\n\n${para(2)}`;
    const spans = chunkText({ text, targetTokens: 40, maxTokens: 50 });
    expect(spans.length).toBeGreaterThan(2);
    let overlaps = 0;
    for (let i = 1; i < spans.length; i++) {
      const prev = spans[i - 1] as { end: number };
      const cur = spans[i] as { start: number };
      const gap = text.slice(Math.min(cur.start, prev.end), Math.max(cur.start, prev.end));
      if (cur.start < prev.end) {
        overlaps++;
        expect(gap).toMatch(/^Paragraph \d sentence \d talks about fins and nozzles\.$/);
      } else {
        expect(gap.trim()).toBe("");
      }
    }
    expect(overlaps).toBeGreaterThan(0);
    const boundary = text.indexOf("Paragraph 2 sentence 0");
    expect(spans.some((s) => s.start === boundary)).toBe(true);
  });

  it("keeps a short document or a table row as one chunk", () => {
    const row = "ticket_id: T-1\ntitle: Valve stuck\npriority: high";
    const chunks = chunkDocument({ doc: { id: "t.csv#T-1", text: row } });
    expect(chunks).toHaveLength(1);
    expect(chunks[0]).toMatchObject({ id: "t.csv#T-1::0", text: row, start: 0, end: row.length, section: [] });
    const short = "# Title\n\n## A\n\none\n\n## B\n\ntwo";
    const one = chunkDocument({ doc: { id: "s.md", text: short } });
    expect(one).toHaveLength(1);
    expect(one[0]?.section).toEqual(["Title"]);
  });

  it("ignores # lines inside fenced code and splits over-long sentences at words", () => {
    const long = Array.from({ length: 120 }, (_, i) => `word${i}`).join(" ");
    const text = `# Top\n\n\`\`\`sh\n# not a heading\necho hi\n\`\`\`\n\n${long}`;
    const chunks = chunkDocument({ doc: { id: "c.md", text }, targetTokens: 30, maxTokens: 40 });
    expect(chunks.every((c) => c.section.join("/") === "Top")).toBe(true);
    expect(chunks.every((c) => c.tokens <= 40)).toBe(true);
    expect(chunks.length).toBeGreaterThan(4);
  });

  it("returns no chunks for blank text", () => {
    expect(chunkDocument({ doc: { id: "e", text: "  \n\n " } })).toEqual([]);
  });
});
