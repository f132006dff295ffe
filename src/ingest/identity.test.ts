import { describe, expect, it } from "vitest";
import { identityWords, missingIdentity } from "./identity.js";

describe("identityWords", () => {
  it("gives a row's or a JSON line's key", () => {
    expect(identityWords("safety_reports.jsonl#NM-22").split(" ")).toEqual(expect.arrayContaining(["nm", "22"]));
    expect(identityWords("shipments.csv#KF-000688")).toContain("000688");
  });

  it("leaves out a key of digits alone", () => {
    expect(identityWords("passages.jsonl#17")).toBe("");
  });

  it("gives a file's name and the words of its stem", () => {
    const words = identityWords("hub_handbooks/ja/osaka-anzen-kisoku.md").split(" ");
    expect(words).toEqual(expect.arrayContaining(["osaka", "anzen", "kisoku"]));
    expect(words).not.toContain("hub_handbooks");
  });

  it("adds to a chunk only the identity words it and its title do not already hold", () => {
    expect(missingIdentity(identityWords("t.csv#T-1009"), "ticket_id t 1009 status open", "T-1009")).toBe("");
    expect(missingIdentity(identityWords("r.jsonl#NM-22"), "forklift hit a rack", "Forklift")).toBe("nm 22");
  });

  it("caps what it reads of a hostile id", () => {
    expect(identityWords(`x.jsonl#${"A".repeat(100_000)}`).length).toBeLessThanOrEqual(200);
  });
});
