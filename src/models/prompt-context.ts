/** Renders parts of the agent state for prompts. Retrieved text only ever passes through the fence. */
import { fenceData, fenceEvidence, fenceTurns, neutraliseLabel } from "../safety/fence.js";
import type { AgentState, ToolDescriptor } from "../spec/engine.js";
import { passageKey } from "../spec/passage.js";
import type { SourceInfo } from "../spec/source.js";

export function questionBlock(state: Pick<AgentState, "question" | "standaloneQuestion">): string {
  const lines = [`Original question: ${state.question}`];
  if (state.standaloneQuestion && state.standaloneQuestion !== state.question) {
    lines.push(`Standalone form: ${state.standaloneQuestion}`);
  }
  return lines.join("\n");
}

export function sourcesBlock(sources: readonly SourceInfo[]): string {
  if (sources.length === 0) return "Sources: none configured.";
  // Names, descriptions and column names come from the data (sources.json, CSV headers): shown as labels.
  const lines = sources.map((s) => {
    const table = (s.tables ?? [])
      .map(
        (t) =>
          ` Table ${neutraliseLabel(t.name, 80)} columns: ${t.columns.map((c) => `${neutraliseLabel(c.name, 80)} ${neutraliseLabel(c.type, 40)}`).join(", ")}.`,
      )
      .join("");
    const description = s.description ? neutraliseLabel(s.description, 500) : "no description";
    return `- ${neutraliseLabel(s.name)} (${s.kind}, ${s.documents} documents, ${s.chunks} chunks): ${description}.${table}`;
  });
  return `Sources:\n${lines.join("\n")}`;
}

export function subQuestionsBlock(subQuestions: readonly string[]): string {
  if (subQuestions.length === 0) return "";
  return `Sub-questions:\n${subQuestions.map((q, i) => `${i + 1}. ${q}`).join("\n")}`;
}

/** What was already searched, with status and hints, so the planner does not repeat itself. */
export function callsBlock(state: Pick<AgentState, "calls" | "evidence">): string {
  if (state.calls.length === 0) return "Searches so far: none.";
  const numberOf = new Map(state.evidence.map((e, i) => [passageKey(e), i + 1]));
  const lines = state.calls.map((c) => {
    const found = c.passageKeys.map((key) => numberOf.get(key)).filter((n) => n !== undefined);
    const passages = found.length ? ` -> passages ${found.map((n) => `[${n}]`).join(" ")}` : "";
    // Hints can name data (a document's title, a table's columns): shown as a label.
    const hint = c.hint ? ` (hint: ${neutraliseLabel(c.hint, 600)})` : "";
    const rows = c.rows ? ` -> ${c.rows.length} rows` : "";
    return `- step ${c.step}: ${c.call.tool} ${JSON.stringify(c.call.args)} => ${c.status}${passages}${rows}${hint}`;
  });
  return `Searches so far:\n${lines.join("\n")}`;
}

/** SQL rows returned so far, fenced as data. */
export function rowsBlock(state: Pick<AgentState, "calls">, maxChars = 2000): string {
  const blocks = state.calls
    .filter((c) => c.rows && c.rows.length > 0)
    .map((c) => fenceData(`rows of ${c.call.tool} at step ${c.step}`, JSON.stringify(c.rows), { maxChars }));
  return blocks.join("\n\n");
}

export function gradeBlock(state: Pick<AgentState, "lastGrade">): string {
  const grade = state.lastGrade;
  if (!grade) return "";
  const lines = grade.subQuestions.map(
    (g) =>
      `- ${g.index}. ${g.text}: coverage ${g.coverage.toFixed(2)}${g.sufficient ? " (enough)" : ""}${g.missing.length ? `; missing: ${g.missing.join(", ")}` : ""}`,
  );
  return `Last evidence check (threshold ${grade.threshold.toFixed(2)}):\n${lines.join("\n")}`;
}

/** The evidence, fenced; with `recent`, only the latest passages are shown (numbering is kept). */
export function evidenceBlock(
  state: Pick<AgentState, "evidence">,
  options: { maxChars: number; recent?: number },
): string {
  const total = state.evidence.length;
  const from = options.recent !== undefined ? Math.max(0, total - options.recent) : 0;
  const only = Array.from({ length: total - from }, (_, i) => from + i + 1);
  const note = from > 0 ? `(passages 1-${from} omitted here)\n` : "";
  return `${note}${fenceEvidence(state.evidence, { maxChars: options.maxChars, only })}`;
}

/** Tools described for the text protocol: name, description, JSON Schema of the arguments. */
export function toolsBlock(tools: readonly ToolDescriptor[]): string {
  return tools
    .map((t) => `- ${t.name}: ${t.description}\n  PARAMS schema: ${JSON.stringify(t.inputSchema)}`)
    .join("\n");
}

/** Earlier turns, each fenced as data (an earlier "SYSTEM: ..." is quoted material, not an instruction). */
export function historyBlock(history: AgentState["history"], maxCharsPerTurn = 1500): string {
  return fenceTurns(history, { maxChars: maxCharsPerTurn });
}

export function join(...parts: string[]): string {
  return parts.filter((p) => p.trim().length > 0).join("\n\n");
}
