/**
 * The questions of the anchors bench: the example set shipped in `examples/acme`, and, when the shared
 * evaluation sets sit beside the repository (`../shared/eval`, or `FERRET_SHARED_EVAL`), a subset of northwind.
 * Only question types all three systems can attempt with one search tool: no SQL aggregation, no history, no
 * principal-specific questions.
 */
import { existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { type LoadedSet, loadEvalSet } from "../src/eval/load-set.js";
import type { EvalQuestion, QuestionType } from "../src/eval/schema.js";

export const ANCHOR_TYPES: readonly QuestionType[] = [
  "single_hop",
  "multi_hop",
  "multi_source",
  "comparison",
  "unanswerable",
  "no_retrieval",
];

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), "..");

export interface BenchSet {
  set: LoadedSet;
  questions: EvalQuestion[];
}

/** Questions of the anchor types, at most `perType` of each, in the set's order; none with history or a principal. */
export function pickQuestions(questions: readonly EvalQuestion[], perType: number): EvalQuestion[] {
  const taken = new Map<string, number>();
  return questions.filter((q) => {
    if (!ANCHOR_TYPES.includes(q.type) || q.history?.length || q.principal) return false;
    const n = taken.get(q.type) ?? 0;
    if (n >= perType) return false;
    taken.set(q.type, n + 1);
    return true;
  });
}

/** Where the shared evaluation sets are, if anywhere. */
export function sharedEvalDir(env: Record<string, string | undefined> = process.env): string | undefined {
  const dir = env.FERRET_SHARED_EVAL ?? join(REPO, "..", "shared", "eval");
  return existsSync(dir) ? dir : undefined;
}

/** acme (every anchor-type question), plus northwind (`perType` of each type) when the shared sets exist. */
export function benchSets(options: { perType: number; env?: Record<string, string | undefined> }): BenchSet[] {
  const acme = loadEvalSet(join(REPO, "examples", "acme"));
  const sets: BenchSet[] = [{ set: acme, questions: pickQuestions(acme.questions, Number.POSITIVE_INFINITY) }];
  const shared = sharedEvalDir(options.env);
  const northwind = shared ? join(shared, "northwind") : undefined;
  if (northwind && existsSync(join(northwind, "questions.jsonl"))) {
    const set = loadEvalSet(northwind);
    sets.push({ set, questions: pickQuestions(set.questions, options.perType) });
  }
  return sets;
}
