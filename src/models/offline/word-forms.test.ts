import { describe, expect, it } from "vitest";
import { termSet } from "../../text/overlap.js";
import { formCoverage, formKeys, formsOf, hasForm } from "./word-forms.js";

describe("word forms", () => {
  const forms = (text: string) => formsOf(termSet(text));

  it("matches a word with a form that adds a few letters, either way round", () => {
    expect(hasForm(forms("The crates were sanitised at once."), "sanitise")).toBe(true);
    expect(hasForm(forms("Every crate must sanitise first."), "sanitised")).toBe(true);
    expect(hasForm(forms("A reading taken after inspection."), "inspected")).toBe(true);
  });

  it("does not match words that only share a short start or go on much longer", () => {
    expect(hasForm(forms("The signal was lost."), "sign")).toBe(false);
    expect(hasForm(forms("An international crate."), "intern")).toBe(false);
    expect(hasForm(forms("Sanitation of the crates."), "sanity")).toBe(false);
  });

  it("matches words with digits and CJK words only exactly", () => {
    expect(formKeys("v12345")).toEqual(["v12345"]);
    expect(formKeys("倉庫管理規程")).toEqual(["倉庫管理規程"]);
    expect(hasForm(forms("batch 123456"), "12345")).toBe(false);
  });

  it("gives the share of wanted words held in some form", () => {
    const have = forms("Lorries are quarantined for cleaning when the seal breaks.");
    expect(formCoverage(["quarantine", "cleanings", "ferry"], have)).toBeCloseTo(2 / 3);
    expect(formCoverage([], have)).toBe(0);
  });
});
