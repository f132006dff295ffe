import { docHref } from "../api.js";
import { useApi } from "../use-api.js";
import { runMs, Timeline, type TraceEventLike } from "./timeline.js";

interface RunRecord {
  runId: string;
  user: string;
  question: string;
  startedAt: string;
  events: TraceEventLike[];
  answer?: {
    status: string;
    text: string;
    stopReason: string;
    usage: { inputTokens: number; outputTokens: number; costUsd: number; toolCalls: number; llmCalls: number };
    evidence?: { id: string; docId: string; source: string; title?: string; score: number; text: string }[];
  };
  redacted?: { passages: number };
}

/**
 * A run's timeline: per step, a bar per tool call placed by its start and length on the run's clock (parallel
 * calls overlap side by side), each call's arguments and result, the grader's verdicts, model calls with
 * tokens and cost, then the evidence and the answer.
 */
export function RunPage({ runId }: { runId: string }) {
  const { data, error } = useApi<RunRecord>(`/v1/runs/${encodeURIComponent(runId)}`);
  if (error) return <p className="error">{error}</p>;
  if (!data) return <p className="loading">Loading…</p>;
  const events = data.events;
  const total = runMs(events);
  return (
    <section className="page run" aria-label="run">
      <p>
        <a href="#/runs">← Runs</a>
      </p>
      <h1>{data.question}</h1>
      <p className="meta">
        {data.user} · {new Date(data.startedAt).toLocaleString()} · {total} ms
        {data.answer && (
          <>
            {" "}
            · <span className={`badge status-${data.answer.status}`}>{data.answer.status}</span> · stop{" "}
            <strong>{data.answer.stopReason}</strong> · {data.answer.usage.toolCalls} tool calls ·{" "}
            {data.answer.usage.llmCalls} model calls · {data.answer.usage.inputTokens + data.answer.usage.outputTokens}{" "}
            tokens · ${data.answer.usage.costUsd.toFixed(4)}
          </>
        )}
      </p>
      {data.redacted && (
        <p className="warn">{data.redacted.passages} passages you may no longer read are hidden from this trace.</p>
      )}
      <Timeline events={events} />
      {data.answer?.evidence && data.answer.evidence.length > 0 && (
        <>
          <h2>Evidence</h2>
          <ol className="evidence">
            {data.answer.evidence.map((p) => (
              <li key={`${p.source}:${p.id}`}>
                <a href={docHref(p.source, p.docId)}>{p.title ?? p.docId}</a> <span className="badge">{p.source}</span>{" "}
                score {p.score.toFixed(2)}
              </li>
            ))}
          </ol>
        </>
      )}
      {data.answer && (
        <>
          <h2>Answer</h2>
          <p className="answer-text">{data.answer.text}</p>
        </>
      )}
    </section>
  );
}
