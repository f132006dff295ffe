import { rerankEvidence } from "../retrieval/rerank.js";
import { stripCitationMarkers } from "../safety/citation-markers.js";
import type { Answer, StopReason } from "../spec/answer.js";
import type { AnswerStreamV1, DraftAnswer } from "../spec/engine.js";
import type { TraceEvent } from "../spec/trace.js";
import { addCitationLocators } from "./citation-locator.js";
import { checkCitations, renderClaim } from "./citations.js";
import { refusal } from "./refusal.js";
import type { Outcome, RunContext } from "./run-context.js";

/** How the retrieval part ended, as the answer phase needs it. */
export interface LoopEnd {
  /** `answered` when nothing stopped it early (the planner was done, a single pass, answer_now). */
  reason: StopReason;
  /** Refuse without answering (the caller aborted, a checkpoint said stop). */
  refuse?: boolean;
  detail?: string;
  /** An answer the router already drafted from this evidence: used instead of asking the answerer. */
  draft?: DraftAnswer;
}

export type FinalContent = Pick<
  Answer,
  "status" | "text" | "citations" | "stopReason" | "reason" | "unsupported" | "confidence"
>;

/** Reasons that stopped the loop early: they stay the stop reason whether the run answers or refuses. */
const EARLY = new Set<StopReason>([
  "max_steps",
  "max_tool_calls",
  "token_budget",
  "cost_budget",
  "timeout",
  "no_progress",
  "aborted",
  "fallback",
  "spend_cap",
]);

function stopReasonFor(loop: StopReason, refused: boolean): StopReason {
  if (EARLY.has(loop)) return loop;
  return refused ? "insufficient_evidence" : loop;
}

/** Asks the engine for the answer from the evidence, checks its citations, and decides answer or refusal. */
export async function* answerPhase(run: RunContext, end: LoopEnd): AsyncGenerator<TraceEvent, FinalContent> {
  const { state } = run;
  const refuse = (stopReason: StopReason, detail?: string, unsupported?: string[]): FinalContent => {
    const { text, reason } = refusal({ state, stopReason, detail, toolset: run.toolset });
    return {
      status: "refused",
      text,
      citations: [],
      stopReason,
      reason,
      ...(unsupported?.length ? { unsupported } : {}),
    };
  };

  if (end.refuse) return refuse(end.reason, end.detail);
  if (state.evidence.length === 0)
    return refuse(stopReasonFor(end.reason, true), end.detail ?? "No passages were found.");

  if (EARLY.has(end.reason)) state.forceAnswer = true;
  // A draft cites the evidence in the order it saw, so it is not re-ranked.
  if (run.options.reranker && !end.draft) {
    // Sub-queries found the evidence; the answer must fit the question itself.
    state.evidence = await rerankEvidence({
      reranker: run.options.reranker,
      question: state.standaloneQuestion,
      evidence: state.evidence,
      signal: run.signal,
    });
  }
  const outcome: Outcome<DraftAnswer> = end.draft ? { kind: "ok", value: end.draft } : yield* draftAnswer(run);
  yield* run.drain();
  if (outcome.kind === "stopped") return refuse(outcome.reason, end.detail);
  if (outcome.kind === "failed") {
    run.emit({ type: "error", step: state.step, ...describeError(outcome.error, "the answerer failed") });
    yield* run.drain();
    return refuse(stopReasonFor(end.reason, true), `The answerer failed: ${messageOf(outcome.error)}`);
  }

  const draft = outcome.value;
  if (draft.status === "refused") return refuse(stopReasonFor(end.reason, true), draft.reason ?? end.detail);
  const check = checkCitations({ claims: draft.claims, evidence: state.evidence });
  const total = check.claims.length + check.dropped;
  const { allowPartial, maxUnsupportedShare } = run.settings.presetSettings.answer;
  if (check.claims.length === 0) {
    return refuse(
      stopReasonFor(end.reason, true),
      "No claim of the draft had a citation that held.",
      check.unsupported,
    );
  }
  if (total > 0 && check.dropped / total > maxUnsupportedShare) {
    return refuse(
      stopReasonFor(end.reason, true),
      `${check.dropped} of ${total} claims had no citation that held.`,
      check.unsupported,
    );
  }
  if (draft.status === "partial" && !allowPartial) {
    return refuse(
      stopReasonFor(end.reason, true),
      draft.reason ?? "The answer would only be partial.",
      check.unsupported,
    );
  }
  for (const [i, claim] of check.claims.entries()) {
    run.emit({ type: "answer-delta", step: state.step, text: (i > 0 ? " " : "") + renderClaim(claim) });
  }
  // A partial answer says in its text which part the sources do not answer, after the parts they do.
  const gap = draft.status === "partial" ? partialNote(draft.reason) : "";
  if (gap) run.emit({ type: "answer-delta", step: state.step, text: ` ${gap}` });
  yield* run.drain();
  return {
    status: draft.status === "partial" ? "partial" : "answered",
    text: gap ? `${check.text} ${gap}` : check.text,
    citations: await addCitationLocators({
      citations: check.citations,
      evidence: state.evidence,
      store: run.options.store,
      principal: run.options.principal,
    }),
    stopReason: stopReasonFor(end.reason, false),
    ...(draft.status === "partial" && draft.reason ? { reason: draft.reason } : {}),
    ...(check.unsupported.length > 0 ? { unsupported: check.unsupported } : {}),
    ...(draft.confidence !== undefined ? { confidence: draft.confidence } : {}),
  };
}

/**
 * Asks the engine for the answer: streamed when it can (each delta sent as an `answer-draft-delta` as it
 * arrives), else in one call. The answer the engine resolves is the one checked; the deltas are a preview.
 */
async function* draftAnswer(run: RunContext): AsyncGenerator<TraceEvent, Outcome<DraftAnswer>> {
  const { engine } = run.options;
  const { state } = run;
  if (!engine.answerStream) return await run.callEngine("answer", (ctx) => engine.answer(state, ctx));
  const answerStream = engine.answerStream.bind(engine);
  let stream: AnswerStreamV1 | undefined;
  // callEngine starts the call before its first await, so the stream exists once it returns (unless a budget
  // stopped the run first).
  const outcome = run.callEngine("answer", (ctx) => {
    stream = answerStream(state, ctx);
    return stream.answer;
  });
  if (stream) {
    try {
      for await (const text of stream.deltas) {
        run.preview({ type: "answer-draft-delta", step: state.step, text });
        yield* run.drain();
      }
    } catch {
      // A broken stream fails its answer too: the outcome says how.
    }
  }
  return await outcome;
}

/** The sentence a partial answer ends with: the draft's reason, without citation markers, as one line. */
export function partialNote(reason: string | undefined): string {
  if (!reason) return "";
  return stripCitationMarkers(reason).replace(/\s+/g, " ").trim();
}

export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The fields of an `error` trace event. */
export function describeError(error: unknown, what: string): { message: string; name: string; cause?: string } {
  const name = error instanceof Error ? error.name : "Error";
  const cause = error instanceof Error && error.cause !== undefined ? messageOf(error.cause) : undefined;
  return { message: `${what}: ${messageOf(error)}`, name, ...(cause ? { cause } : {}) };
}
