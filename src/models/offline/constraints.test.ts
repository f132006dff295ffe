import { describe, expect, it } from "vitest";
import { constraintsOf, coverConstraints } from "./constraints.js";

const kinds = (q: string) => constraintsOf(q).map((c) => `${c.kind}:${c.value}`);

describe("constraintsOf", () => {
  it("reads years, quarters, months, versions, identifiers, names and numbers", () => {
    expect(kinds("What notice period did the 2019 hazardous cargo rules require?")).toEqual(["year:2019"]);
    expect(kinds("Did Pellham or Corvane haul more cargo volume in Q3 2027?")).toEqual(
      expect.arrayContaining(["year:2027", "quarter:Q3", "name:pellham", "name:corvane"]),
    );
    expect(kinds("How many parcels were dispatched in April 2027?")).toEqual(["year:2027", "month:M4"]);
    expect(kinds("How did the upload quota change in Relay v3.7?")).toContain("version:v3.7");
    expect(kinds("What happened in VR-41?")).toEqual(["identifier:vr-41"]);
    expect(kinds("Can drivers use the 10-hour extension?")).toEqual(["number:10"]);
  });

  it("reads quarters and months in German, Chinese and Japanese", () => {
    expect(kinds("Wie viele Sendungen im 2. Quartal 2025?")).toEqual(["year:2025", "quarter:Q2"]);
    expect(kinds("2025年第三季度的发货量")).toEqual(expect.arrayContaining(["year:2025", "quarter:Q3"]));
    expect(kinds("2026年3月の出荷件数")).toEqual(expect.arrayContaining(["year:2026", "month:M3"]));
  });

  it("does not read a path segment as a version, nor German nouns as names", () => {
    expect(kinds("What is the timeout of POST /v2/refunds?")).toContain("identifier:/v2/refunds");
    expect(kinds("What is the timeout of POST /v2/refunds?").some((k) => k.startsWith("version"))).toBe(false);
    expect(kinds("Wie viele Wochen haben Mieter nach der Übergabe Zeit?")).toEqual([]);
  });

  it("reads Latin names and the qualified place in Chinese and Japanese questions", () => {
    expect(kinds("Tidewaterの40フィートコンテナの運賃はいくらですか")).toEqual(
      expect.arrayContaining(["name:tidewater", "number:40"]),
    );
    expect(kinds("名古屋倉庫の入荷受付時間は何時からですか")).toContain("name:名古屋倉庫");
  });
});

describe("coverConstraints", () => {
  it("covers what the evidence states, and nothing when there is nothing to cover", () => {
    const c = constraintsOf("What was Pellham's on-time rate in Q3 2027?");
    expect(coverConstraints(c, "Pellham Air | Q3 2027 on-time: 93.0%").share).toBe(1);
    expect(coverConstraints([], "anything").share).toBe(1);
  });

  it("counts a quarter as covered by a date in it", () => {
    const c = constraintsOf("How many shipments in Q2?");
    expect(coverConstraints(c, "KF-1 booked_on 2026-05-03").share).toBe(1);
    expect(coverConstraints(c, "KF-1 booked_on 2026-01-03").share).toBe(0);
  });

  it("reports a near miss: evidence about another year or version than asked", () => {
    const c = constraintsOf("What notice period did the 2019 hazardous cargo rules require?");
    const cov = coverConstraints(c, "This edition (2022) replaces the 2021 edition. Book 72 hours ahead.");
    expect(cov.share).toBe(0);
    expect(cov.nearMiss).toEqual([{ constraint: c[0], found: ["2021", "2022"] }]);
    const v = coverConstraints(constraintsOf("What changed in v2.4?"), "Changes in v2.3: batch limit 500.");
    expect(v.nearMiss.map((m) => m.found)).toEqual([["v2.3"]]);
  });

  it("is no near miss when one of two asked values is found, or when no other value is", () => {
    const two = constraintsOf("What did v1 allow, and what does v2 allow?");
    expect(coverConstraints(two, "In v1 the limit was 100.").nearMiss).toEqual([]);
    const none = coverConstraints(constraintsOf("the 2019 rules"), "Book 72 hours ahead.");
    expect(none.nearMiss).toEqual([]);
    expect(none.missing.map((m) => m.value)).toEqual(["2019"]);
  });

  it("gives partial credit for part of a name", () => {
    const c = constraintsOf("What is the cap for Pellham Air Lines?");
    const share = coverConstraints(c, "Pellham: 31 SDR per kg").share;
    expect(share).toBeGreaterThan(0);
    expect(share).toBeLessThan(1);
  });
});

describe("lettered classes", () => {
  it("reads a class letter after a word, and a near miss when the evidence names only other letters", () => {
    expect(kinds("What discount do members in band C receive?")).toContain("class:band c");
    expect(kinds("Can I park here?").some((k) => k.startsWith("class"))).toBe(false);
    const asked = constraintsOf("What discount do members in band C receive?");
    const miss = coverConstraints(asked, "Band: A. Discount: 5%. Members in band B get 8%.");
    expect(miss.nearMiss).toEqual([
      { constraint: expect.objectContaining({ kind: "class" }), found: ["band A", "band B"] },
    ]);
    expect(coverConstraints(asked, "Members in band C get 12%.").nearMiss).toEqual([]);
  });
});
