import { METRICS } from "./aggregate.js";
import { FAILURE_STAGES } from "./attribution.js";
import { formatDelta, formatValue } from "./format.js";
import { calibrateThreshold, confidencePoints, riskCoverage, TARGET_REFUSAL_PRECISION } from "./risk-coverage.js";
import type { EvalReport, QuestionResult } from "./run-eval.js";
import { barChart, escapeXml as esc, histogram, lineChart } from "./svg-charts.js";
import { traceLines } from "./trace-lines.js";

const CSS = `body{font:14px/1.4 system-ui,sans-serif;margin:24px;color:#222;max-width:1100px}
table{border-collapse:collapse;margin:8px 0 16px}td,th{border:1px solid #ccc;padding:3px 8px;text-align:right}
td:first-child,th:first-child{text-align:left}.good{color:#17803d}.bad{color:#b42318}
details{border:1px solid #ddd;margin:4px 0;padding:4px 8px}summary{cursor:pointer}
pre{white-space:pre-wrap;font-size:12px;background:#f6f6f6;padding:6px}.charts{display:flex;flex-wrap:wrap;gap:24px}
.tag{display:inline-block;padding:0 6px;border-radius:3px;background:#eee;font-size:12px}`;

const anchor = (id: string) => `q-${id}`;
const href = (id: string) => `#${encodeURIComponent(anchor(id))}`;

function headlineTable(report: EvalReport): string {
  const overall = report.aggregates.overall;
  const base = report.baseline?.aggregates.overall;
  const head = `<tr><th>metric</th><th>run</th><th>n</th>${base ? "<th>baseline</th><th>delta</th>" : ""}</tr>`;
  const rows = METRICS.map((def) => {
    let extra = "";
    if (base) {
      const delta = report.deltas?.[def.name] ?? null;
      const good = delta !== null && delta !== 0 && delta > 0 === (def.better === "higher");
      const cls = delta === null || delta === 0 ? "" : good ? "good" : "bad";
      extra = `<td>${formatValue(base.metrics[def.name], def.format)}</td><td class="${cls}">${formatDelta(delta, def.format)}</td>`;
    }
    return `<tr><td>${esc(def.name)}</td><td>${formatValue(overall.metrics[def.name], def.format)}</td><td>${overall.counts[def.name] ?? 0}</td>${extra}</tr>`;
  });
  return `<table id="headline">${head}${rows.join("")}</table>`;
}

function typeSection(report: EvalReport): string {
  const types = Object.entries(report.aggregates.byType);
  const baseTypes = report.baseline?.aggregates.byType;
  const series = [
    { name: "answer correctness", color: "#4a7bd0" },
    { name: "evidence recall", color: "#6fbf73" },
    ...(baseTypes ? [{ name: "baseline correctness", color: "#b0b0b0" }] : []),
  ];
  const groups = types.map(([type, agg]) => ({
    label: `${type} (${agg.n})`,
    values: [
      agg.metrics.answer_correctness ?? null,
      agg.metrics.evidence_recall ?? null,
      ...(baseTypes ? [baseTypes[type]?.metrics.answer_correctness ?? null] : []),
    ],
  }));
  const rows = types.map(
    ([type, agg]) =>
      `<tr><td>${esc(type)}</td><td>${agg.n}</td><td>${formatValue(agg.metrics.answer_correctness, "ratio")}</td><td>${formatValue(agg.metrics.evidence_recall, "ratio")}</td><td>${formatValue(agg.metrics["recall@5"], "ratio")}</td>${baseTypes ? `<td>${formatValue(baseTypes[type]?.metrics["recall@5"], "ratio")}</td>` : ""}<td>${formatValue(agg.metrics.citation_precision, "ratio")}</td><td>${formatValue(agg.metrics.tool_recall, "ratio")}</td><td>${formatValue(agg.metrics.latency_p50_ms, "ms")}</td></tr>`,
  );
  const table = `<table><tr><th>type</th><th>n</th><th>correct</th><th>evidence recall</th><th>recall@5</th>${baseTypes ? "<th>single-pass recall@5</th>" : ""}<th>citation precision</th><th>tool recall</th><th>latency p50</th></tr>${rows.join("")}</table>`;
  return `<h2>By question type</h2>${table}<div class="charts">${barChart({ title: "Per type", series, groups })}${histogram(
    { title: "Latency", values: report.results.map((r) => r.metrics.latency_ms), unit: "ms" },
  )}</div>`;
}

/** Risk–coverage: answers sorted by confidence, coverage against accuracy; and the calibrated threshold. */
function riskSection(report: EvalReport): string {
  const points = confidencePoints(report.results);
  const curve = riskCoverage(points);
  const cal = calibrateThreshold(points, TARGET_REFUSAL_PRECISION);
  const note =
    cal.threshold === null
      ? `No confidence threshold reaches a refusal precision of ${cal.target}.`
      : `Refusing answers below confidence ${cal.threshold} would refuse ${cal.refused}, ${Math.round((cal.precision ?? 0) * 100)}% of them to questions that expect a refusal (target ${Math.round(cal.target * 100)}%).`;
  const chart = lineChart({
    title: "Risk–coverage",
    points: curve.map((p) => ({ x: p.coverage, y: p.accuracy })),
    xLabel: "coverage (share answered)",
    yLabel: "accuracy of answered",
  });
  return `<h2>Risk–coverage</h2><div class="charts" id="risk-coverage">${chart}</div><p>${esc(note)}</p>`;
}

