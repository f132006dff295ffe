import { type ReactNode, useState } from "react";
import { api } from "../api.js";
import { CitationChip } from "./citation-chip.js";
import { describeCall, Steps } from "./steps.js";
import type { AnswerInfo, CheckpointData, CitationSpan, FerretMessage, ToolOutput } from "./types.js";

/** The answer text with each `[n]` made a citation chip. */
function withChips(text: string, citations: Map<number, CitationSpan>): ReactNode[] {
  const out: ReactNode[] = [];
  let last = 0;
  for (const match of text.matchAll(/\[(\d+)\]/g)) {
    const index = match.index ?? 0;
    if (index > last) out.push(text.slice(last, index));
    const n = Number(match[1]);
    out.push(<CitationChip key={`c${index}`} n={n} citation={citations.get(n)} />);
    last = index + match[0].length;
  }
  if (last < text.length) out.push(text.slice(last));
  return out;
}

const plural = (n: number, what: string) => `${n} ${what}${n === 1 ? "" : "s"}`;

const money = (usd: number) => `$${usd < 0.01 && usd > 0 ? usd.toFixed(4) : usd.toFixed(2)}`;

function Footer({ answer }: { answer: AnswerInfo }) {
  const { usage } = answer;
  return (
    <footer className="answer-foot" data-testid="answer-footer">
      <span title="stop reason">
        stop: <strong data-testid="stop-reason">{answer.stopReason}</strong>
      </span>
      <span>{plural(answer.stepCount, "step")}</span>
      <span>{plural(usage.toolCalls, "tool call")}</span>
      <span>{plural(usage.llmCalls, "model call")}</span>
      <span>{(usage.inputTokens + usage.outputTokens).toLocaleString()} tokens</span>
      <span>{money(usage.costUsd)}</span>
      <span>{(answer.latencyMs / 1000).toFixed(2)} s</span>
      <span className="model">{answer.model}</span>
      <a href={`#/runs/${encodeURIComponent(answer.runId)}`}>timeline</a>
    </footer>
  );
}

/** What the run searched (each tool call with its outcome) and what the grader found missing. */
function Refusal({ message, answer }: { message: FerretMessage; answer: AnswerInfo }) {
  const searched = message.parts.flatMap((p) =>
    p.type === "dynamic-tool"
      ? [{ id: p.toolCallId, text: describeCall(p.toolName, p.input), output: p.output as ToolOutput | undefined }]
      : [],
  );
  const grades = message.parts.flatMap((p) => (p.type === "data-step" && p.data.type === "grade" ? [p.data] : []));
  const missing = [...new Set(grades.at(-1)?.subQuestions.flatMap((q) => q.missing) ?? [])];
  return (
    <section className="refusal" data-testid="refusal" aria-label="refusal">
      <h3>Not answered from the sources</h3>
      {answer.reason && <p>{answer.reason}</p>}
      {searched.length > 0 && (
        <>
          <h4>Searched</h4>
          <ul>
            {searched.map((s) => (
              <li key={s.id}>
                {s.text}
                {s.output &&
                  ` · ${s.output.passages.length} passages${s.output.status !== "ok" ? ` (${s.output.status.replace(/_/g, " ")})` : ""}`}
              </li>
            ))}
          </ul>
        </>
      )}
      {missing.length > 0 && (
        <p>
          <strong>Missing:</strong> {missing.join(", ")}
        </p>
      )}
    </section>
  );
}

/** A paused run's question: continue, answer now, rephrase (with a new query) or stop. */
function Checkpoint({ data }: { data: CheckpointData }) {
  const [sent, setSent] = useState<string | null>(null);
  const [query, setQuery] = useState("");
  if (data.state === "decided")
    return (
      <p className="checkpoint decided">
        checkpoint {data.checkpoint.replace(/_/g, " ")}: {data.decision.replace(/_/g, " ")}
      </p>
    );
  const decide = async (action: string) => {
    setSent(action);
    await api(`/v1/runs/${encodeURIComponent(data.runId)}/decision`, {
      method: "POST",
      body: JSON.stringify(action === "rephrase" ? { action, query } : { action }),
    }).catch(() => setSent(null));
  };
  return (
    <fieldset className="checkpoint" aria-label="checkpoint">
      <p>
        Paused at <strong>{data.checkpoint.replace(/_/g, " ")}</strong> after {data.toolCalls} tool calls with{" "}
        {data.evidence} passages. Go on?
      </p>
      {sent ? (
        <p>Sent: {sent.replace(/_/g, " ")}</p>
      ) : (
        <div className="row">
          <button type="button" onClick={() => decide("continue")}>
            Continue
          </button>
          <button type="button" onClick={() => decide("answer_now")}>
            Answer now
          </button>
          <input aria-label="rephrased query" value={query} onChange={(e) => setQuery(e.target.value)} />
          <button type="button" disabled={query.trim() === ""} onClick={() => decide("rephrase")}>
            Rephrase
          </button>
          <button type="button" onClick={() => decide("stop")}>
            Stop
          </button>
        </div>
      )}
    </fieldset>
  );
}

/** One assistant turn: live steps, then the answer with citation chips (or a refusal), then its footer. */
export function AssistantMessage({ message, live }: { message: FerretMessage; live: boolean }) {
  const text = message.parts.flatMap((p) => (p.type === "text" ? [p.text] : [])).join("");
  const citations = new Map<number, CitationSpan>();
  for (const p of message.parts)
    if (p.type === "data-citation" && !citations.has(p.data.n)) citations.set(p.data.n, p.data);
  const answer = message.parts.findLast((p) => p.type === "data-answer")?.data as AnswerInfo | undefined;
  const checkpoints = message.parts.flatMap((p) => (p.type === "data-checkpoint" ? [p] : []));
  return (
    <article className={`msg msg-assistant${answer ? ` status-${answer.status}` : ""}`} data-testid="assistant-message">
      <Steps parts={message.parts} live={live && !answer} />
      {checkpoints.map((p, i) => (
        <Checkpoint key={p.id ?? i} data={p.data} />
      ))}
      {answer?.status === "refused" ? (
        <Refusal message={message} answer={answer} />
      ) : (
        text && (
          <div className="answer" data-testid="answer">
            {answer?.status === "partial" && <span className="badge warn">partial</span>}
            {withChips(text, citations)}
            {answer?.unsupported && answer.unsupported.length > 0 && (
              <p className="warn">Claims whose citations failed the check: {answer.unsupported.join("; ")}</p>
            )}
          </div>
        )
      )}
      {answer && <Footer answer={answer} />}
    </article>
  );
}
