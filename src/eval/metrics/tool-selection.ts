import type { Answer } from "../../spec/answer.js";
import type { TraceEvent } from "../../spec/trace.js";

const SOURCE_ARGS = ["corpus", "source", "sources", "table", "corpora"] as const;

function strings(value: unknown): string[] {
  if (typeof value === "string") return [value];
  if (Array.isArray(value)) return value.filter((v): v is string => typeof v === "string");
  return [];
}

/**
 * The sources a run searched: named in tool-call arguments (`corpus`, `source`, `sources`, `table`,
 * `corpora`), named as a word in a `sql` argument, or carried by any passage it retrieved. Only names in
 * `sourceNames` count.
 */
export function searchedSources(
  answer: Pick<Answer, "evidence"> | undefined,
  events: readonly TraceEvent[],
  sourceNames: readonly string[],
): string[] {
  const known = new Set(sourceNames);
  const searched = new Set<string>();
  const add = (name: string) => {
    if (known.has(name)) searched.add(name);
  };
  for (const event of events) {
    // Probes look in every source to decide where to search; they are not the run's choice of source.
    if (event.type === "tool-call-start" && event.call.purpose === "probe") continue;
    if (event.type === "tool-call-end" && event.purpose === "probe") continue;
    if (event.type === "tool-call-start") {
      const args = event.call.args;
      for (const key of SOURCE_ARGS) strings(args[key]).forEach(add);
      for (const sql of strings(args.sql).concat(strings(args.query).filter(() => event.call.tool === "run_sql"))) {
        for (const name of sourceNames) if (new RegExp(`\\b${name}\\b`, "i").test(sql)) add(name);
      }
    } else if (event.type === "tool-call-end") {
      for (const p of event.passages) add(p.source);
    }
  }
  for (const e of answer?.evidence ?? []) add(e.source);
  return [...searched].sort();
}

export interface ToolSelection {
  /** Searched sources that are in `gold_tools`, over searched sources; `null` when nothing was searched. */
  precision: number | null;
  /** `gold_tools` that were searched, over `gold_tools`; `null` when there are none. */
  recall: number | null;
}

export function toolSelection(searched: readonly string[], goldTools: readonly string[]): ToolSelection {
  const gold = new Set(goldTools);
  const done = new Set(searched);
  return {
    precision: done.size === 0 ? null : [...done].filter((s) => gold.has(s)).length / done.size,
    recall: gold.size === 0 ? null : [...gold].filter((g) => done.has(g)).length / gold.size,
  };
}
