/**
 * Prometheus metrics in the text exposition format: counters and histograms with labels, kept in memory.
 * Label values are escaped as the format requires; names are fixed here, never taken from input.
 */

type Labels = Record<string, string>;

const escapeLabel = (value: string) => value.replace(/\\/g, "\\\\").replace(/\n/g, "\\n").replace(/"/g, '\\"');
const labelText = (labels: Labels) => {
  const entries = Object.entries(labels);
  return entries.length === 0 ? "" : `{${entries.map(([k, v]) => `${k}="${escapeLabel(v)}"`).join(",")}}`;
};
const keyOf = (labels: Labels) => JSON.stringify(Object.entries(labels).sort(([a], [b]) => (a < b ? -1 : 1)));

/** Most distinct label sets a metric keeps; past it, new sets are folded into `other`. */
const MAX_SERIES = 2000;

class Counter {
  readonly #values = new Map<string, { labels: Labels; value: number }>();
  constructor(
    readonly name: string,
    readonly help: string,
  ) {}

  inc(labels: Labels = {}, by = 1): void {
    let key = keyOf(labels);
    if (!this.#values.has(key) && this.#values.size >= MAX_SERIES) {
      labels = Object.fromEntries(Object.keys(labels).map((k) => [k, "other"]));
      key = keyOf(labels);
    }
    const entry = this.#values.get(key) ?? { labels, value: 0 };
    entry.value += by;
    this.#values.set(key, entry);
  }

  value(labels: Labels = {}): number {
    return this.#values.get(keyOf(labels))?.value ?? 0;
  }

  render(): string {
    const lines = [`# HELP ${this.name} ${this.help}`, `# TYPE ${this.name} counter`];
    for (const { labels, value } of this.#values.values()) lines.push(`${this.name}${labelText(labels)} ${value}`);
    return lines.join("\n");
  }
}

class Gauge {
  constructor(
    readonly name: string,
    readonly help: string,
    readonly read: () => number,
  ) {}

  render(): string {
    return [`# HELP ${this.name} ${this.help}`, `# TYPE ${this.name} gauge`, `${this.name} ${this.read()}`].join("\n");
  }
}

class Histogram {
  readonly #series = new Map<string, { labels: Labels; counts: number[]; sum: number; count: number }>();
  constructor(
    readonly name: string,
    readonly help: string,
    readonly buckets: readonly number[],
  ) {}

  observe(labels: Labels, value: number): void {
    let key = keyOf(labels);
    if (!this.#series.has(key) && this.#series.size >= MAX_SERIES) {
      labels = Object.fromEntries(Object.keys(labels).map((k) => [k, "other"]));
      key = keyOf(labels);
    }
    const entry = this.#series.get(key) ?? { labels, counts: this.buckets.map(() => 0), sum: 0, count: 0 };
    this.buckets.forEach((le, i) => {
      if (value <= le) entry.counts[i] = (entry.counts[i] ?? 0) + 1;
    });
    entry.sum += value;
    entry.count += 1;
    this.#series.set(key, entry);
  }

  render(): string {
    const lines = [`# HELP ${this.name} ${this.help}`, `# TYPE ${this.name} histogram`];
    for (const { labels, counts, sum, count } of this.#series.values()) {
      this.buckets.forEach((le, i) => {
        lines.push(`${this.name}_bucket${labelText({ ...labels, le: String(le) })} ${counts[i]}`);
      });
      lines.push(`${this.name}_bucket${labelText({ ...labels, le: "+Inf" })} ${count}`);
      lines.push(`${this.name}_sum${labelText(labels)} ${sum}`);
      lines.push(`${this.name}_count${labelText(labels)} ${count}`);
    }
    return lines.join("\n");
  }
}

const SECONDS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

/** The server's metrics. */
export class ServerMetrics {
  readonly requests = new Counter("ferret_http_requests_total", "HTTP requests by route, method and status.");
  readonly latency = new Histogram(
    "ferret_http_request_duration_seconds",
    "Time to the response head, by route and method.",
    SECONDS,
  );
  readonly toolCalls = new Counter("ferret_tool_calls_total", "Tool calls by tool and status.");
  readonly llmCalls = new Counter("ferret_llm_calls_total", "Model calls by role and model.");
  readonly tokens = new Counter("ferret_llm_tokens_total", "Model tokens by direction (input, output).");
  readonly cost = new Counter("ferret_cost_usd_total", "Model cost in USD, from the price table.");
  readonly runs = new Counter("ferret_runs_total", "Finished runs by status and stop reason.");
  readonly refusals = new Counter("ferret_refusals_total", "Runs that ended in a refusal, by stop reason.");
  readonly #gauges: Gauge[] = [];

  gauge(name: string, help: string, read: () => number): void {
    this.#gauges.push(new Gauge(name, help, read));
  }

  render(): string {
    const all = [
      this.requests,
      this.latency,
      this.toolCalls,
      this.llmCalls,
      this.tokens,
      this.cost,
      this.runs,
      this.refusals,
      ...this.#gauges,
    ];
    return `${all.map((m) => m.render()).join("\n")}\n`;
  }
}
