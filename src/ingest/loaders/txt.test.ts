import { describe, expect, it } from "vitest";
import { fixture } from "../../../test/fixtures/ingest/fixtures.js";
import { loadText } from "./txt.js";

describe("loadText", () => {
  it("uses a short first line as the title and keeps the text", async () => {
    const { docs } = await loadText({
      bytes: new TextEncoder().encode("Pad rules\n\nNo phones on the pad.\n"),
      relPath: "rules.txt",
    });
    expect(docs[0]).toMatchObject({ id: "rules.txt", title: "Pad rules", text: "Pad rules\n\nNo phones on the pad." });
  });

  it("falls back to the file name for a one-line file", async () => {
    const { docs } = await loadText({ bytes: new TextEncoder().encode("only one line"), relPath: "dir/one.txt" });
    expect(docs[0]?.title).toBe("one");
  });

  it("decodes invalid UTF-8 with U+FFFD and a warning, keeping the valid text", async () => {
    const { docs, warnings } = await loadText({ bytes: fixture("invalid-utf8.txt"), relPath: "invalid-utf8.txt" });
    expect(docs[0]?.text).toContain("The café opens at 8:00.");
    expect(docs[0]?.text).toContain("\uFFFD");
    expect(docs[0]?.text).toContain("Second line.");
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/invalid UTF-8/);
  });
});
