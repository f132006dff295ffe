import { beforeAll, describe, expect, it } from "vitest";
import { type Answer, STOP_REASONS } from "../../src/spec/answer.js";
import { type AcmeQuestion, acmeDb, acmeQuestions, asFlag, ferret, ferretJson, squash } from "./run-cli.js";

/** Keys of `ask --json`; `reason` and `unsupported` appear only when they say something. */
const KEYS = [
  "citations",
  "evidence",
  "latencyMs",
  "model",
  "runId",
  "status",
  "stepCount",
  "steps",
  "stopReason",
  "text",
  "usage",
];
const OPTIONAL = ["reason", "unsupported"];
const USAGE = ["costUsd", "inputTokens", "llmCalls", "outputTokens", "probes", "toolCalls"];
/** Reads every source of tenant acme (the questions without a principal are asked by the owner). */
const OWNER = "acme:owner:*";

type AskJson = Omit<Answer, "traceId">;

let db: string;
let questions: AcmeQuestion[];
beforeAll(async () => {
  [db, questions] = await Promise.all([acmeDb("file"), acmeQuestions()]);
});

const firstOf = (type: string) => {
  const q = questions.find((x) => x.type === type);
  if (!q) throw new Error(`examples/acme/questions.jsonl has no ${type} question`);
  return q;
};
const ask = (question: string, ...flags: string[]) => ferretJson<AskJson>(["ask", question, "--db", db, ...flags]);

function expectShape(answer: AskJson): void {
  const keys = Object.keys(answer);
  for (const k of KEYS) expect(keys, k).toContain(k);
  for (const k of keys) expect([...KEYS, ...OPTIONAL], k).toContain(k);
  expect(Object.keys(answer.usage).sort()).toEqual(USAGE);
  expect(STOP_REASONS).toContain(answer.stopReason);
  expect(answer.model).toBe("offline");
  expect(answer.usage).toMatchObject({ llmCalls: 0, inputTokens: 0, outputTokens: 0, costUsd: 0 });
  expect(answer.runId).toMatch(/\S{8,}/);
  expect(answer.latencyMs).toBeGreaterThanOrEqual(0);
  for (const c of answer.citations) {
    expect(Object.keys(c).sort()).toEqual(["docId", "n", "passageId", "quote", "source"]);
  }
}

/** Every citation quotes, word for word up to whitespace, the evidence passage it names. */
function expectGroundedCitations(answer: AskJson): void {
  expect(answer.citations.length).toBeGreaterThan(0);
  for (const c of answer.citations) {
    const passage = answer.evidence.find((p) => p.id === c.passageId && p.source === c.source);
    expect(passage, `[${c.n}] ${c.passageId} is not in the evidence`).toBeDefined();
    expect(passage?.docId).toBe(c.docId);
    expect(squash(c.quote).length).toBeGreaterThan(0);
    expect(squash(passage?.text ?? ""), `[${c.n}] quote`).toContain(squash(c.quote));
    expect(answer.text).toContain(`[${c.n}]`);
  }
}

