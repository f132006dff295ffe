import { describe, expect, it } from "vitest";
import { extractEntities, mentions } from "./entities.js";

const texts = (t: string) => extractEntities(t).map((e) => e.text);

describe("extractEntities", () => {
  it("finds identifiers, paths, IPs, emails and code names", () => {
    const found = texts("INC-2026-014 hit POST /v2/refunds from 10.0.0.5; mail ops@acme.io about refund-orchestrator.");
    expect(found).toEqual(
      expect.arrayContaining(["INC-2026-014", "/v2/refunds", "10.0.0.5", "ops@acme.io", "refund-orchestrator"]),
    );
  });

  it("finds capitalised names but not sentence-initial question words", () => {
    const found = texts("Who leads the team? The team lead is Hannah Cho, of Refunds & Disputes.");
    expect(found).toContain("Hannah Cho");
    expect(found).toContain("Refunds & Disputes");
    expect(found).not.toContain("Who");
    expect(found).not.toContain("The");
  });

  it("finds both people in a comparison question", () => {
    expect(texts("Are Christopher Nolan and Sathish Kalathil both film directors?")).toEqual([
      "Christopher Nolan",
      "Sathish Kalathil",
    ]);
  });

  it("matches mentions case-insensitively", () => {
    expect(mentions("Served by Refund-Orchestrator", "refund-orchestrator")).toBe(true);
  });
});
