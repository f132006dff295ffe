import { describe, expect, it } from "vitest";
import { unitOf } from "./__fixtures__/units.js";
import { decompose } from "./analyze.js";
import { answerKindOf } from "./answer-kind.js";
import type { Candidate } from "./candidates.js";
import { claimOf, composePart, datedHeading } from "./compose.js";
import { OFFLINE_PRESETS } from "./settings.js";

const settings = OFFLINE_PRESETS.balanced.answer;

const unit = unitOf;

function compose(question: string, chosen: Candidate[], all = chosen) {
  const part = decompose(question)[0]!;
  return composePart({ question, part, kind: answerKindOf(part), chosen, all, settings });
}

const team = { title: "Flight Software Team", docId: "teams/fsw.md" };

describe("composePart", () => {
  it("leads with the asked value in the question's words, citing only the unit it came from", () => {
    const bridge = unit(2, "The Flight Software Team runs the Telemetry Gateway.", team);
    const lead = unit(2, "- Team lead: Dana Okafor", team);
    const claims = compose("Who leads the team which owns the Telemetry Gateway?", [bridge, lead]);
    expect(claims.map((c) => c.text)).toEqual([
      "Dana Okafor (Flight Software Team) leads the team which owns the Telemetry Gateway.",
    ]);
    expect(claims[0]!.citations).toEqual([{ n: 2, quote: "- Team lead: Dana Okafor" }]);
  });

  it("keeps a prose sentence after a bare value, and quotes the evidence when there is no value", () => {
    const doc = { title: "Tokens", docId: "tokens.md" };
    const kept = compose("How long is a token valid?", [
      unit(1, "A token is valid for 15 minutes after it is created.", doc),
    ]);
    expect(kept.map((c) => c.text)).toEqual([
      "15 minutes.",
      "Tokens: A token is valid for 15 minutes after it is created.",
    ]);
    const fact = compose("What happened in VR-41?", [unit(3, "A pallet fell from a forklift at dock 4.", doc)]);
    expect(fact.map((c) => c.text)).toEqual(["Tokens: A pallet fell from a forklift at dock 4."]);
  });

  it("lets the newer document of a series win and says the older value was superseded, citing only the newer", () => {
    const v3 = unit(1, "- On-time pickup target: 95.0%", { title: "Delivery SLA, version 3", docId: "sla-v3.md" });
    const v4 = unit(2, "- On-time pickup target: 96.5%", { title: "Delivery SLA, version 4", docId: "sla.md" }, 0.95);
    const claims = compose("What is the on-time pickup target?", [v3], [v3, v4]);
    expect(claims[0]!.text).toBe(
      "The on-time pickup target is 96.5%. This supersedes 95.0% in Delivery SLA, version 3 (v3).",
    );
    expect(claims.flatMap((c) => c.citations.map((x) => x.n))).not.toContain(1);
    expect(claims[0]!.citations[0]!.n).toBe(2);
  });

  it("answers from and cites only the superseded document when the question asks for the earlier value", () => {
    const v3 = unit(1, "- On-time pickup target: 95.0%", { title: "Delivery SLA, version 3", docId: "sla-v3.md" });
    const v4 = unit(2, "- On-time pickup target: 96.5%", { title: "Delivery SLA, version 4", docId: "sla.md" }, 0.95);
    const claims = compose("What is the previous on-time pickup target?", [v3], [v3, v4]);
    expect(claims).toHaveLength(1);
    expect(claims[0]!.text).toContain("95.0%. It was later changed to 96.5% in Delivery SLA, version 4 (v4).");
    expect(claims[0]!.citations).toEqual([{ n: 1, quote: "- On-time pickup target: 95.0%" }]);
  });

  it("does not supersede across different documents", () => {
    const a = unit(1, "- Timeout: 45 seconds", { title: "Refunds API", docId: "refunds.md", updatedAt: "2026-03-01" });
    const b = unit(2, "- Timeout: 15 seconds", { title: "Charges API", docId: "charges.md", updatedAt: "2026-05-01" });
    const claims = compose("What is the timeout?", [a], [a, b]);
    expect(claims.map((c) => c.citations[0]!.n)).toEqual([1]);
  });

  it("answers yes or no only when the sentence states what is asked", () => {
    const doc = { title: "Driving times", docId: "driving.md" };
    const no = compose("Are couriers in Lübeck allowed to take the extension?", [
      unit(1, "Couriers in Lübeck are not allowed to take the extension.", doc),
    ]);
    expect(no[0]!.text).toBe("No. Driving times: Couriers in Lübeck are not allowed to take the extension.");
    const open = compose("Are couriers in Lübeck allowed to take the extension?", [
      unit(1, "Lübeck couriers work in two shifts.", doc),
    ]);
    expect(open[0]!.text).toBe("Driving times: Lübeck couriers work in two shifts.");
  });

  it("answers a Chinese question in Chinese, quoting the source", () => {
    const doc = { title: "地面站操作手册", docId: "zh/ground-station.md" };
    const claims = compose("地面站主天线的直径是多少？", [unit(1, "地面站有一台直径 3.7 米的抛物面天线。", doc)]);
    expect(claims[0]!.text).toBe("地面站主天线的直径是3.7 米。");
  });
});

