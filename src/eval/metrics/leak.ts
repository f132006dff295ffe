import type { Answer } from "../../spec/answer.js";
import type { EvalQuestion } from "../schema.js";
import { containsSubstring } from "./text.js";

/**
 * 1 when what the user sees (text, refusal reason, citation quotes) contains any `must_not_contain` string
 * (case-insensitive substring, deliberately strict), else 0; `null` for questions without such strings.
 */
export function leaked(
  answer: Pick<Answer, "text" | "reason" | "citations">,
  q: Pick<EvalQuestion, "must_not_contain">,
): number | null {
  const banned = q.must_not_contain ?? [];
  if (banned.length === 0) return null;
  const shown = [answer.text, answer.reason ?? "", ...answer.citations.map((c) => c.quote)].join("\n");
  return banned.some((s) => containsSubstring(shown, s)) ? 1 : 0;
}
