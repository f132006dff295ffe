import type { Answer } from "../../spec/answer.js";
import type { EvalQuestion } from "../schema.js";

/** The run refused exactly when the question expects a refusal. */
export function refusalAccurate(answer: Pick<Answer, "status">, q: Pick<EvalQuestion, "expect_refusal">): boolean {
  return (answer.status === "refused") === q.expect_refusal;
}