describe("composePart support", () => {
  it("gives no direct value from prose that states little of what is asked", () => {
    const doc = { title: "Climate", docId: "climate.md" };
    const c = { ...unit(1, "The average temperature in July is 72.6 °F.", doc), asked: 0.3 };
    const claims = compose("What is the outer edge of the region with the lowest temperature?", [c]);
    expect(claims.map((x) => x.text)).toEqual(["Climate: The average temperature in July is 72.6 °F."]);
  });

  it("keeps a bridging sentence that names what the question names and the answer's document does not", () => {
    const hop = unit(1, "Varnholt is a town in the Keld region of Ostravia.", {
      title: "Varnholt",
      docId: "a.md",
    });
    // The answer was found by a later hop than the sentence that leads to it.
    const answer = { ...unit(2, "- President: Ilse Marnovic", { title: "Ostravia", docId: "b.md" }), step: 2 };
    const noise = unit(3, "Highline Garden is in SeaTac, Washington.", { title: "Garden", docId: "c.md" });
    const claims = compose("Who is the president of the country Varnholt is in?", [hop, answer, noise]);
    expect(claims.map((x) => x.citations[0]!.n)).toEqual([2, 1]);
    const sameHop = compose("Who is the president of the country Varnholt is in?", [hop, { ...answer, step: 1 }]);
    expect(sameHop.map((x) => x.citations[0]!.n)).toEqual([2]);
  });
});

describe("composePart without a value", () => {
  it("follows the best sentence only with sentences naming what is asked or from its own passage", () => {
    const doc = { title: "Ticket T-1", docId: "t1" };
    const best = unit(1, "The customer reports refunds failing with 504.", doc);
    const same = unit(1, "Refunds fail since 14:05.", doc);
    const named = unit(2, "T-1 was linked to INC-7.", { title: "INC-7", docId: "inc7" });
    const noise = unit(3, "Laptops must be encrypted.", { title: "Remote work", docId: "rw" });
    const claims = compose("What issue did the customer report in ticket T-1?", [best, same, named, noise]);
    // The incident naming the ticket is another source that adds nothing asked: the ticket's passage names T-1.
    expect(claims.map((x) => x.citations[0]!.n)).toEqual([1, 1]);
    const painter = unit(4, "Smart was known for precisionist urban landscapes.", {
      title: "Jeffrey Smart",
      docId: "js",
    });
    const speakers = unit(5, "Speakers included the painter Jeffrey Smart.", { title: "Institute", docId: "bi" });
    const hop = compose("Which painter spoke at the Institute, known for depictions of what?", [
      speakers,
      painter,
      noise,
    ]);
    expect(hop.map((x) => x.citations[0]!.n)).toEqual([5, 4]);
  });
});

