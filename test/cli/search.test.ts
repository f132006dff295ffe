import { describe, expect, it } from "vitest";
import { acmeDb, ferret, ferretJson } from "./run-cli.js";

const KEYS = ["docId", "id", "score", "section", "source", "text", "title", "updatedAt"];
/** A sentence of hr_policies/oncall-pay.md, word for word. */
const HR_SENTENCE = "Engineers on the primary on-call rotation receive a stipend of $350 per week.";

interface Hit {
  id: string;
  docId: string;
  source: string;
  title?: string;
  section?: string;
  text: string;
  score: number;
  updatedAt?: string;
}

describe("ferret search --json", () => {
  it("returns passages with the passage keys and real values", async () => {
    const db = await acmeDb();
    const hits = await ferretJson<Hit[]>(["search", "maximum frame size", "--db", db, "--as", "acme:sam:support"]);
    expect(hits.length).toBeGreaterThan(0);
    expect(hits.length).toBeLessThanOrEqual(5);
    const top = hits[0]!;
    expect(Object.keys(top).sort()).toEqual(KEYS);
    expect(top).toMatchObject({
      docId: "handbook/services/telemetry-gateway.md",
      source: "handbook",
      title: "Telemetry Gateway",
    });
    expect(top.id.startsWith(top.docId)).toBe(true);
    expect(top.text).toContain("Maximum frame size");
    expect(top.updatedAt).toMatch(/^\d{4}-\d{2}-\d{2}/);
    // Scores are calibrated confidences in [0, 1] (rank order is BM25's, see src/retrieval/calibrate.ts).
    for (const h of hits) {
      expect(h.score).toBeGreaterThan(0);
      expect(h.score).toBeLessThanOrEqual(1);
    }
  });

  it("gives every passage the same keys, table rows included", async () => {
    const db = await acmeDb();
    const hits = await ferretJson<Hit[]>([
      "search",
      "frames rejected 413",
      "--k",
      "10",
      "--db",
      db,
      "--as",
      "acme:sam:support",
    ]);
    expect(hits.some((h) => h.source === "support_tickets")).toBe(true);
    for (const h of hits) expect(Object.keys(h).sort(), h.id).toEqual(KEYS);
  });

  it("honours --source and --k", async () => {
    const db = await acmeDb();
    const hits = await ferretJson<Hit[]>([
      "search",
      "telemetry frames",
      "--source",
      "support_tickets",
      "--k",
      "3",
      "--db",
      db,
      "--as",
      "acme:sam:support",
    ]);
    expect(hits).toHaveLength(3);
    for (const h of hits) expect(h.source).toBe("support_tickets");
  });

  it("never shows hr_policies to a reader without the hr role, even for its exact words", async () => {
    const db = await acmeDb();
    const sam = await ferret(["search", HR_SENTENCE, "--k", "20", "--db", db, "--as", "acme:sam:support", "--json"]);
    expect(sam.code).toBe(0);
    const samHits = JSON.parse(sam.stdout) as Hit[];
    expect(samHits.length).toBeGreaterThan(0);
    for (const h of samHits) expect(h.source, h.id).not.toBe("hr_policies");
    expect(sam.stdout).not.toContain("$350");
    // Naming the source explicitly does not widen it either.
    const named = await ferretJson<Hit[]>([
      "search",
      HR_SENTENCE,
      "--source",
      "hr_policies",
      "--db",
      db,
      "--as",
      "acme:sam:support",
    ]);
    expect(named).toEqual([]);

    const hana = await ferretJson<Hit[]>(["search", HR_SENTENCE, "--db", db, "--as", "acme:hana:hr"]);
    expect(hana[0]).toMatchObject({ source: "hr_policies", docId: "hr_policies/oncall-pay.md" });
    expect(hana[0]?.text).toContain("$350 per week");
  });
});
