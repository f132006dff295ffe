import { InvalidArgumentError } from "commander";
import { describe, expect, it } from "vitest";
import { collectWith, isoDate, kValue, oneOf, positiveNumber, unitInterval, wholeNumber } from "./flag-parsers.js";

describe("flag parsers", () => {
  it("reads whole numbers in range and refuses everything else", () => {
    expect(kValue("5")).toBe(5);
    expect(kValue("100")).toBe(100);
    for (const bad of ["abc", "0", "101", "2.5", "1e2", "0x10", "", "-3", "9".repeat(40)]) {
      expect(() => kValue(bad)).toThrow(InvalidArgumentError);
    }
    expect(wholeNumber(1)("123456")).toBe(123456);
    expect(() => wholeNumber(1)("0")).toThrow("It must be a whole number of at least 1.");
  });

  it("reads positive numbers, ISO dates and fixed words", () => {
    expect(positiveNumber("0.5")).toBe(0.5);
    expect(() => positiveNumber("0")).toThrow(InvalidArgumentError);
    expect(() => positiveNumber("lots")).toThrow(InvalidArgumentError);
    expect(isoDate("2024-01-31")).toBe("2024-01-31");
    expect(isoDate("2024-01-31T12:00:00Z")).toBe("2024-01-31T12:00:00Z");
    expect(() => isoDate("2024-02-30")).toThrow("It must be an ISO date such as 2024-01-31.");
    expect(() => isoDate("31/01/2024")).toThrow(InvalidArgumentError);
    expect(oneOf(["a", "b"] as const)("b")).toBe("b");
    expect(() => oneOf(["a", "b"] as const)("c")).toThrow("It must be one of a, b.");
    expect(collectWith(kValue)("3", [1])).toEqual([1, 3]);
  });

  it("reads shares from 0 to 1 (--min-confidence)", () => {
    expect(unitInterval("0")).toBe(0);
    expect(unitInterval("0.45")).toBe(0.45);
    expect(unitInterval("1")).toBe(1);
    for (const bad of ["1.5", "-0.1", "", ".", "abc", "1e-1"])
      expect(() => unitInterval(bad)).toThrow(InvalidArgumentError);
  });
});