describe("composePart with a value", () => {
  it("keeps a sentence of the same document that states another asked thing, not one of another document", () => {
    const doc = { title: "Sabbatical", docId: "sabbatical.md" };
    const weeks = unit(1, "| Senior engineer | 8 weeks at half pay |", doc);
    const eligible = unit(3, "Staff are eligible after 4 years.", doc);
    const other = unit(4, "Staff are eligible for on-call after 90 days.", {
      title: "On-call",
      docId: "oncall.md",
    });
    const claims = compose(
      "How many weeks of sabbatical can a senior engineer take, and after how many years is staff eligible?",
      [weeks, eligible, other],
    );
    expect(claims.map((x) => x.citations[0]!.n)).toEqual([1, 3]);
  });
});

describe("composePart: citations of supporting sentences", () => {
  const relay = { title: "Brimhall relay", docId: "guides/brimhall.md" };
  const faq = { title: "Operator FAQ", docId: "notes/faq.md" };
  const question = "What does the Brimhall relay do at night?";
  const best = unit(1, "At night the Brimhall relay forwards its traffic to Ostwick.", relay);
  const echo = unit(4, "The Brimhall relay hands its traffic over at night.", faq);

  it("cites another document's sentence only when it adds to the kept ones", () => {
    const claims = compose(question, [best, echo]);
    expect(claims.flatMap((c) => c.citations.map((x) => x.n))).toEqual([1]);
    const off = composePart({
      question,
      part: decompose(question)[0]!,
      kind: answerKindOf(decompose(question)[0]!),
      chosen: [best, echo],
      all: [best, echo],
      settings: { ...settings, citeOnlyWhatAdds: false },
    });
    expect(off.flatMap((c) => c.citations.map((x) => x.n))).toEqual([1, 4]);
  });

  it("keeps a chain's last hop of the bridge's page, where the head is answered, even without a link", () => {
    const q = "Who founded the company that built the Brimhall relay?";
    const hop1 = { ...unit(1, "The Brimhall relay was built by Carrow Works.", relay), step: 1 };
    const middle = { ...unit(2, "Relays of this kind are common.", faq), step: 2 };
    const hop2 = {
      ...unit(3, "It was founded by Edda Lunn in 1911.", { title: "Carrow Works", docId: "firms.md" }),
      step: 3,
    };
    const claims = compose(q, [hop1, middle, hop2]);
    expect(decompose(q)[0]!.chain).toBe(true);
    expect(claims.flatMap((c) => c.citations.map((x) => x.n))).toEqual([1, 3]);
  });

  it("drops a chain's last hop of another thing than the bridge (unless the setting is off)", () => {
    const q = "Who founded the company that built the Brimhall relay?";
    const part = decompose(q)[0]!;
    const hop1 = { ...unit(1, "The Brimhall relay was built by Carrow Works.", relay), step: 1 };
    const stray = {
      ...unit(3, "The Tessel guild was founded by Ivo Rane.", { title: "Tessel guild", docId: "guild.md" }),
      step: 3,
    };
    const cited = (lastHopOnBridge: boolean) =>
      composePart({
        question: q,
        part,
        kind: answerKindOf(part),
        chosen: [hop1, stray],
        all: [hop1, stray],
        settings: { ...settings, lastHopOnBridge },
      }).flatMap((c) => c.citations.map((x) => x.n));
    expect(cited(true)).toEqual([1]);
    expect(cited(false)).toEqual([1, 3]);
  });

  it("drops a chain's last field whose label names no more of the ask than the best field's (unless off)", () => {
    const q = "Which Slack room belongs to the crew that runs the Brimhall relay?";
    const part = decompose(q)[0]!;
    const cited = (chosen: Candidate[], labelRivals: boolean) =>
      composePart({
        question: q,
        part,
        kind: "fact",
        chosen,
        all: chosen,
        settings: { ...settings, labelRivals },
      }).flatMap((c) => c.citations.map((x) => x.n));
    const best = { ...unit(1, "- Slack room: #relay-crew", { title: "Relay crew", docId: "crew.md" }), step: 1 };
    const rival = { ...unit(3, "- room: email", { title: "Ticket Q-7", docId: "tickets.csv#Q-7" }), step: 3 };
    expect(part.chain).toBe(true);
    expect(cited([best, rival], true)).toEqual([1]);
    expect(cited([best, rival], false)).toEqual([1, 3]);
    // A last field naming more of the ask than the first hop's (here none) still ends the chain.
    const owner = { ...unit(1, "- Operator: Tide team", relay), step: 1 };
    const channel = { ...unit(3, "- Slack room: #tide", { title: "Directory", docId: "dir.md" }), step: 3 };
    expect(cited([owner, channel], true)).toEqual([1, 3]);
  });

  it("keeps a chain's last hop whose document names the bridge in another passage of the evidence", () => {
    const q = "Who founded the company that built the Brimhall relay?";
    const firms = { title: "Noted firms", docId: "firms.md" };
    const hop1 = { ...unit(1, "The Brimhall relay was built by Carrow Works.", relay), step: 1 };
    const hop2 = { ...unit(3, "It was founded by Edda Lunn in 1911.", firms), step: 3 };
    const sibling = { ...unit(4, "Carrow Works makes relays for mines.", firms), step: 3 };
    const claims = compose(q, [hop1, hop2], [hop1, hop2, sibling]);
    expect(claims.flatMap((c) => c.citations.map((x) => x.n))).toEqual([1, 3]);
    expect(compose(q, [hop1, hop2]).flatMap((c) => c.citations.map((x) => x.n))).toEqual([1]);
  });
});

