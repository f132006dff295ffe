import { describe, expect, it } from "vitest";
import { dateLabel, newer, versionOf } from "./freshness.js";

describe("newer", () => {
  it("prefers the higher version in the title over the later edit date", () => {
    const v3 = { docId: "sla-v3.md", title: "Delivery SLA v3", updatedAt: "2026-05-01" };
    const v4 = { docId: "sla-v4.md", title: "Delivery SLA v4", updatedAt: "2026-01-10" };
    expect(newer(v4, v3)).toBeGreaterThan(0);
    expect(newer(v3, v4)).toBeLessThan(0);
  });

  it("falls back to updated_at, then a date in the title, else says nothing", () => {
    expect(newer({ docId: "a", updatedAt: "2026-04-15" }, { docId: "b", updatedAt: "2025-12-01" })).toBeGreaterThan(0);
    expect(newer({ docId: "a", title: "Rules 2024" }, { docId: "b", title: "Rules 2026" })).toBeLessThan(0);
    expect(newer({ docId: "a" }, { docId: "b" })).toBe(0);
  });
});

describe("versionOf and dateLabel", () => {
  it("reads versions, not digits of other words", () => {
    expect(versionOf("Connect API v2.4 changelog")).toEqual([2, 4]);
    expect(versionOf("server-v2")).toEqual([2]);
    expect(versionOf("INC-2026-014")).toBeUndefined();
    expect(dateLabel({ docId: "x", updatedAt: "2026-03-18" })).toBe("2026-03-18");
  });
});
