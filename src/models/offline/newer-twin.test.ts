import { describe, expect, it } from "vitest";
import { unitOf } from "./__fixtures__/units.js";
import { newerTwin, newerTwins } from "./newer-twin.js";
import { OFFLINE_PRESETS } from "./settings.js";

const share = OFFLINE_PRESETS.balanced.answer.newerTwinShare;

const unit = unitOf;

const old = { title: "Harbour tariff, version 2", docId: "tariff-v2.md", updatedAt: "2024-03-01" };
const current = { title: "Harbour tariff, version 3", docId: "tariff.md", updatedAt: "2025-05-01" };
const other = { title: "Crane manual, version 5", docId: "crane.md", updatedAt: "2025-09-01" };

const oldRow = unit(1, "Berth: North quay; Vessel: barge; Fee: 310 credits per day", old);
const newRow = unit(2, "Berth: North quay; Vessel: barge; Fee: 290 credits per day", current);
const newOtherRow = unit(3, "Berth: South quay; Vessel: ferry; Fee: 800 credits per day", current);
const crane = unit(4, "Berth: North quay; Vessel: barge; Fee: 50 credits per lift", other);

describe("newerTwin", () => {
  it("reads the same row of the newer edition of the series", () => {
    const all = [oldRow, newOtherRow, newRow, crane];
    expect(newerTwin(oldRow, all, "What fee does a barge pay at the north quay?", share)).toBe(newRow);
  });

  it("keeps a unit with no twin, a newer one, and one of another series", () => {
    expect(newerTwin(oldRow, [oldRow, newOtherRow], "What fee does a barge pay?", share)).toBe(oldRow);
    expect(newerTwin(newRow, [oldRow, newRow], "What fee does a barge pay?", share)).toBe(newRow);
    expect(newerTwin(crane, [crane, newRow], "What fee does a barge pay?", share)).toBe(crane);
  });

  it("keeps the older edition when the question names a version or asks for the earlier state, or when off", () => {
    const all = [oldRow, newRow];
    expect(newerTwin(oldRow, all, "What fee did a barge pay under version 2?", share)).toBe(oldRow);
    expect(newerTwin(oldRow, all, "What fee did a barge pay previously?", share)).toBe(oldRow);
    expect(newerTwin(oldRow, all, "What fee does a barge pay?", 0)).toBe(oldRow);
  });

  it("replaces each chosen unit without repeating one", () => {
    expect(newerTwins([oldRow, newRow], [oldRow, newRow], "What fee does a barge pay?", share)).toEqual([newRow]);
  });
});
