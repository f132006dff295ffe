import type { Answer, EvidenceItem } from "../spec/answer.js";
import type { Principal } from "../spec/principal.js";
import type { RunRecord, StoreV1 } from "../spec/store.js";
import type { TraceEvent } from "../spec/trace.js";

/** What replaces text a reader may no longer see. */
export const REDACTED = "[redacted]";
export const REDACTED_ANSWER = "[redacted: this run read passages from sources or documents you can no longer read]";

/**
 * Table tools of runs saved before `tool-call-start` carried the tool's own `reads`; newer events say it
 * themselves, from the tool definition.
 */
const LEGACY_TABLE_TOOLS: ReadonlySet<string> = new Set(["run_sql", "describe_table", "list_tables"]);

interface DocRef {
  /** Absent only in citations of runs saved before citations named their source. */
  source: string;
  docId: string;
}

const refKey = (ref: DocRef) => `${ref.source}\u0000${ref.docId}`;

/**
 * Runs saved before events were discriminated by `type` (as AI SDK stream parts are) tagged them `kind`, and
 * their answers' `steps` was a count; they read as if saved today (a count-only answer lists no steps). The record is returned unchanged when every event has a `type`.
 */
export function upgradeEvents(record: RunRecord): RunRecord {
  const legacy = (e: unknown): e is { kind: unknown } =>
    typeof e === "object" && e !== null && !("type" in e) && "kind" in e;
  const answer = record.answer as (Omit<Answer, "steps"> & { steps: unknown }) | undefined;
  const countOnly = answer !== undefined && typeof answer.steps === "number";
  if (!record.events.some(legacy) && !countOnly) return record;
  const events = record.events.map((e) => {
    if (!legacy(e)) return e;
    const { kind, ...rest } = e;
    return { type: kind, ...rest };
  });
  // Answers saved before `steps` listed the steps held only their number.
  if (countOnly) return { ...record, events, answer: { ...answer, steps: [], stepCount: answer.steps } };
  return { ...record, events };
}

/** Every document a run was shown: the passages of its tool results and of its answer's evidence. */
export function documentsRead(record: RunRecord): DocRef[] {
  const refs = new Map<string, DocRef>();
  const add = (ref: DocRef) => refs.set(refKey(ref), { source: ref.source, docId: ref.docId });
  for (const event of record.events as TraceEvent[]) {
    if (event?.type === "tool-call-end") for (const p of event.passages ?? []) add(p);
    if (event?.type === "answer-end") for (const e of event.answer?.evidence ?? []) add(e);
  }
  for (const e of (record.answer as Answer | undefined)?.evidence ?? []) add(e);
  return [...refs.values()];
}

/** True when the run called a table tool (its rows, counts and answer may come from any table it could read). */
function usedTables(record: RunRecord): boolean {
  return (record.events as TraceEvent[]).some(
    (e) =>
      (e?.type === "tool-call-end" && LEGACY_TABLE_TOOLS.has(e.tool)) ||
      (e?.type === "tool-call-start" &&
        (e.reads === "tables" || (e.reads === undefined && LEGACY_TABLE_TOOLS.has(e.call?.tool)))),
  );
}

/**
 * A stored run as `principal` may see it now. Reading a trace re-checks the reader's current right to what the
 * run read: every document its passages came from (source ACL, document ACL, still there), and, when it queried
 * tables, every source it could read then. When all of it is still readable the record is returned unchanged.
 * Otherwise the trace is redacted, not denied: it keeps its shape (events, steps, times, tools, statuses,
 * counts, stop reason, usage) and the reader's own question, but passages from what is no longer readable
 * become placeholders, and everything that could carry their text is dropped: the answer text and its
 * streamed deltas, citations and evidence of unreadable passages, plan thoughts and sub-questions, tool
 * arguments (later calls are built from what earlier ones found), hints, grades' missing terms and error
 * messages. `redacted` says how many passages were hidden.
 */
