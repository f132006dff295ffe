/** A small agent state for engine tests. */
import type { EvidenceItem } from "../../spec/answer.js";
import type { AgentState, CallRecord, ToolDescriptor } from "../../spec/engine.js";
import { passageKey } from "../../spec/passage.js";

export const searchTool: ToolDescriptor = {
  name: "search",
  description: "Search a source for passages.",
  inputSchema: {
    type: "object",
    properties: {
      query: { type: "string" },
      corpus: { type: "string", enum: ["handbook", "wiki"] },
      k: { type: "integer", minimum: 1, maximum: 20 },
    },
    required: ["query", "corpus"],
    additionalProperties: false,
  },
  parallelSafe: true,
};

export const listSourcesTool: ToolDescriptor = {
  name: "list_sources",
  description: "List the configured sources.",
  inputSchema: { type: "object", properties: {}, additionalProperties: false },
  parallelSafe: true,
};

export function evidence(n: number, text: string, score = 0.8): EvidenceItem {
  return { id: `doc-${n}::0`, docId: `doc-${n}`, source: "handbook", text, score, step: 1, callId: `c${n}` };
}

export function makeState(overrides: Partial<AgentState> = {}): AgentState {
  return {
    runId: "run-1",
    question: "How long is the refund window?",
    standaloneQuestion: "How long is the refund window?",
    history: [],
    sources: [
      { name: "handbook", tenant: "t", kind: "documents", description: "Company policies", acl: [], documents: 3, chunks: 12 },
      { name: "wiki", tenant: "t", kind: "documents", description: "Engineering wiki", acl: [], documents: 5, chunks: 40 },
    ],
    tools: [searchTool, listSourcesTool],
    step: 1,
    maxSteps: 5,
    preset: "balanced",
    evidence: [],
    calls: [],
    subQuestions: [],
    forceAnswer: false,
    ...overrides,
  };
}

/** A finished search call of part `part` that returned `items` (in that order), for an engine test's state. */
export function searchRecord(
  query: string,
  items: EvidenceItem[],
  options: { part?: number; corpus?: string; callId?: string } = {},
): CallRecord {
  const part = options.part ?? 0;
  return {
    call: {
      callId: options.callId ?? `c-${part}-${query}`,
      tool: "search",
      args: { corpus: options.corpus ?? "handbook", query },
      subQuestion: part,
    },
    step: 1,
    status: "ok",
    passageKeys: items.map(passageKey),
  };
}
