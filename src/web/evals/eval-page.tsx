import { useState } from "react";
import { Timeline } from "../runs/timeline.js";
import { type LoadedReport, outcomeOf, readReportFiles, verdict } from "./report-files.js";

const fmt = (v: number | null | undefined) =>
  v == null ? "—" : Math.abs(v) <= 1 && !Number.isInteger(v) ? v.toFixed(3) : v.toLocaleString();

/**
 * An evaluation report from `ferret eval --out DIR`, opened from the files (nothing is uploaded): headline
 * metrics coloured by their thresholds, a table per question type, and each question's gold answer beside
 * ferret's, filtered by type and outcome.
 */
export function EvalPage() {
  const [loaded, setLoaded] = useState<LoadedReport | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [type, setType] = useState("");
  const [outcome, setOutcome] = useState("");
  const open = async (files: FileList | null) => {
    if (!files) return;
    try {
      setError(null);
      setLoaded(await readReportFiles([...files]));
    } catch (e) {
      setError(`Could not read the report: ${e instanceof Error ? e.message : String(e)}`);
    }
  };
  const report = loaded?.report;
  const thresholds = report && loaded?.thresholds ? (loaded.thresholds[report.set.name] ?? {}) : {};
  const types = [...new Set(loaded?.results.map((r) => r.type) ?? [])].sort();
  const shown =
    loaded?.results.filter((r) => (!type || r.type === type) && (!outcome || outcomeOf(r) === outcome)) ?? [];
  const overall = report?.aggregates.overall.metrics ?? {};
  const base = report?.baseline?.aggregates.overall.metrics ?? {};
  const metricNames = Object.keys(overall);
  return (
    <section className="page" aria-label="evaluation">
      <h1>Evaluation report</h1>
      <label className="file-pick">
        Open the files of a report folder (<code>report.json</code>, <code>results.jsonl</code>,{" "}
        <code>traces.jsonl</code>; optionally the set's <code>questions.jsonl</code> for gold answers and{" "}
        <code>eval/thresholds.json</code>):{" "}
        <input type="file" multiple accept=".json,.jsonl" onChange={(e) => void open(e.target.files)} />
      </label>
      {error && <p className="error">{error}</p>}
      {report && (
        <>
          <h2>
            {report.set.name} · {report.aggregates.overall.n} questions · {new Date(report.startedAt).toLocaleString()}
          </h2>
          <div className="metrics" data-testid="headline">
            {metricNames.map((name) => {
              const v = verdict(overall[name], thresholds[name], base[name]);
              return (
                <div key={name} className={`metric${v ? ` metric-${v}` : ""}`}>
                  <span className="metric-name">{name}</span>
                  <span className="metric-value">{fmt(overall[name])}</span>
                  {v && <span className="metric-verdict">{v}</span>}
                </div>
              );
            })}
          </div>
          <h2>By question type</h2>
          <div className="table-wrap">
            <table>
              <thead>
                <tr>
                  <th>type</th>
                  <th>n</th>
                  {["answer_correctness", "citation_precision", "evidence_recall", "refusal_accuracy"].map((m) => (
                    <th key={m}>{m}</th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {Object.entries(report.aggregates.byType).map(([t, a]) => (
                  <tr key={t}>
                    <td>{t}</td>
                    <td>{a.n}</td>
                    {["answer_correctness", "citation_precision", "evidence_recall", "refusal_accuracy"].map((m) => (
                      <td key={m}>{fmt(a.metrics[m])}</td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
      {loaded && loaded.results.length > 0 && (
        <>
          <h2>Questions</h2>
          <fieldset className="filters" aria-label="filter questions">
            <label>
              Type
              <select value={type} onChange={(e) => setType(e.target.value)}>
                <option value="">any</option>
                {types.map((t) => (
                  <option key={t}>{t}</option>
                ))}
              </select>
            </label>
            <label>
              Outcome
              <select value={outcome} onChange={(e) => setOutcome(e.target.value)}>
                <option value="">any</option>
                <option>correct</option>
                <option>wrong</option>
                <option>refused</option>
                <option>error</option>
              </select>
            </label>
            <span className="small" data-testid="question-count">
              {shown.length} of {loaded.results.length}
            </span>
          </fieldset>
          <ul className="questions" data-testid="questions">
            {shown.map((r) => (
              <li key={r.id} className={`question outcome-${outcomeOf(r)}`}>
                <h3>
                  <span className="badge">{r.type}</span> <span className="badge">{outcomeOf(r)}</span> {r.question}
                </h3>
                <div className="side-by-side">
                  <div>
                    <h4>Gold</h4>
                    <p>{loaded.gold.get(r.id) ?? "(open questions.jsonl to see it)"}</p>
                  </div>
                  <div>
                    <h4>ferret</h4>
                    <p>{r.answer?.text ?? "(no answer)"}</p>
                    {r.answer && r.answer.citations.length > 0 && (
                      <ol className="small">
                        {r.answer.citations.map((c, i) => (
                          // biome-ignore lint/suspicious/noArrayIndexKey: a fixed list read from a file; a citation may repeat
                          <li key={`${i}-${c.n}`} value={c.n}>
                            {c.source}/{c.docId}: “{c.quote}”
                          </li>
                        ))}
                      </ol>
                    )}
                    {r.answer && (
                      <p className="small">
                        stop {r.answer.stopReason}
                        {r.failure && ` · failed at ${r.failure.stage}`}
                        {!loaded.traces.has(r.id) && (
                          <>
                            {" "}
                            · <a href={`#/runs/${encodeURIComponent(r.answer.runId)}`}>trace</a>
                          </>
                        )}
                      </p>
                    )}
                    {loaded.traces.has(r.id) && (
                      <details className="trace">
                        <summary>trace</summary>
                        <Timeline events={loaded.traces.get(r.id) ?? []} />
                      </details>
                    )}
                  </div>
                </div>
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
