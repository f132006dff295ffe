/**
 * The simulated model of the anchors bench: one decision function per kind of request (the oracle's policy),
 * a latency per call, per output token and per input token, and a log of every call. Each framework reaches
 * it through its own native model interface (anchors-ai-sdk.ts, anchors-langgraph.ts), which says what kind of
 * request it is sending and flattens the request to the text the model reads.
 */
import { setTimeout as sleep } from "node:timers/promises";
import { countTokens } from "../src/text/tokenize.js";
import { type Drafted, draftText, type Oracle, type RequestView, type Support } from "./anchors-oracle.js";
import { type Latency, simulatedCallMs } from "./simulated-llm.js";

/** Passages per search, for every system (ferret's balanced preset uses 6 in its single pass too). */
export const SEARCH_K = 6;

/**
 * What a request asks for. ferret's LLM engine: `route` (after its first search), `plan`, `grade`, `answer`.
 * An AI SDK tool-loop step or LangGraph's generate_query_or_respond: `act` (search, or answer in text).
 * LangGraph's other nodes: `grade_binary`, `rewrite`, `generate`.
 */
export type Task = "route" | "plan" | "grade" | "answer" | "act" | "grade_binary" | "rewrite" | "generate";

export interface ModelRequest {
  task: Task;
  /** Everything the model is shown (system, messages, tool calls and results), flattened. */
  text: string;
  /** For `act` and `plan`: the name of the search tool offered. */
  searchTool?: string;
  /** For `grade`: the request asks for the answer too when the passages suffice. */
  answers?: boolean;
  /** For `grade`: the request asks for the next searches when they do not (the grader is also the planner). */
  plans?: boolean;
}

export type ModelReply =
  | { kind: "text"; text: string; refused: boolean }
  | { kind: "object"; value: Record<string, unknown> }
  | { kind: "calls"; text: string; calls: { tool: string; args: Record<string, unknown> }[] };

export interface CallLog {
  task: Task;
  inputTokens: number;
  outputTokens: number;
  ms: number;
  /** The reply was a refusal in text (`act`, `generate`). */
  refused: boolean;
}

export interface Meter {
  calls: number;
  inputTokens: number;
  outputTokens: number;
  tasks: Task[];
  /** The last call's reply was a refusal. */
  refusedLast: boolean;
}

/** The tokens a reply costs to produce: its text, or its JSON. */
export function replyText(reply: ModelReply): string {
  if (reply.kind === "text") return reply.text;
  if (reply.kind === "object") return JSON.stringify(reply.value);
  return `${reply.text}\n${JSON.stringify(reply.calls)}`;
}

const claimsOf = (supports: Support[]) =>
  supports.map((s) => ({ text: s.sentence, citations: [{ n: s.n, quote: s.quote }] }));

/** A cited answer as ferret's answerer (or a grader that answers) replies it. */
function answerReply(draft: Drafted): Record<string, unknown> {
  const reason = draft.status === "answered" ? null : "The passages do not state all of the answer.";
  return { status: draft.status, claims: claimsOf(draft.supports), reason };
}

export class SimulatedLlm {
  readonly log: CallLog[] = [];

  constructor(
    readonly oracle: Oracle,
    readonly latency: Latency,
  ) {}

