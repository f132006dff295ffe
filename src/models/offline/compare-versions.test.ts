import { describe, expect, it } from "vitest";
import type { EvidenceItem } from "../../spec/answer.js";
import { evidence, makeState, searchRecord } from "../__fixtures__/state.js";
import {
  changeAsk,
  changeClaims,
  changedValues,
  counterparts,
  versionCalls,
  versionPairs,
} from "./compare-versions.js";
import { unitsOf } from "./evidence-view.js";

/** A passage of a made-up document, with its title and date. */
function page(n: number, docId: string, title: string, updatedAt: string, text: string): EvidenceItem {
  return { ...evidence(n, text), id: `${docId}::${n}`, docId, title, updatedAt };
}

const OLD_LEASE = page(
  1,
  "leases/office-lease-2019.md",
  "Office lease terms (2019 edition)",
  "2019-03-01",
  "Tenants give notice at least 30 days before moving out and pay the parking fee monthly.\n\n" +
    "| Floor | Rent | Deposit |\n|---|---|---|\n| Ground | 1,200 EUR | 2 months |\n| First | 1,000 EUR | 2 months |",
);
const NEW_LEASE = page(
  2,
  "leases/office-lease.md",
  "Office lease terms",
  "2021-05-10",
  "Tenants give notice at least 60 days before moving out and pay the parking fee monthly.\n\n" +
    "| Floor | Rent | Deposit |\n|---|---|---|\n| Ground | 1,350 EUR | 3 months |\n| First | 1,000 EUR | 2 months |",
);

describe("changeAsk", () => {
  it("reads a question about a change between versions, without its versions and cue words", () => {
    const ask = changeAsk("How did the notice period change between the 2019 and the 2021 lease terms?");
    expect(ask?.attribute).toEqual(expect.arrayContaining(["notice", "period"]));
    expect(ask?.attribute).not.toContain("2019");
    expect(ask?.attribute).not.toContain("chang");
    expect(ask?.direction).toBeUndefined();
  });

  it("reads the direction asked, and a comparison of two named versions", () => {
    expect(changeAsk("Did the deposit go up in the 2021 lease?")?.direction).toBe("up");
    expect(changeAsk("Was the rent lowered in v5?")?.direction).toBe("down");
    expect(changeAsk("Compare the deposits in lease v1 and v2.")).toBeDefined();
  });

  it("is no change question without a change cue (one version named, or a plain comparison)", () => {
    expect(changeAsk("What is the deposit in the 2021 lease?")).toBeUndefined();
    expect(changeAsk("Which floor has the higher rent, Ground or First?")).toBeUndefined();
  });
});

describe("changedValues", () => {
  const [oldText, oldGround, oldFirst] = unitsOf(OLD_LEASE.text);
  const [newText, newGround, newFirst] = unitsOf(NEW_LEASE.text);

  it("pairs the numbers two versions of one sentence state differently", () => {
    expect(changedValues(oldText!, newText!)).toEqual([{ from: "30 days", to: "60 days" }]);
  });

  it("compares rows of the same key cell by cell under the same column", () => {
    expect(changedValues(oldGround!, newGround!)).toEqual([
      { label: "Ground, Rent", from: "1,200 EUR", to: "1,350 EUR" },
      { label: "Ground, Deposit", from: "2 months", to: "3 months" },
    ]);
    expect(changedValues(oldFirst!, newFirst!)).toEqual([]);
  });

  it("does not pair different statements or rows of different keys", () => {
    expect(changedValues(oldGround!, newFirst!)).toEqual([]);
    const other = unitsOf("The lift is serviced every 12 months by the landlord's contractor.")[0]!;
    expect(changedValues(oldText!, other)).toEqual([]);
    expect(counterparts(oldText!, other)).toBe(false);
    expect(counterparts(oldText!, newText!)).toBe(true);
  });
});

describe("versionPairs", () => {
  it("orders two versions of one document, older first", () => {
    expect(versionPairs([NEW_LEASE, OLD_LEASE]).map(([a, b]) => [a.docId, b.docId])).toEqual([
      [OLD_LEASE.docId, NEW_LEASE.docId],
    ]);
  });

  it("does not take documents with the same title (records of a series) or other titles as versions", () => {
    const a = page(3, "contracts/alder.txt", "Customer agreement summary", "2021-01-01", "Discount 5%.");
    const b = page(4, "contracts/birch.txt", "Customer agreement summary", "2022-01-01", "Discount 7%.");
    const c = page(5, "guides/parking.md", "Parking guide", "2022-01-01", "Parking costs 40 EUR.");
    expect(versionPairs([a, b, c, OLD_LEASE])).toEqual([]);
  });
});