describe("composePart: a later step's sentence", () => {
  const ticket = { title: "Ticket Z-4410", docId: "tickets.csv#Z-4410" };
  const codes = { title: "Error codes", docId: "api/errors.md" };
  const vantor = { title: "Vantor sync", docId: "vantor.md" };
  const orbel = { title: "Orbel", docId: "orbel.md" };
  const cited = (question: string, chosen: Candidate[], laterStepOnBridge = true) => {
    const part = decompose(question)[0]!;
    return composePart({
      question,
      part,
      kind: answerKindOf(part),
      chosen,
      all: chosen,
      settings: { ...settings, laterStepOnBridge },
    }).flatMap((c) => c.citations.map((x) => x.n));
  };

  it("stays cited when the loop hopped to the page the best sentence names, unless the question names a record", () => {
    const best = unit(1, "The Vantor sync was handed to Orbel last year.", vantor);
    const later = { ...unit(2, "It was retired in spring.", orbel), step: 2 };
    expect(compose("What happened to the Vantor sync?", [best, later]).length).toBe(2);
    const row = unit(3, "The merchant sees signature checks fail.", ticket);
    const other = { ...unit(4, "Code 422 means the region is unsupported.", codes), step: 2 };
    const claims = compose("What problem does ticket Z-4410 describe?", [row, other]);
    expect(claims.flatMap((c) => c.citations.map((x) => x.n))).toEqual([3]);
  });

  it("is dropped when it is of another thing that only shares the part's words", () => {
    const best = unit(1, "The Vantor sync stalls every night.", vantor);
    const stray = { ...unit(2, "Every sync job must log its start.", codes), step: 2 };
    expect(cited("What happened to the Vantor sync?", [best, stray])).toEqual([1]);
    expect(cited("What happened to the Vantor sync?", [best, stray], false)).toEqual([1, 2]);
  });

  it("stays cited when it names what the part names that the best sentence's passage does not", () => {
    const best = unit(1, "The relay kept running through the storm.", { title: "Storm log", docId: "storm.md" });
    const named = { ...unit(2, "Pellmar Station hosts the relay.", orbel), step: 2 };
    const other = { ...unit(3, "The station kept running through the storm.", codes), step: 2 };
    const question = "What kept running at Pellmar Station?";
    expect(cited(question, [best, named])).toEqual([1, 2]);
    expect(cited(question, [best, other])).toEqual([1]);
  });
});

