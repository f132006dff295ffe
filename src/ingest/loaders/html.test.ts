import { describe, expect, it } from "vitest";
import { fixture } from "../../../test/fixtures/ingest/fixtures.js";
import { chunkText } from "../chunker.js";
import { loadHtml } from "./html.js";

describe("loadHtml", () => {
  it("takes the <title>, drops scripts and styles, keeps headings as # lines", async () => {
    const { docs } = await loadHtml({ bytes: fixture("page.html"), relPath: "site/page.html" });
    const doc = docs[0];
    expect(doc?.title).toBe("Ground Station Manual");
    expect(doc?.updatedAt).toBe("2026-02-20");
    expect(doc?.text).toContain("# Ground Station");
    expect(doc?.text).toContain("## Antennas");
    expect(doc?.text).toContain("- Dish A: 3.7 m");
    expect(doc?.text).toContain("Station lead | Priya Nair");
    expect(doc?.text).toContain("tracks rockets on S-band at 2.2 GHz.");
    expect(doc?.text).toContain("Home & more");
    expect(doc?.text).not.toMatch(/do-not-index|also dropped|color: red|Ground Station Manual/);
  });

  it("gives the chunker sections to follow", async () => {
    const { docs } = await loadHtml({ bytes: fixture("page.html"), relPath: "page.html" });
    const spans = chunkText({ text: docs[0]?.text ?? "", targetTokens: 5, maxTokens: 30 });
    expect(spans.map((s) => s.section)).toContainEqual(["Ground Station", "Antennas"]);
  });

  it("falls back to the first <h1> when there is no <title>", async () => {
    const html = "<body><h1>Fin  Design</h1><p>Four fins.</p></body>";
    const { docs } = await loadHtml({ bytes: new TextEncoder().encode(html), relPath: "fins.html" });
    expect(docs[0]?.title).toBe("Fin Design");
    expect(docs[0]?.text).toBe("# Fin Design\n\nFour fins.");
  });
});