describe("changeClaims", () => {
  it("states each version's statement, then the change from the older value to the newer, all cited", () => {
    const ask = changeAsk("How did the notice period change between the 2019 and the 2021 lease terms?")!;
    const claims = changeClaims("How did the notice period change?", ask, [NEW_LEASE, OLD_LEASE])!;
    expect(claims.map((c) => c.text)).toEqual([
      expect.stringContaining("30 days"),
      expect.stringContaining("60 days"),
      expect.stringMatching(/^Changed: from 30 days to 60 days/),
    ]);
    expect(claims[0]!.citations[0]!.n).toBe(2);
    expect(claims[1]!.citations[0]!.n).toBe(1);
    // Every number the answer states is in a passage it cites.
    for (const claim of claims) {
      const quoted = claim.citations.map((c) => c.quote).join(" ");
      // (The versions' dates in brackets name the documents.)
      const said = claim.text.replace(/\(\d{4}-\d{2}-\d{2}\)|\(\d{4} edition\)/g, "");
      for (const n of said.match(/\d+(?:,\d+)?/g) ?? []) expect(quoted).toContain(n);
    }
  });

  it("answers whether it went up or down from the direction of the change", () => {
    const up = changeAsk("Did the ground floor rent and deposit go up in the new lease?")!;
    const down = changeAsk("Was the ground floor rent and deposit reduced in the new lease?")!;
    const verdict = (ask: typeof up) =>
      changeClaims("", ask, [OLD_LEASE, NEW_LEASE])!.find((c) => c.citations.length === 2)?.text;
    expect(verdict(up)).toMatch(/^Yes: Ground, Rent: from 1,200 EUR to 1,350 EUR/);
    expect(verdict(down)).toMatch(/^No: /);
  });

  it("says nothing when the evidence holds one version only", () => {
    const ask = changeAsk("How did the notice period change between the 2019 and the 2021 lease terms?")!;
    expect(changeClaims("", ask, [NEW_LEASE])).toBeUndefined();
  });
});

describe("versionCalls", () => {
  it("searches inside a versioned document found, and its source for the other versions", () => {
    const state = makeState({
      standaloneQuestion: "How did the notice period change between the 2019 and the 2021 lease terms?",
      evidence: [OLD_LEASE],
      calls: [searchRecord("notice period lease", [OLD_LEASE])],
    });
    const calls = versionCalls(state, changeAsk(state.standaloneQuestion)!, 3);
    expect(calls).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          tool: "search_by_source",
          args: expect.objectContaining({ docId: OLD_LEASE.docId }),
        }),
        expect.objectContaining({
          tool: "search",
          args: expect.objectContaining({ query: expect.stringContaining("office lease terms") }),
        }),
      ]),
    );
  });

  it("looks for a statement's counterpart in the other version, and stops once it is found", () => {
    const firstPart = { ...NEW_LEASE, text: NEW_LEASE.text.split("\n\n")[1]! };
    const ask = changeAsk("How did the notice period change between the 2019 and the 2021 lease terms?")!;
    const missing = makeState({ evidence: [OLD_LEASE, firstPart], calls: [] });
    const statement = (calls: ReturnType<typeof versionCalls>) =>
      calls.filter(
        (c) =>
          c.tool === "search_by_source" &&
          c.args.docId === NEW_LEASE.docId &&
          c.args.query !== ask.query &&
          /notice/.test(String(c.args.query)),
      );
    expect(statement(versionCalls(missing, ask, 3)).length).toBe(1);
    const found = makeState({ evidence: [OLD_LEASE, NEW_LEASE], calls: [] });
    expect(statement(versionCalls(found, ask, 3))).toEqual([]);
  });

  it("asks nothing when no document found is versioned", () => {
    const plain = evidence(7, "The parking fee is 40 EUR a month.");
    const state = makeState({ evidence: [plain], calls: [searchRecord("parking fee", [plain])] });
    expect(versionCalls(state, changeAsk("How did the parking fee change?")!, 3)).toEqual([]);
  });
});
