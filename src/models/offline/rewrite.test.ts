import { describe, expect, it } from "vitest";
import type { AgentState } from "../../spec/engine.js";
import { rewriteFollowUp } from "./rewrite.js";

type History = AgentState["history"];
const turn = (user: string, reply: string): History => [
  { role: "user", content: user },
  { role: "assistant", content: reply },
];

describe("rewriteFollowUp", () => {
  it("leaves a question without history alone", () => {
    expect(rewriteFollowUp("Who owns it?", [])).toBe("Who owns it?");
  });

  it("replaces 'it' by the identifier the previous question named", () => {
    const h = turn("Summarise case QX-4411 in one line.", "A badge printer in the lobby jammed for two hours.");
    expect(rewriteFollowUp("Who was assigned to it?", h)).toBe("Who was assigned to QX-4411?");
  });

  it("prefers an identifier over a hyphenated word of the previous question", () => {
    const h = turn("Give me a one-line recap of case QX-4411.", "The lobby printer jammed.");
    expect(rewriteFollowUp("Who closed it?", h)).toBe("Who closed QX-4411?");
  });

  it("replaces a plural pronoun by every identifier the reply listed", () => {
    const h = turn("How many parcels missed the ferry in May?", "Two: PX-0091 and PX-0107.");
    expect(rewriteFollowUp("what did they weigh?", h)).toBe("what did PX-0091 and PX-0107 weigh?");
  });

  it("does not read a plural pronoun as one identifier: the follow-up is joined instead", () => {
    const h = turn("What is the largest batch accepted by POST /v2/batches?", "1,000 records.");
    const out = rewriteFollowUp("How long are they kept?", h);
    expect(out.startsWith("How long are they kept?")).toBe(true);
    expect(out).toContain("batches");
  });

  it("joins a short follow-up whose only referent is a name, since it may mean the previous answer", () => {
    const h = turn("Which crew maintains the Harbour Crane?", "The Dockside Mechanics crew.");
    const out = rewriteFollowUp("Who leads it?", h);
    expect(out.startsWith("Who leads it?")).toBe(true);
    expect(out).toContain("crew");
  });

  it("joins a German list with 'und'", () => {
    const h = turn("Welche Pakete kamen zu spät?", "PX-0091 und PX-0107.");
    expect(rewriteFollowUp("Wohin gingen sie?", h)).toBe("Wohin gingen PX-0091 und PX-0107?");
  });

  it("replaces a German 'dort' by the place the previous question named", () => {
    const h = turn("Wann öffnet das Lager Bremerhaven?", "Um 06:00 Uhr.");
    const out = rewriteFollowUp("Und wer leitet die Schicht dort?", h);
    expect(out.startsWith("Und wer leitet die Schicht in ")).toBe(true);
    expect(out).toContain("Bremerhaven");
    expect(out).not.toContain("dort");
  });

  it("replaces 'there' by the place the previous question named", () => {
    const h = turn("When does the Tromso depot open?", "At 07:00.");
    expect(rewriteFollowUp("Who runs the night shift there?", h)).toContain("in Tromso");
  });

  it("keeps the noun after a demonstrative and finds the name it goes with", () => {
    const h = turn(
      "Which service sends invoices?",
      "Invoices are sent by ledger-mailer, owned by the Billing Ops team.",
    );
    expect(rewriteFollowUp("Who leads that team?", h)).toBe("Who leads Billing Ops team?");
  });

  it("points a demonstrative without a matching name at the identifier the reply introduced", () => {
    const h = turn("What went wrong in report R-17?", "Parcel PX-0091 was dropped at gate 4.");
    expect(rewriteFollowUp("which courier had that parcel?", h)).toBe("which courier had PX-0091 parcel?");
  });

  it("reads a bare 'that' before a preposition as a pronoun, and joins when nothing fits", () => {
    const h = turn("Who signs off refunds above 900 euros?", "The finance lead.");
    const out = rewriteFollowUp("who signed that on Monday?", h);
    expect(out.startsWith("who signed that on Monday?")).toBe(true);
    expect(out).toContain("refunds");
  });

  it("joins an elliptic follow-up to the previous question's terms", () => {
    const h = turn("What is the upload limit on the free plan?", "20 MB per file.");
    const out = rewriteFollowUp("And on the team plan?", h);
    expect(out.startsWith("on the team plan?")).toBe(true);
    expect(out).toContain("upload");
  });

  it("joins a German elliptic follow-up too", () => {
    const h = turn("Wie hoch ist das Upload-Limit im Gratis-Tarif?", "20 MB pro Datei.");
    const out = rewriteFollowUp("Und für den Team-Tarif?", h);
    expect(out.startsWith("für den Team-Tarif?")).toBe(true);
    expect(out.toLowerCase()).toContain("upload");
  });

  it("adds the previous question's terms when the referent is only a name", () => {
    const h = turn("What is the response-time goal for Orbit tickets?", "Four hours.");
    const out = rewriteFollowUp("what was it in the previous fiscal year?", h);
    expect(out).not.toContain(" it ");
    expect(out.toLowerCase()).toContain("orbit");
    expect(out).toContain("goal");
  });

  it("resolves a Chinese plural pronoun to the listed identifiers", () => {
    const h = turn("三月有哪些包裹延误？", "PX-0091 和 PX-0107。");
    expect(rewriteFollowUp("它们寄往哪里？", h)).toBe("PX-0091和PX-0107寄往哪里？");
  });

  it("leaves a follow-up that names its own subject alone", () => {
    const h = turn("Who owns the ledger-mailer service?", "The Billing Ops team.");
    const q = "What is the retry limit of the webhook relay in the staging cluster?";
    expect(rewriteFollowUp(q, h)).toBe(q);
  });
});
