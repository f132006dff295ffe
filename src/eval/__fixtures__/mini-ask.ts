import { fileURLToPath } from "node:url";
import type { Answer } from "../../spec/answer.js";
import type { TraceEvent } from "../../spec/trace.js";
import type { AskFn } from "../run-eval.js";
import type { EvalQuestion } from "../schema.js";
import { answer, evidence, searchEvents } from "./builders.js";

export const MINI = fileURLToPath(new URL("../../../test/fixtures/eval-mini", import.meta.url));

const cite = (docId: string, quote: string) => ({ n: 1, passageId: `${docId}::0`, docId, source: "handbook", quote });

/** A fake system that answers the mini set well, except the aggregation question and the acl one (it leaks). */
export const goodAsk: AskFn = async (q: EvalQuestion) => {
  const run = (a: Partial<Answer>, events: TraceEvent[] = []) => ({ answer: answer({ latencyMs: 100, ...a }), events });
  switch (q.id) {
    case "m-001":
    case "m-002": {
      const refunds = evidence("docs/refunds.md", { text: "A refund request times out after 45 seconds." });
      const oncall = evidence("docs/oncall.md", { text: "The night rota changes hands every Thursday at 07:30 UTC." });
      return run(
        {
          text: q.id === "m-001" ? "45 seconds [1]." : "Thursday at 07:30 UTC [1]; 45 seconds [2].",
          citations: [cite("docs/refunds.md", "45 seconds")],
          evidence: [refunds, oncall],
          usage: { llmCalls: 1, toolCalls: 1, inputTokens: 100, outputTokens: 20, costUsd: 0.001 },
        },
        searchEvents(1, "handbook", ["docs/refunds.md", "docs/oncall.md"]),
      );
    }
    case "m-003":
      return run({ text: "Acme has 3 orders." }, searchEvents(1, "orders", ["orders.csv#O-1"]));
    case "m-004":
      return run({ status: "refused", text: "You may not read orders; O-2 is 9900.", stopReason: "insufficient_evidence" });
    case "m-005":
      return run({ text: "Hello! I can help with the handbook.", stopReason: "no_retrieval_needed" });
    default:
      return run({ status: "refused", text: "Not documented.", stopReason: "insufficient_evidence" });
  }
};

