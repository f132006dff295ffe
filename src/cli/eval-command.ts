import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type { Command } from "commander";
import { checkThresholds, type Thresholds } from "../eval/gate.js";
import { loadEvalSet } from "../eval/load-set.js";
import { formatHeadline, writeReport } from "../eval/report.js";
import { type AskFn, runEval } from "../eval/run-eval.js";
import type { Ferret } from "../ferret.js";
import type { Answer } from "../spec/answer.js";
import { InvalidInputError } from "../spec/errors.js";
import type { TraceEvent } from "../spec/trace.js";
import { oneOf, unitInterval, wholeNumber } from "./flag-parsers.js";
import { type GlobalOptions, openFerret, usesGlobalOptions } from "./options.js";

interface EvalFlags extends GlobalOptions {
  mode?: "auto" | "rag" | "agentic";
  limit?: number;
  split?: "dev" | "test";
  concurrency?: number;
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
      if (event.type === "answer-end") answer = event.answer;
    }
    if (!answer) throw new Error(`question ${q.id}: the run ended without an answer`);
    return { answer, events };
  };
}

function makeReportFolder(out: string): void {
  try {
    mkdirSync(out, { recursive: true });
  } catch (error) {
    const code = (error as { code?: string }).code ?? "error";
    throw new InvalidInputError(
      `cannot write the report folder ${resolve(out)} (${code}); name a writable one with --out DIR`,
      { field: "out", file: resolve(out) },
      error,
    );
  }
}

export function evalCommand(program: Command, setExit: (code: number) => void): void {
  usesGlobalOptions(
    program
      .command("eval")
      .argument("<set>", "evaluation-set folder (sources.json + questions.jsonl)")
      .description("ingest a set into a fresh store, ask every question, score and report")
      .option("--mode <mode>", "auto | rag | agentic", oneOf(["auto", "rag", "agentic"] as const), "auto")
      .option("--limit <n>", "only the first N questions", wholeNumber(1))
      .option(
        "--split <half>",
        "dev (even positions) | test (odd positions): half of the questions",
        oneOf(["dev", "test"] as const),
      )
      .option("--concurrency <n>", "questions in flight, 1..64", wholeNumber(1, 64), 1)
      .option("--out <dir>", "where to write results.jsonl, report.json, report.html")
      .option("--baseline <kind>", "also run a baseline in the same run: single-pass", oneOf(["single-pass"] as const))
      .option("--thresholds <file>", "fail (exit 1) when a metric is below its threshold for this set")
      .option(
        "--min-confidence <x>",
        "refuse answers whose confidence is below x (0..1; offline engine)",
        unitInterval,
      ),
  ).action(async (setDir: string, flags: EvalFlags) => {
    const set = loadEvalSet(setDir);
    // The report folder is made first: a folder that cannot be written fails now, not after every question.
    const out = flags.out ?? join("eval-out", set.name);
    makeReportFolder(out);
    const scratch = flags.db ? undefined : mkdtempSync(join(tmpdir(), "ferret-eval-"));
    const ferret = await openFerret({ ...flags, db: flags.db ?? join(scratch!, "eval.db") }, "create");
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
        limit: flags.limit,
        split: flags.split,
        concurrency: flags.concurrency ?? 1,
        onProgress: (done, total) => {
          if (done === total || Date.now() - lastShown > 1000) {
            lastShown = Date.now();
            log(`  asked ${done}/${total}`);
          }
        },
      });
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
