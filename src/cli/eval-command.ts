import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Command } from "commander";
import { checkThresholds, type Thresholds } from "../eval/gate.js";
import { loadEvalSet } from "../eval/load-set.js";
import { formatHeadline, writeReport } from "../eval/report.js";
import { type AskFn, runEval } from "../eval/run-eval.js";
import { createFerret, type Ferret } from "../ferret.js";
import type { Answer } from "../spec/answer.js";
import type { TraceEvent } from "../spec/trace.js";
import { addGlobalOptions, type GlobalOptions } from "./options.js";

interface EvalFlags extends GlobalOptions {
  mode?: "auto" | "rag" | "agentic";
  limit?: string;
  concurrency?: string;
  out?: string;
  baseline?: string;
  thresholds?: string;
}

function askWith(ferret: Ferret, mode: "auto" | "rag" | "agentic"): AskFn {
  return async (q, principal) => {
    const events: TraceEvent[] = [];
    let answer: Answer | undefined;
    for await (const event of ferret.stream(q.question, { principal, history: q.history, mode })) {
      events.push(event);
      if (event.kind === "answer-end") answer = event.answer;
    }
    if (!answer) throw new Error(`question ${q.id}: the run ended without an answer`);
    return { answer, events };
  };
}

export function evalCommand(program: Command, setExit: (code: number) => void): void {
  addGlobalOptions(
    program
      .command("eval")
      .argument("<set>", "evaluation-set folder (sources.json + questions.jsonl)")
      .description("ingest a set into a fresh store, ask every question, score and report")
      .option("--mode <mode>", "auto | rag | agentic", "auto")
      .option("--limit <n>", "only the first N questions")
      .option("--concurrency <n>", "questions in flight", "1")
      .option("--out <dir>", "where to write results.jsonl, report.json, report.html")
      .option("--baseline <kind>", "also run a baseline in the same run: single-pass")
      .option("--thresholds <file>", "fail (exit 1) when a metric is below its threshold for this set"),
  ).action(async (setDir: string, flags: EvalFlags) => {
    const set = loadEvalSet(setDir);
    const scratch = flags.db ? undefined : mkdtempSync(join(tmpdir(), "ferret-eval-"));
    const ferret = await createFerret({
      db: flags.db ?? join(scratch!, "eval.db"),
      embedder: flags.embedder ?? process.env.FERRET_EMBEDDER,
      model: flags.model ?? process.env.FERRET_MODEL ?? "offline",
      baseUrl: flags.baseUrl,
      apiKey: flags.apiKey,
      reranker: flags.reranker ?? process.env.FERRET_RERANKER,
      retrieval: flags.retrieval,
      cache: flags.cache !== false,
    });
    const log = (line: string) => {
      if (!flags.json) process.stderr.write(`${line}\n`);
    };
    try {
      log(`ingesting ${set.name} for tenant ${set.tenant} …`);
      const summary = await ferret.ingest(set.dir, { tenant: set.tenant, prune: true });
      log(
        `  ${summary.added + summary.updated + summary.unchanged} documents, ${summary.chunks} chunks, ${summary.failed.length} failed`,
      );
      let lastShown = 0;
      const report = await runEval({
        set,
        ask: askWith(ferret, flags.mode ?? "auto"),
        baselineAsk: flags.baseline === "single-pass" ? askWith(ferret, "rag") : undefined,
        limit: flags.limit ? Number(flags.limit) : undefined,
        concurrency: Number(flags.concurrency ?? 1),
        onProgress: (done, total) => {
          if (done === total || Date.now() - lastShown > 1000) {
            lastShown = Date.now();
            log(`  asked ${done}/${total}`);
          }
        },
      });
      const out = flags.out ?? join("eval-out", set.name);
      const files = writeReport(report, out);
      if (flags.json)
        process.stdout.write(
          `${JSON.stringify({ files, aggregates: report.aggregates, deltas: report.deltas }, null, 2)}\n`,
        );
      else process.stdout.write(`${formatHeadline(report)}\n\nreport: ${files.html}\n`);
      if (flags.thresholds) {
        const thresholds = JSON.parse(readFileSync(flags.thresholds, "utf8")) as Thresholds;
        const failures = checkThresholds(report, thresholds);
        for (const f of failures) process.stderr.write(`gate: ${f.message}\n`);
        if (failures.length > 0) setExit(1);
        else log(`gate: ${set.name} meets every threshold in ${flags.thresholds}`);
      }
    } finally {
      await ferret.close();
      if (scratch) rmSync(scratch, { recursive: true, force: true });
    }
  });
}
