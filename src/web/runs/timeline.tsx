import { describeCall } from "../chat/steps.js";
import type { SubQuestionGrade } from "../chat/types.js";

/** The trace events of a stored run, as `GET /v1/runs/{id}` returns them (see src/spec/trace.ts). */
export interface TraceEventLike {
  type: string;
  step: number;
  t: number;
  [field: string]: unknown;
}

interface Call {
  callId: string;
  tool: string;
  args: Record<string, unknown>;
  step: number;
  start: number;
  ms?: number;
  status?: string;
  passages?: number;
  best?: number;
  cached?: boolean;
}

function calls(events: TraceEventLike[]): Call[] {
  const byId = new Map<string, Call>();
  for (const e of events) {
    if (e.type === "tool-call-start") {
      const call = e.call as { callId: string; tool: string; args: Record<string, unknown> };
      byId.set(call.callId, { callId: call.callId, tool: call.tool, args: call.args, step: e.step, start: e.t });
    } else if (e.type === "tool-call-end") {
      const c = byId.get(e.callId as string);
      if (c) {
        c.ms = e.ms as number;
        c.status = e.status as string;
        c.passages = (e.passages as unknown[]).length;
        c.best = e.best as number | undefined;
        c.cached = e.cached as boolean | undefined;
      }
    }
  }
  return [...byId.values()];
}

/**
 * A run's steps: per step, a bar per tool call placed by its start and length on the run's clock (parallel
 * calls overlap side by side), each call's arguments and result, the grader's verdicts, and model calls with
 * tokens and cost.
 */
export function Timeline({ events }: { events: TraceEventLike[] }) {
  const all = calls(events);
  const total = runMs(events);
  const steps = [...new Set(events.map((e) => e.step))].sort((a, b) => a - b);
  return (
    <ol className="timeline" data-testid="timeline">
      {steps.map((step) => {
        const stepEvents = events.filter((e) => e.step === step);
        const stepCalls = all.filter((c) => c.step === step);
        return (
          <li key={step} className="tl-step">
            <h2>Step {step}</h2>
            {stepEvents.map((e, i) => {
              const key = `${e.type}-${i}`;
              if (e.type === "route")
                return (
                  <p key={key}>
                    route: {String(e.route)} — {String(e.reason)}
                  </p>
                );
              if (e.type === "plan") return <p key={key}>plan: {String(e.thought)}</p>;
              if (e.type === "grade") {
                const grades = e.subQuestions as SubQuestionGrade[];
                return (
                  <div key={key} className="grades">
                    grader: <strong>{e.sufficient ? "sufficient" : "not sufficient"}</strong> (threshold{" "}
                    {Number(e.threshold).toFixed(2)})
                    <ul>
                      {grades.map((g) => (
                        <li key={g.index} className={g.sufficient ? "ok" : "warn"}>
                          {g.text} · coverage {g.coverage.toFixed(2)} · confidence {g.confidence.toFixed(2)}
                          {g.missing.length > 0 && ` · missing ${g.missing.join(", ")}`}
                        </li>
                      ))}
                    </ul>
                  </div>
                );
              }
              if (e.type === "llm-call")
                return (
                  <p key={key} className="small">
                    model {String(e.model)} ({String(e.role)}) · {Number(e.inputTokens) + Number(e.outputTokens)} tokens
                    · ${Number(e.costUsd).toFixed(4)} · {String(e.ms)} ms
                  </p>
                );
              if (e.type === "checkpoint")
                return (
                  <p key={key}>
                    checkpoint {String(e.checkpoint)}: {String(e.decision ?? "continue")}
                  </p>
                );
              if (e.type === "error")
                return (
                  <p key={key} className="warn">
                    {String(e.name)}: {String(e.message)}
                  </p>
                );
              return null;
            })}
            {stepCalls.length > 0 && (
              <ul className="gantt">
                {stepCalls.map((c) => (
                  <li key={c.callId} data-testid="tool-call">
                    <div className="gantt-track" aria-hidden="true">
                      <span
                        className={`gantt-bar${c.status && c.status !== "ok" ? " bar-warn" : ""}`}
                        style={{
                          left: `${(c.start / total) * 100}%`,
                          width: `${Math.max(0.5, ((c.ms ?? 0) / total) * 100)}%`,
                        }}
                      />
                    </div>
                    <details>
                      <summary>
                        {describeCall(c.tool, c.args)} · {c.status ?? "unfinished"} · {c.passages ?? 0} passages
                        {c.best !== undefined && ` · best ${c.best.toFixed(2)}`} · {c.start}–{c.start + (c.ms ?? 0)} ms
                        {c.cached && " · cached"}
                      </summary>
                      <pre>{JSON.stringify(c.args, null, 2)}</pre>
                    </details>
                  </li>
                ))}
              </ul>
            )}
          </li>
        );
      })}
    </ol>
  );
}

/** How long a run took on its own clock: its end, or its last tool call's. */
export function runMs(events: TraceEventLike[]): number {
  const end = events.find((e) => e.type === "run-end");
  return Math.max(1, (end?.ms as number | undefined) ?? 0, ...calls(events).map((c) => c.start + (c.ms ?? 0)));
}