export async function readableRun(options: {
  record: RunRecord;
  store: StoreV1;
  principal: Principal;
}): Promise<RunRecord> {
  const record = upgradeEvents(options.record);
  const { store, principal } = options;
  const readable = new Set((await store.listSources(principal)).map((s) => s.name));
  const lost = new Set<string>();
  for (const ref of documentsRead(record)) {
    const doc = readable.has(ref.source)
      ? await store.getDocumentHeader(ref.docId, principal, { source: ref.source })
      : undefined;
    if (doc === undefined) lost.add(refKey(ref));
  }
  // A run saved before runs recorded their sources: which tables it could read is unknown, so it counts as lost
  // unless the reader holds every role.
  const tablesLost =
    usedTables(record) &&
    (record.sources === undefined
      ? !principal.roles.includes("*")
      : record.sources.some((source) => !readable.has(source)));
  if (lost.size === 0 && !tablesLost) return record;
  // Citations of runs saved before citations named their source match by document id alone.
  const lostIds = new Set([...lost].map((key) => key.slice(key.indexOf("\u0000") + 1)));
  return redactRun(record, (ref) => (ref.source === undefined ? lostIds.has(ref.docId) : lost.has(refKey(ref))));
}

/** The redaction `readableRun` applies; `hidden` says which documents the reader may no longer read. */
export function redactRun(record: RunRecord, hidden: (ref: DocRef) => boolean): RunRecord {
  let passages = 0;
  const placeholder = (p: { id: string; docId: string; source: string; score: number }) => {
    if (!hidden(p)) return p;
    passages++;
    return { id: REDACTED, docId: REDACTED, source: REDACTED, score: p.score };
  };
  const events = (record.events as TraceEvent[]).flatMap((e): unknown[] => {
    const base = { runId: e.runId, step: e.step, t: e.t };
    switch (e.type) {
      case "run-start":
        return [{ ...e, standaloneQuestion: e.standaloneQuestion === e.question ? e.question : REDACTED }];
      case "route":
        return [{ ...e, reason: REDACTED }];
      case "plan":
        return [
          {
            ...e,
            thought: REDACTED,
            subQuestions: e.subQuestions.map(() => REDACTED),
            calls: e.calls.map((c) => ({ ...c, args: {} })),
          },
        ];
      case "tool-call-start":
        return [{ ...e, call: { ...e.call, args: {} } }];
      case "tool-call-end": {
        const { hint: _hint, ...rest } = e;
        return [
          { ...rest, passages: e.passages.map(placeholder), ...(e.hint !== undefined ? { hint: REDACTED } : {}) },
        ];
      }
      case "grade":
        return [{ ...e, subQuestions: e.subQuestions.map((g) => ({ ...g, text: REDACTED, missing: [] })) }];
      case "answer-draft-delta":
      case "answer-delta":
        return [];
      case "answer-end":
        return [{ ...e, answer: redactAnswer(e.answer, hidden) }];
      case "error":
        return [{ ...e, message: REDACTED, cause: undefined }];
      case "checkpoint":
      case "llm-call":
      case "run-end":
        return [e];
      default:
        // An event this version does not know: keep that it happened, not what it said.
        return [{ type: (e as { type?: unknown }).type, ...base }];
    }
  });
  const out: RunRecord = { ...record, events, redacted: { passages } };
  if (record.answer !== undefined) out.answer = redactAnswer(record.answer as Answer, hidden);
  return out;
}

function redactAnswer(answer: Answer, hidden: (ref: DocRef) => boolean): Answer {
  const evidence: EvidenceItem[] = (answer.evidence ?? []).filter((e) => !hidden(e));
  const { reason: _reason, unsupported: _unsupported, ...rest } = answer;
  return {
    ...rest,
    text: REDACTED_ANSWER,
    citations: (answer.citations ?? []).filter((c) => !hidden({ source: c.source, docId: c.docId })),
    evidence,
    ...(answer.reason !== undefined ? { reason: REDACTED } : {}),
  };
}
