import { describe, expect, it } from "vitest";
import { clockIn, labelNames, levelOf, orderedValue } from "./compare-values.js";

describe("clockIn", () => {
  it("reads a time of day in minutes, not a ratio, a version or a longer digit run", () => {
    expect(clockIn("last truck leaves at 09:45 local time")).toEqual({ minutes: 585, text: "09:45" });
    expect(clockIn("Abfahrt 7:05")).toEqual({ minutes: 425, text: "7:05" });
    expect(clockIn("version 2.4, ratio 3:1")).toBeUndefined();
    expect(clockIn("id 123:45")).toBeUndefined();
  });
});

describe("levelOf", () => {
  it("ranks whole rating values on one scale in several languages", () => {
    expect(levelOf("high")!).toBeGreaterThan(levelOf("medium")!);
    expect(levelOf("**Kritisch**")!).toBeGreaterThan(levelOf("hoch")!);
    expect(levelOf("低")!).toBeLessThan(levelOf("高")!);
    // Prose that merely contains a rating word is no rating.
    expect(levelOf("high demand in winter")).toBeUndefined();
  });
});

describe("labelNames", () => {
  it("matches a label word to an attribute word by its first letters", () => {
    expect(labelNames("severity", ["severe"])).toBe(1);
    expect(labelNames("Road", ["road", "cut", "off"])).toBe(1);
    expect(labelNames("colour", ["severe"])).toBe(0);
  });
});

describe("orderedValue", () => {
  it("reads the cell under the header naming the attribute", () => {
    const header = ["Depot", "Van", "Bike"];
    const v = orderedValue("| QXT | 16:10 | 12:20 |", header, ["van", "pickup"]);
    expect(v).toEqual({ kind: "clock", rank: 970, text: "16:10", labelled: true });
    expect(orderedValue("| QXT | 16:10 | 12:20 |", header, ["bike"])?.text).toBe("12:20");
  });

  it("reads a rating only from a labelled field", () => {
    expect(orderedValue("risk_level: medium", undefined, ["risk"])).toMatchObject({ kind: "level", labelled: true });
    expect(orderedValue("The risk was medium at worst", undefined, ["risk"])).toBeUndefined();
    expect(orderedValue("Opens at 06:30 sharp", undefined, ["opens"])).toMatchObject({
      kind: "clock",
      labelled: false,
    });
  });
});