describe("ferret ask --json on examples/acme", () => {
  for (const type of ["single_hop", "multi_source", "multi_hop"]) {
    it(`answers a ${type} question with citations that quote their passages`, async () => {
      const q = firstOf(type);
      const answer = await ask(q.question, "--as", q.principal ? asFlag(q.principal) : OWNER);
      expectShape(answer);
      expect(answer.status, answer.text).not.toBe("refused");
      expect(answer.usage.toolCalls).toBeGreaterThan(0);
      expect(answer.stepCount).toBeGreaterThan(0);
      expectGroundedCitations(answer);
      // At least one gold document of the question is cited.
      const cited = new Set(answer.citations.map((c) => c.docId));
      expect(
        q.gold_sources.some((g) => cited.has(g)),
        [...cited].join(", "),
      ).toBe(true);
    });
  }

  it("answers a multi-hop question with the far end of the chain", async () => {
    const q = questions.find((x) => x.id === "acme-06") ?? firstOf("multi_hop");
    const answer = await ask(q.question, "--as", OWNER);
    expect(answer.status).toBe("answered");
    expect(answer.text).toContain("Dana Okafor");
    expect(answer.citations.map((c) => c.docId)).toContain("handbook/teams/flight-software.md");
  });

  it("refuses an unanswerable question, without citations", async () => {
    const q = firstOf("unanswerable");
    const answer = await ask(q.question, "--as", OWNER);
    expectShape(answer);
    expect(answer.status, answer.text).toBe("refused");
    expect(answer.citations).toEqual([]);
  });

  it("greets without retrieving", async () => {
    const answer = await ask("hello!", "--as", OWNER);
    expectShape(answer);
    expect(answer.stopReason).toBe("no_retrieval_needed");
    expect(answer.usage.toolCalls).toBe(0);
    expect(answer.citations).toEqual([]);
    expect(answer.evidence).toEqual([]);
    expect(answer.text.length).toBeGreaterThan(0);
  });
});

describe("ferret ask --as", () => {
  it("refuses an hr-only fact to a principal without hr, leaking none of it", async () => {
    const q = questions.find((x) => x.type === "acl" && x.expect_refusal);
    if (!q?.principal || !q.must_not_contain) throw new Error("examples/acme has no refusing acl question");
    expect(q.principal.roles).not.toContain("hr");
    const run = await ferret(["ask", q.question, "--db", db, "--as", asFlag(q.principal), "--json"]);
    expect(run.code).toBe(0);
    const answer = JSON.parse(run.stdout) as AskJson;
    expectShape(answer);
    expect(answer.status).toBe("refused");
    expect(answer.citations).toEqual([]);
    for (const p of answer.evidence) expect(p.source, p.id).not.toBe("hr_policies");
    // Not in the answer, and nowhere else in the output either (evidence, reason).
    for (const secret of q.must_not_contain) expect(run.stdout, secret).not.toContain(secret);
  });

  it("answers the hr fact for a principal with the hr role", async () => {
    const q = questions.find((x) => x.type === "acl" && !x.expect_refusal && x.principal?.roles.includes("hr"));
    if (!q?.principal) throw new Error("examples/acme has no answerable acl question");
    const answer = await ask(q.question, "--as", asFlag(q.principal));
    expect(answer.status).toBe("answered");
    expect(answer.text).toContain("350");
    expect(answer.citations.some((c) => c.docId.startsWith("hr_policies/"))).toBe(true);
    expectGroundedCitations(answer);
  });
});

describe("ferret ask --stream", () => {
  it("prints progress lines to stderr while it searches, and the answer to stdout", async () => {
    const run = await ferret(["ask", firstOf("single_hop").question, "--stream", "--db", db, "--as", OWNER]);
    expect(run.code).toBe(0);
    const lines = run.stderr.split("\n").filter(Boolean);
    expect(lines.some((l) => /searching/i.test(l))).toBe(true);
    expect(lines.length).toBeGreaterThan(2);
    expect(run.stdout).not.toMatch(/searching/i);
    expect(run.stdout).toMatch(/model offline/);
  });
});

describe("ferret ask --session", () => {
  it("answers a follow-up from the conversation history", async () => {
    const session = `cli-test-${Date.now().toString(36)}`;
    const first = await ask("Which team owns the Launch Scheduler?", "--session", session, "--as", OWNER);
    expect(first.text).toContain("Range Operations");
    const followUp = await ask("And who leads it?", "--session", session, "--as", OWNER);
    expect(followUp.status).toBe("answered");
    expect(followUp.text).toContain("Marco Bellini");
    expect(followUp.citations.map((c) => c.docId)).toContain("handbook/teams/range-operations.md");
    expectGroundedCitations(followUp);
    // The same words without the history do not reach the Range Operations Team's lead.
    const alone = await ask("And who leads it?", "--as", OWNER);
    expect(alone.text).not.toContain("Marco Bellini");
  });
});
