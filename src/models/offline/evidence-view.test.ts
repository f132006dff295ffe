import { describe, expect, it } from "vitest";
import { unitsOf } from "./evidence-view.js";

describe("unitsOf", () => {
  const page = [
    "# Parcel lockers",
    "",
    "Lockers open at dawn.",
    "",
    "## Limits",
    "",
    "| Field | Type | Notes |",
    "|---|---|---|",
    "| weight | number | Kilograms. At most **12** per parcel. |",
    "",
    "## Fees",
    "",
    "Storage costs 2 tokens a day. A lost key costs 9 tokens.",
  ].join("\n");
  const units = unitsOf(page);

  it("keeps a table row whole though a cell holds a full stop", () => {
    const row = units.find((u) => u.header !== undefined);
    expect(row?.text).toBe("| weight | number | Kilograms. At most **12** per parcel. |");
    expect(units.some((u) => u.text.startsWith("At most"))).toBe(false);
    expect(page.slice(row!.start, row!.end)).toBe(row!.text);
  });

  it("still splits prose into sentences", () => {
    expect(units.map((u) => u.text)).toContain("A lost key costs 9 tokens.");
  });

  it("tells each unit the heading it sits under", () => {
    const headingOf = (text: string) => units.find((u) => u.text.includes(text))?.heading;
    expect(headingOf("Lockers open")).toBe("Parcel lockers");
    expect(headingOf("At most")).toBe("Limits");
    expect(headingOf("lost key")).toBe("Fees");
    expect(headingOf("# Parcel lockers")).toBeUndefined();
  });
});
