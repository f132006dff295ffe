import type { AgentState } from "../../spec/engine.js";
import { extractEntities } from "../../text/entities.js";
import { queryTerms } from "../../text/tokenize.js";

const PRONOUN_PHRASE = /\b(?:(?:that|this|those|these|the same)\s+([a-z][\w-]*)|it|they|them|there)\b/i;
const ELLIPTIC = /^\s*(?:and|what about|how about|and what about|also|same for|what of)\b/i;

/** The entity a pronoun most likely points at: an identifier first, then names in the last question, then in the reply. */
function referent(history: AgentState["history"], noun?: string): string | undefined {
  const lastUser = [...history].reverse().find((t) => t.role === "user")?.content ?? "";
  const lastReply = [...history].reverse().find((t) => t.role === "assistant")?.content ?? "";
  if (noun) {
    const near = new RegExp(
      `([A-Z][\\w&-]*(?:\\s+[A-Z&][\\w-]*)*)\\s+${noun}\\b|\\b${noun}\\s+([A-Z][\\w-]*(?:\\s+[A-Z][\\w-]*)*)`,
    );
    const m = near.exec(lastReply) ?? near.exec(lastUser);
    if (m) return (m[1] ?? m[2])?.trim();
  }
  const inQuestion = extractEntities(lastUser);
  const id = inQuestion.find((e) => e.type === "identifier" || e.type === "path");
  if (id) return id.text;
  const replyEntities = extractEntities(lastReply);
  const replyId = replyEntities.find((e) => e.type === "identifier" || e.type === "code");
  return inQuestion[0]?.text ?? replyId?.text ?? replyEntities.at(-1)?.text;
}

/**
 * Rewrites a follow-up into a question that stands alone: an elliptic follow-up ("And in test mode?")
 * is joined to the previous question; the first pronoun ("it", "that team") is replaced by what it most
 * likely refers to in the history.
 */
export function rewriteFollowUp(question: string, history: AgentState["history"]): string {
  if (history.length === 0) return question;
  const lastUser = [...history].reverse().find((t) => t.role === "user")?.content ?? "";
  if (ELLIPTIC.test(question) || queryTerms(question).length <= 2) {
    return `${question.replace(ELLIPTIC, "").trim()} ${queryTerms(lastUser).join(" ")}`.trim();
  }
  const pronoun = PRONOUN_PHRASE.exec(question);
  if (!pronoun) return question;
  const target = referent(history, pronoun[1]);
  if (!target) return question;
  const replacement = pronoun[1] ? `${target} ${pronoun[1]}` : target;
  return question.slice(0, pronoun.index) + replacement + question.slice(pronoun.index + pronoun[0].length);
}
