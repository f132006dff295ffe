import { type FormEvent, useState } from "react";
import { STOP_REASONS } from "../../spec/answer.js";
import type { RunSummary } from "../api.js";
import { useApi } from "../use-api.js";

/** The caller's runs, newest first, filtered by status, stop reason, user and date (through the API's query). */
export function RunsPage({ query }: { query: URLSearchParams }) {
  const [form, setForm] = useState({
    status: query.get("status") ?? "",
    stopReason: query.get("stopReason") ?? "",
    user: query.get("user") ?? "",
    before: query.get("before") ?? "",
  });
  const params = new URLSearchParams({ limit: "100" });
  for (const [k, v] of query) if (v) params.set(k, k === "before" ? new Date(`${v}T23:59:59.999Z`).toISOString() : v);
  const { data, error } = useApi<{ runs: RunSummary[] }>(`/v1/runs?${params}`);
  const apply = (e: FormEvent) => {
    e.preventDefault();
    const q = new URLSearchParams(Object.entries(form).filter(([, v]) => v !== ""));
    window.location.hash = `#/runs${q.size > 0 ? `?${q}` : ""}`;
  };
  return (
    <section className="page" aria-label="runs">
      <h1>Runs</h1>
      <form className="filters" onSubmit={apply} aria-label="filter runs">
        <label>
          Status
          <select value={form.status} onChange={(e) => setForm({ ...form, status: e.target.value })}>
            <option value="">any</option>
            <option>answered</option>
            <option>partial</option>
            <option>refused</option>
          </select>
        </label>
        <label>
          Stop reason
          <select value={form.stopReason} onChange={(e) => setForm({ ...form, stopReason: e.target.value })}>
            <option value="">any</option>
            {STOP_REASONS.map((r) => (
              <option key={r}>{r}</option>
            ))}
          </select>
        </label>
        <label>
          User
          <input value={form.user} onChange={(e) => setForm({ ...form, user: e.target.value })} />
        </label>
        <label>
          On or before
          <input type="date" value={form.before} onChange={(e) => setForm({ ...form, before: e.target.value })} />
        </label>
        <button type="submit">Filter</button>
      </form>
      {error && <p className="error">{error}</p>}
      {data && data.runs.length === 0 && <p className="empty">No runs.</p>}
      {data && data.runs.length > 0 && (
        <div className="table-wrap">
          <table data-testid="runs">
            <thead>
              <tr>
                <th>Question</th>
                <th>User</th>
                <th>Started</th>
                <th>Status</th>
                <th>Stop reason</th>
                <th>Cost</th>
                <th>Time</th>
              </tr>
            </thead>
            <tbody>
              {data.runs.map((r) => (
                <tr key={r.runId}>
                  <td>
                    <a href={`#/runs/${encodeURIComponent(r.runId)}`}>{r.question}</a>
                  </td>
                  <td>{r.user}</td>
                  <td>{new Date(r.startedAt).toLocaleString()}</td>
                  <td>
                    <span className={`badge status-${r.status ?? "none"}`}>{r.status ?? "—"}</span>
                  </td>
                  <td>{r.stopReason ?? "—"}</td>
                  <td>{r.costUsd !== undefined ? `$${r.costUsd.toFixed(4)}` : "—"}</td>
                  <td>{r.latencyMs !== undefined ? `${(r.latencyMs / 1000).toFixed(2)} s` : "—"}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
