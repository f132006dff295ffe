import type { Answer } from "../../spec/answer.js";
import type { EvalQuestion } from "../schema.js";
import { containsKeyword, stripCitationMarkers } from "./text.js";

/**
 * Correct without an LLM judge. For `expect_refusal` questions: the answer is a refusal and cites nothing.
 * Otherwise: not a refusal, and every `answer_keywords` group has at least one member in the answer text
 * (case-insensitive, whitespace-normalised, on token boundaries, citation markers ignored).
 */
export function answerCorrect(answer: Pick<Answer, "status" | "text" | "citations">, q: EvalQuestion): boolean {
  if (q.expect_refusal) return answer.status === "refused" && answer.citations.length === 0;
  if (answer.status === "refused") return false;
  const text = stripCitationMarkers(answer.text);
  return q.answer_keywords.every((group) => group.some((keyword) => containsKeyword(text, keyword)));
}
