import { describe, expect, it } from "vitest";
import { describeRange, findDateRanges } from "./dates.js";

const spans = (text: string, defaultYear?: number) =>
  findDateRanges(text, { defaultYear }).map(({ start, end }) => [start, end]);

describe("findDateRanges", () => {
  it("reads months, quarters, halves, years, days and ISO ranges as half-open ranges", () => {
    expect(spans("created in march 2026")).toEqual([["2026-03-01", "2026-04-01"]]);
    expect(spans("between 2027-02-01 and 2027-05-31")).toEqual([["2027-02-01", "2027-06-01"]]);
    expect(spans("in q2 2026")).toEqual([["2026-04-01", "2026-07-01"]]);
    expect(spans("in the fourth quarter of 2025")).toEqual([["2025-10-01", "2026-01-01"]]);
    expect(spans("during the first half of 2024")).toEqual([["2024-01-01", "2024-07-01"]]);
    expect(spans("in 2026")).toEqual([["2026-01-01", "2027-01-01"]]);
    expect(spans("on march 5, 2026 or 7 april 2026")).toEqual([
      ["2026-03-05", "2026-03-06"],
      ["2026-04-07", "2026-04-08"],
    ]);
    expect(spans("from november 2025 to february 2026")).toEqual([["2025-11-01", "2026-03-01"]]);
  });

  it("takes the year written elsewhere, else the default, else skips the phrase", () => {
    expect(spans("q3 2027 (july to september)")).toEqual([
      ["2027-07-01", "2027-10-01"],
      ["2027-07-01", "2027-10-01"],
    ]);
    expect(spans("in may", 2025)).toEqual([["2025-05-01", "2025-06-01"]]);
    expect(spans("in may")).toEqual([]);
  });

  it("opens a range after since, after, before and until", () => {
    expect(spans("since may 2026")).toEqual([["2026-05-01", undefined]]);
    expect(spans("after may 2026")).toEqual([["2026-06-01", undefined]]);
    expect(spans("before 2026-03-01")).toEqual([[undefined, "2026-03-01"]]);
    expect(spans("until march 2026")).toEqual([[undefined, "2026-04-01"]]);
  });

  it("does not read verbs, amounts or impossible dates as dates", () => {
    expect(spans("how many may be late", 2026)).toEqual([]);
    expect(spans("orders over 2000 dollars")).toEqual([]);
    expect(spans("on 2026-02-30")).toEqual([]);
  });
});

describe("describeRange", () => {
  it("names the inclusive last day", () => {
    expect(describeRange("created_at", { start: "2026-03-01", end: "2026-04-01" })).toBe(
      "created_at between 2026-03-01 and 2026-03-31",
    );
    expect(describeRange("d", { start: "2026-03-05", end: "2026-03-06" })).toBe("d on 2026-03-05");
    expect(describeRange("d", { start: "2026-03-05" })).toBe("d on or after 2026-03-05");
    expect(describeRange("d", { end: "2026-03-05" })).toBe("d on or before 2026-03-04");
  });
});

describe("findDateRanges in German, Japanese and Chinese, and relative to the data's latest date", () => {
  it("reads German month names, quarters and halves", () => {
    expect(spans("im februar 2027 nach portugal")).toEqual([["2027-02-01", "2027-03-01"]]);
    expect(spans("im märz", 2025)).toEqual([["2025-03-01", "2025-04-01"]]);
    expect(spans("im zweiten quartal 2026")).toEqual([["2026-04-01", "2026-07-01"]]);
    expect(spans("im ersten halbjahr 2025")).toEqual([["2025-01-01", "2025-07-01"]]);
  });

  it("reads Japanese and Chinese year-month, quarter and half-year forms", () => {
    expect(spans("2026年4月に大阪から")).toEqual([["2026-04-01", "2026-05-01"]]);
    expect(spans("4月の件数", 2025)).toEqual([["2025-04-01", "2025-05-01"]]);
    expect(spans("2026年第2四半期")).toEqual([["2026-04-01", "2026-07-01"]]);
    expect(spans("2025年上半期")).toEqual([["2025-01-01", "2025-07-01"]]);
    expect(spans("2026年的订单")).toEqual([["2026-01-01", "2027-01-01"]]);
  });

  it("reads a span of days within one month", () => {
    expect(spans("shipped between 21 and 25 october 2027")).toEqual([["2027-10-21", "2027-10-26"]]);
    expect(spans("april 3 to 9, 2026")).toEqual([["2026-04-03", "2026-04-10"]]);
  });

  it("counts last month, this quarter and the past N days back from the latest date, not from today", () => {
    const latest = (text: string) =>
      findDateRanges(text, { latest: "2025-06-20" }).map(({ start, end }) => [start, end]);
    expect(latest("placed last month")).toEqual([["2025-05-01", "2025-06-01"]]);
    expect(latest("this quarter")).toEqual([["2025-04-01", "2025-07-01"]]);
    expect(latest("last quarter")).toEqual([["2025-01-01", "2025-04-01"]]);
    expect(latest("booked this half-year")).toEqual([["2025-01-01", "2025-07-01"]]);
    expect(latest("in the last half year")).toEqual([["2024-07-01", "2025-01-01"]]);
    expect(latest("im laufenden halbjahr")).toEqual([["2025-01-01", "2025-07-01"]]);
    expect(latest("今半期")).toEqual([["2025-01-01", "2025-07-01"]]);
    expect(findDateRanges("this half-year", { latest: "2025-10-02" }).map((r) => r.start)).toEqual(["2025-07-01"]);
    expect(latest("in the past 10 days")).toEqual([["2025-06-11", "2025-06-21"]]);
    expect(latest("in the last 2 months")).toEqual([["2025-04-21", "2025-06-21"]]);
    expect(latest("im letzten monat")).toEqual([["2025-05-01", "2025-06-01"]]);
    expect(latest("先月の出荷")).toEqual([["2025-05-01", "2025-06-01"]]);
    expect(latest("过去30天")).toEqual([["2025-05-22", "2025-06-21"]]);
    // German inflections, weeks (Monday to Sunday) and the Japanese and Chinese week and year words.
    expect(latest("letztes jahr")).toEqual([["2024-01-01", "2025-01-01"]]);
    expect(latest("in der vergangenen woche")).toEqual([["2025-06-09", "2025-06-16"]]);
    expect(latest("this week")).toEqual([["2025-06-16", "2025-06-23"]]);
    expect(latest("先週の件数")).toEqual([["2025-06-09", "2025-06-16"]]);
    expect(latest("上周的订单")).toEqual([["2025-06-09", "2025-06-16"]]);
    expect(latest("本年の売上")).toEqual([["2025-01-01", "2026-01-01"]]);
    expect(latest("revenue year to date")).toEqual([["2025-01-01", "2026-01-01"]]);
    expect(latest("booked yesterday")).toEqual([["2025-06-19", "2025-06-20"]]);
    // A month without a year falls in the latest date's year.
    expect(latest("in march")).toEqual([["2025-03-01", "2025-04-01"]]);
    // Without a latest date there is nothing to count back from.
    expect(spans("last month")).toEqual([]);
  });
});