function failureSection(report: EvalReport): string {
  const f = report.aggregates.overall.failures;
  const rows = FAILURE_STAGES.map((s) => `<tr><td>${s}</td><td>${f[s]}</td></tr>`).join("");
  return `<h2>Failure attribution</h2><table id="failures"><tr><th>stage</th><th>questions</th></tr>${rows}</table>`;
}

/** Failed questions, errors first, then by lowest answer F1 and evidence recall. */
function worst(results: readonly QuestionResult[], limit: number): QuestionResult[] {
  const key = (r: QuestionResult) => [r.error ? 0 : 1, r.metrics.answer_f1, r.metrics.evidence_recall ?? 1];
  return results
    .filter((r) => r.failure !== null)
    .sort((a, b) => {
      const [ka, kb] = [key(a), key(b)];
      return ka[0]! - kb[0]! || ka[1]! - kb[1]! || ka[2]! - kb[2]!;
    })
    .slice(0, limit);
}

function worstSection(report: EvalReport): string {
  const rows = worst(report.results, 25).map(
    (r) =>
      `<tr><td><a href="${href(r.id)}">${esc(r.id)}</a></td><td>${esc(r.type)}</td><td>${esc(r.answer?.status ?? "error")}</td><td>${esc(r.answer?.stopReason ?? "-")}</td><td>${esc(r.failure?.stage ?? "")}</td><td style="text-align:left">${esc(r.failure?.reason ?? "")}</td></tr>`,
  );
  if (rows.length === 0) return "<h2>Worst questions</h2><p>Every answer is correct.</p>";
  return `<h2>Worst questions</h2><table id="worst"><tr><th>id</th><th>type</th><th>status</th><th>stop reason</th><th>stage</th><th>reason</th></tr>${rows.join("")}</table>`;
}

function baselineBlock(b: QuestionResult | undefined): string {
  if (!b) return "";
  const mark = b.metrics.answer_correct === 1 ? "✓" : "✗";
  const what = b.answer ? `${b.answer.status} (${b.answer.stopReason})` : "error";
  const text = b.answer ? b.answer.text : (b.error ?? "");
  const failure = b.failure ? `\nfailure: ${b.failure.stage}: ${b.failure.reason}` : "";
  return `<p><b>Baseline</b> ${mark} <span class="tag">${esc(what)}</span></p><pre>${esc(text + failure)}</pre>`;
}

function questionDetails(r: QuestionResult, baseline?: QuestionResult): string {
  const ok = r.metrics.answer_correct === 1;
  const a = r.answer;
  const metrics = Object.entries(r.metrics)
    .filter(([, v]) => v !== null)
    .map(([k, v]) => `${k}=${Number.isInteger(v) ? v : (v as number).toFixed(3)}`)
    .join(" ");
  const citations = (a?.citations ?? []).map((c) => `[${c.n}] ${c.docId}: "${c.quote}"`).join("\n");
  const body = [
    `<p><b>Question:</b> ${esc(r.question)}</p>`,
    a
      ? `<p><b>Answer</b> <span class="tag">${esc(a.status)}</span> <span class="tag">${esc(a.stopReason)}</span> <span class="tag">${esc(a.model)}</span></p><pre>${esc(a.text)}${a.reason ? `\n\nreason: ${esc(a.reason)}` : ""}</pre>`
      : `<p><b>Error:</b> ${esc(r.error ?? "")}</p>`,
    citations ? `<p><b>Citations</b></p><pre>${esc(citations)}</pre>` : "",
    baselineBlock(baseline),
    r.failure ? `<p><b>Failure:</b> ${esc(r.failure.stage)}: ${esc(r.failure.reason)}</p>` : "",
    `<p><b>Searched:</b> ${esc(r.searched.join(", ") || "nothing")}; <b>retrieved:</b> ${esc(r.retrieved.slice(0, 10).join(", ") || "nothing")}</p>`,
    `<p><b>Metrics:</b> <code>${esc(metrics)}</code></p>`,
    `<p><b>Trace</b></p><pre>${esc(traceLines(r.events).join("\n"))}</pre>`,
  ].join("");
  return `<details id="${esc(anchor(r.id))}"><summary>${ok ? "✓" : "✗"} ${esc(r.id)} <span class="tag">${esc(r.type)}</span> ${esc(r.question)}</summary>${body}</details>`;
}

/** The whole report as one self-contained HTML page (inline CSS and SVG, no scripts, no external assets). */
export function renderHtml(report: EvalReport): string {
  const { set } = report;
  const baselineById = new Map(report.baseline?.results.map((r) => [r.id, r]));
  const model = report.results.find((r) => r.answer)?.answer?.model ?? "unknown";
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>ferret eval: ${esc(set.name)}</title><style>${CSS}</style></head><body>
<h1>ferret eval: ${esc(set.name)}</h1>
<p>${set.questions} of ${set.total} questions, tenant <code>${esc(set.tenant)}</code>, model <code>${esc(model)}</code>, ${esc(report.startedAt)} to ${esc(report.finishedAt)}${report.baseline ? ", with baseline" : ""}.</p>
<h2>Headline</h2>${headlineTable(report)}
${typeSection(report)}
${riskSection(report)}
${failureSection(report)}
${worstSection(report)}
<h2>Questions</h2>
${report.results.map((r) => questionDetails(r, baselineById.get(r.id))).join("\n")}
</body></html>
`;
}