  /** The reply to a request: a pure function of the request. */
  decide(request: ModelRequest): ModelReply {
    const view = this.oracle.view(request.text);
    switch (request.task) {
      case "route":
        return { kind: "object", value: this.#route(view) };
      case "plan":
        return this.#plan(view, request.searchTool ?? "search");
      case "grade":
        return { kind: "object", value: this.#grade(view, request) };
      case "answer":
        return { kind: "object", value: answerReply(this.oracle.draft(view)) };
      case "act":
        return this.#act(view, request.searchTool ?? "search");
      case "grade_binary":
        return { kind: "object", value: { binary_score: this.oracle.sufficient(view) ? "yes" : "no" } };
      case "rewrite": {
        // One better question, as the tutorial's rewriter writes: an expert's first sub-question, else the question.
        const q = view.question;
        const text = q.sub_questions.find((s) => s.trim() !== "") ?? q.question;
        return { kind: "text", text, refused: false };
      }
      case "generate": {
        const draft = this.oracle.draft(view);
        return { kind: "text", text: draftText(draft), refused: draft.status === "refused" };
      }
    }
  }

  /**
   * Decides, logs the call and returns when the call's modelled time has passed since it began. The simulator's
   * own work (reading the request, counting tokens) is inside that time, not added to it: it grows with the
   * request's size, which the per-input-token latency already prices, so adding it would charge long prompts twice.
   */
  async call(request: ModelRequest, given?: ModelReply): Promise<ModelReply & CallLog> {
    const start = performance.now();
    const reply = given ?? this.decide(request);
    const inputTokens = countTokens(request.text);
    const outputTokens = countTokens(replyText(reply));
    const ms = simulatedCallMs(this.latency, { inputTokens, outputTokens });
    const refused = reply.kind === "text" && reply.refused;
    this.log.push({ task: request.task, inputTokens, outputTokens, ms, refused });
    const left = ms - (performance.now() - start);
    if (left > 0) await sleep(left);
    return { ...reply, task: request.task, inputTokens, outputTokens, ms, refused };
  }

  /** The calls since the last `take()`, summed; clears the log. */
  take(): Meter {
    const calls = this.log.splice(0);
    return {
      calls: calls.length,
      inputTokens: calls.reduce((n, c) => n + c.inputTokens, 0),
      outputTokens: calls.reduce((n, c) => n + c.outputTokens, 0),
      tasks: calls.map((c) => c.task),
      refusedLast: calls.at(-1)?.refused ?? false,
    };
  }

  #route(view: RequestView): Record<string, unknown> {
    const reply = this.oracle.directReply(view);
    if (reply !== undefined)
      return { route: "none", reason: "No search is needed.", reply, answer: null, searches: null };
    const supports = this.oracle.sufficient(view);
    if (!supports) {
      // With nothing left to search, the answer the passages allow (as the planner and the other systems decide).
      const searches = this.oracle.nextQueries(view);
      return {
        route: "agentic",
        reason: "More searching is needed.",
        reply: null,
        answer: searches.length > 0 ? null : answerReply(this.oracle.draft(view)),
        searches,
      };
    }
    return {
      route: "rag",
      reason: "The passages answer it.",
      reply: null,
      answer: { status: "answered", claims: claimsOf(supports), reason: null },
      searches: null,
    };
  }

  /**
   * Grades, and as asked: the answer when the passages suffice (the grader is also the answerer); otherwise the
   * next searches, the planner's (the grader is also the planner), and with none left the answer the passages allow.
   */
  #grade(view: RequestView, request: ModelRequest): Record<string, unknown> {
    const supports = this.oracle.sufficient(view);
    const sub = supports
      ? { index: 1, coverage: 1, supporting: [...new Set(supports.map((s) => s.n))], missing: [] }
      : { index: 1, coverage: 0.2, supporting: [], missing: ["the answer"] };
    const searches = supports ? null : this.oracle.nextQueries(view);
    let answer: Record<string, unknown> | null = null;
    if (supports) answer = answerReply({ status: "answered", supports });
    else if (request.plans && searches?.length === 0) answer = answerReply(this.oracle.draft(view));
    return {
      subQuestions: [sub],
      ...(request.answers ? { answer } : {}),
      ...(request.plans ? { searches } : {}),
    };
  }

  #plan(view: RequestView, tool: string): ModelReply {
    if (this.oracle.sufficient(view)) return { kind: "calls", text: "The passages cover the question.", calls: [] };
    const queries = this.oracle.nextQueries(view);
    if (queries.length === 0) return { kind: "calls", text: "Nothing more is worth searching.", calls: [] };
    return {
      kind: "calls",
      text: "Searching for what is still missing.",
      calls: queries.map((query) => ({ tool, args: { query, k: SEARCH_K } })),
    };
  }

  #act(view: RequestView, tool: string): ModelReply {
    const reply = this.oracle.directReply(view);
    if (reply !== undefined) return { kind: "text", text: reply, refused: false };
    const supports = this.oracle.sufficient(view);
    if (supports) return { kind: "text", text: supports.map((s) => s.sentence).join(" "), refused: false };
    const queries = this.oracle.nextQueries(view);
    if (queries.length > 0)
      return { kind: "calls", text: "", calls: queries.map((query) => ({ tool, args: { query } })) };
    const draft = this.oracle.draft(view);
    return { kind: "text", text: draftText(draft), refused: draft.status === "refused" };
  }
}
