import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { fixture } from "../../test/fixtures/ingest/fixtures.js";
import { prose } from "../../test/fixtures/text/prose.js";
import { type ChunkOptions, chunkDocument } from "./chunker.js";
import { attachEntities } from "./entities-at-ingest.js";

/**
 * What chunking and entity extraction produce on normal text, pinned: ids, offsets, token counts, heading
 * paths, and a digest of each chunk's index text and entities. The snapshot was written by the code before
 * chunking became linear (sliced segmentation, counts summed per sentence), so this test shows the rewrite
 * changed nothing a search could see.
 */

const decoder = new TextDecoder();

const TEXTS: [string, () => string][] = [
  ["handbook.md", () => decoder.decode(fixture("handbook.md"))],
  ["zh-test-procedure.md", () => decoder.decode(fixture("zh-test-procedure.md"))],
  ["ja-launch-day.md", () => decoder.decode(fixture("ja-launch-day.md"))],
  ["de-wartung.md", () => decoder.decode(fixture("de-wartung.md"))],
  ["markdown", () => prose({ seed: 1, chars: 30_000, shape: "markdown" })],
  ["lines", () => prose({ seed: 2, chars: 20_000, shape: "lines" })],
  ["one-line", () => prose({ seed: 3, chars: 20_000, shape: "one-line" })],
  ["cjk", () => prose({ seed: 4, chars: 12_000, shape: "cjk" })],
  ["mixed", () => prose({ seed: 5, chars: 20_000, shape: "mixed" })],
];

const OPTIONS: ChunkOptions[] = [{}, { targetTokens: 60, maxTokens: 90 }, { mergeSections: true }];

function digest(value: string): string {
  return createHash("sha256").update(value).digest("hex").slice(0, 12);
}

describe("chunking and entities on normal text", () => {
  for (const [name, make] of TEXTS) {
    it(`${name}: chunks and entities are unchanged`, async () => {
      const text = make();
      const lines: string[] = [];
      for (const options of OPTIONS) {
        const doc = {
          id: name,
          source: "s",
          tenant: "t",
          title: `Golden ${name}`,
          text,
          acl: [],
          metadata: {},
          contentHash: "",
        };
        const { chunks } = attachEntities({ doc, chunks: chunkDocument({ doc, ...options }) });
        lines.push(`options ${JSON.stringify(options)}: ${chunks.length} chunks`);
        for (const c of chunks) {
          const indexed = digest(`${c.searchText}\u0000${JSON.stringify(c.entities)}`);
          lines.push(`${c.id} ${c.start}-${c.end} tokens=${c.tokens} [${c.section.join(" > ")}] ${indexed}`);
        }
      }
      await expect(`${lines.join("\n")}\n`).toMatchFileSnapshot(`__snapshots__/golden/${name}.txt`);
    });
  }
});
