import type { Answer } from "../spec/answer.js";
import type { TraceEvent } from "../spec/trace.js";
import { answerCorrect } from "./metrics/answer-correct.js";
import { exactMatch, tokenF1 } from "./metrics/answer-f1.js";
import { citationGrounding, citationPrecision } from "./metrics/citation-precision.js";
import { allGoldAtK, evidenceRecall, recallAtK } from "./metrics/evidence-recall.js";
import { leaked } from "./metrics/leak.js";
import { rankedEvidence } from "./metrics/ranked-evidence.js";
import { refusalAccurate } from "./metrics/refusal-accurate.js";
import { subQuestionCoverage } from "./metrics/sub-question-coverage.js";
import { searchedSources, toolSelection } from "./metrics/tool-selection.js";
import { retrievalRounds, trajectoryEfficiency } from "./metrics/trajectory-efficiency.js";
import { usageMetrics } from "./metrics/usage.js";
import type { EvalQuestion } from "./schema.js";

/** The ks reported for recall@k and all_gold@k. */
export const RECALL_KS = [2, 5, 10] as const;

/** Per-question scores. `null` means the score does not apply to this question. */
export interface QuestionMetrics {
  answer_correct: number;
  refusal_accurate: number;
  /** Refused although the question is answerable (null for questions that expect a refusal). */
  false_refusal: number | null;
  /** Refused a question that expects a refusal (null for answerable questions). */
  unanswerable_refused: number | null;
  /** The engine's confidence in a non-refused answer (null when refused or not given). */
  confidence: number | null;
  exact_match: number;
  answer_f1: number;
  citation_precision: number | null;
  citation_grounding: number | null;
  evidence_recall: number | null;
  "recall@2": number | null;
  "recall@5": number | null;
  "recall@10": number | null;
  "all_gold@2": number | null;
  "all_gold@5": number | null;
  "all_gold@10": number | null;
  tool_precision: number | null;
  tool_recall: number | null;
  sub_question_coverage: number | null;
  trajectory_efficiency: number | null;
  retrieval_rounds: number;
  leak: number | null;
  tool_calls: number;
  probes: number;
  llm_calls: number;
  tokens: number;
  cost_usd: number;
  latency_ms: number;
}

export interface ScoreInput {
  question: EvalQuestion;
  answer: Answer;
  events: readonly TraceEvent[];
  /** Names of the set's sources (to recognise searched corpora). */
  sourceNames: readonly string[];
}

export function scoreQuestion({ question: q, answer, events, sourceNames }: ScoreInput): QuestionMetrics {
  const ranked = rankedEvidence(answer, events);
  const tools = toolSelection(searchedSources(answer, events, sourceNames), q.gold_tools);
  const rounds = retrievalRounds(answer, events);
  const gold = q.gold_sources;
  return {
    answer_correct: answerCorrect(answer, q) ? 1 : 0,
    refusal_accurate: refusalAccurate(answer, q) ? 1 : 0,
    false_refusal: q.expect_refusal ? null : answer.status === "refused" ? 1 : 0,
    unanswerable_refused: q.expect_refusal ? (answer.status === "refused" ? 1 : 0) : null,
    confidence: answer.status !== "refused" && typeof answer.confidence === "number" ? answer.confidence : null,
    exact_match: exactMatch(answer.text, q.answer),
    answer_f1: tokenF1(answer.text, q.answer),
    citation_precision: citationPrecision(answer, q),
    citation_grounding: citationGrounding(answer),
    evidence_recall: evidenceRecall(ranked, gold),
    "recall@2": recallAtK(ranked, gold, 2),
    "recall@5": recallAtK(ranked, gold, 5),
    "recall@10": recallAtK(ranked, gold, 10),
    "all_gold@2": allGoldAtK(ranked, gold, 2),
    "all_gold@5": allGoldAtK(ranked, gold, 5),
    "all_gold@10": allGoldAtK(ranked, gold, 10),
    tool_precision: tools.precision,
    tool_recall: tools.recall,
    sub_question_coverage: subQuestionCoverage(events),
    trajectory_efficiency: trajectoryEfficiency(q.min_hops, rounds),
    retrieval_rounds: rounds,
    leak: leaked(answer, q),
    ...usageMetrics(answer),
  };
}