describe("composePart: the earlier state of a series", () => {
  const v3 = unit(1, "- Pallet check rate: 92.0%", { title: "Yard rules, version 3", docId: "yard-v3.md" });
  const v4 = unit(2, "- Pallet check rate: 97.5%", { title: "Yard rules, version 4", docId: "yard.md" });
  const question = "What was the pallet check rate before the update?";

  it("answers from the older document, cites only it, and names the newer value", () => {
    const claims = compose(question, [v4], [v4, v3]);
    expect(claims[0]!.text).toContain("92.0%");
    expect(claims[0]!.text).toContain("later changed to 97.5% in Yard rules, version 4");
    expect(claims.flatMap((c) => c.citations.map((x) => x.n))).toEqual([1]);
  });

  it("lets the newer document answer when the setting is off", () => {
    const part = decompose(question)[0]!;
    const off = composePart({
      question,
      part,
      kind: answerKindOf(part),
      chosen: [v4],
      all: [v4, v3],
      settings: { ...settings, priorAnswersFromOlder: false },
    });
    expect(off[0]!.citations).toEqual([{ n: 2, quote: "- Pallet check rate: 97.5%" }]);
  });
});

describe("claimOf under a dated heading", () => {
  const notes = { title: "Release notes", docId: "notes.md" };

  it("leads with a version or date heading the sentence does not name", () => {
    const c = { ...unit(1, "- Parcels need a barcode label.", notes), heading: "v4.1 (2025-07-14)" };
    expect(claimOf(c).text).toBe("Release notes, v4.1 (2025-07-14): Parcels need a barcode label.");
    expect(claimOf(c).citations).toEqual([{ n: 1, quote: "- Parcels need a barcode label." }]);
  });

  it("leaves headings without a version or date, and ones the sentence names, out", () => {
    expect(datedHeading({ heading: "Labels" }, "Parcels need a barcode label.")).toBeUndefined();
    expect(datedHeading({ heading: "Route v4" }, "Parcels need a barcode label.")).toBeUndefined();
    expect(datedHeading({ heading: "v4.1" }, "Since v4.1 parcels need a label.")).toBeUndefined();
    expect(datedHeading({ heading: "Audit of 3 March 2025" }, "Two crates were open.")).toBe("Audit of 3 March 2025");
    const c = { ...unit(1, "Parcels need a barcode label.", notes), heading: "Labels" };
    expect(claimOf(c).text).toBe("Release notes: Parcels need a barcode label.");
  });

  describe("the same value from the page of what the question names", () => {
    const question = "When does the nightly tallow-sync job start?";
    const page = { title: "tallow-sync", docId: "services/tallow-sync.md" };
    const report = { title: "OUT-7: nightly sync failed", docId: "reports/out-7.md" };
    const timeline = unit(1, "| 01:15 | Job starts |", report, 1.5);
    const own = unit(2, "| Schedule | Nightly, starts 01:15 UTC |", page, 1);

    it("cites the named page's unit instead of another document repeating its value", () => {
      const claims = compose(question, [timeline], [timeline, own]);
      expect(claims.flatMap((c) => c.citations.map((x) => x.n))).toEqual([2]);
      expect(claims[0]!.text).toContain("01:15");
    });

    it("keeps the unit found when the page states another value, or when the setting is off", () => {
      const other = unit(2, "| Schedule | Nightly, starts 03:40 UTC |", page, 1);
      expect(compose(question, [timeline], [timeline, other]).flatMap((c) => c.citations.map((x) => x.n))).toEqual([1]);
      const part = decompose(question)[0]!;
      const off = composePart({
        question,
        part,
        kind: answerKindOf(part),
        chosen: [timeline],
        all: [timeline, own],
        settings: { ...settings, citeNamedPage: false },
      });
      expect(off.flatMap((c) => c.citations.map((x) => x.n))).toEqual([1]);
    });
  });
});
