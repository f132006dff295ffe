import { createInterface } from "node:readline/promises";
import { type Command, InvalidArgumentError } from "commander";
import type { CheckpointRequest } from "../agent/options.js";
import type { AskOptions } from "../ferret.js";
import type { Preset } from "../spec/engine.js";
import type { CheckpointDecision } from "../spec/trace.js";
import { createEventFormatter, formatTrace } from "../trace/format.js";
import { collectWith, oneOf, unitInterval, wholeNumber } from "./flag-parsers.js";
import { answerJson, formatAnswer } from "./format.js";
import { addGlobalOptions, type GlobalOptions, openFerret, principalOf, print } from "./options.js";

interface AskFlags extends GlobalOptions {
  mode?: "auto" | "rag" | "agentic";
  preset?: Preset;
  maxSteps?: number;
  maxToolCalls?: number;
  timeoutMs?: number;
  session?: string;
  stream?: boolean;
  yes?: boolean;
  checkpoint?: string[];
}

const CHECKPOINT = /^(?:after-searches=\d{1,6}|after-searches|no-results|low-confidence|before-answer)$/;

function checkpointKind(value: string): string {
  if (!CHECKPOINT.test(value)) {
    throw new InvalidArgumentError("It must be after-searches=N, no-results, low-confidence or before-answer.");
  }
  return value;
}

function withAskOptions(cmd: Command): Command {
  return addGlobalOptions(
    cmd
      .option("--mode <mode>", "auto | rag | agentic", oneOf(["auto", "rag", "agentic"] as const), "auto")
      .option(
        "--preset <preset>",
        "conservative | balanced | thorough",
        oneOf(["conservative", "balanced", "thorough"] as const),
        "balanced",
      )
      .option("--max-steps <n>", "step budget", wholeNumber(1))
      .option("--max-tool-calls <n>", "tool call budget", wholeNumber(1))
      .option("--timeout-ms <n>", "time budget for the run", wholeNumber(1))
      .option("--session <id>", "keep the conversation under this id")
      .option(
        "--checkpoint <kind>",
        "pause at: after-searches=N | no-results | low-confidence | before-answer (repeatable)",
        collectWith(checkpointKind),
      )
      .option("--yes", "continue automatically at checkpoints")
      .option(
        "--min-confidence <x>",
        "refuse answers whose confidence is below x (0..1; offline engine)",
        unitInterval,
      ),
  );
}

/** Interactive checkpoint: asks on the terminal; continues by itself with --yes or without a terminal. */
async function askPerson(request: CheckpointRequest, auto: boolean): Promise<CheckpointDecision> {
  if (auto || !process.stdin.isTTY) return { action: "continue" };
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    const reply = await rl.question(
      `checkpoint (${request.kind}) after ${request.toolCalls} tool call(s), ${request.evidence.length} passage(s): [c]ontinue, [a]nswer now, [r]ephrase, [s]top? `,
    );
    const choice = reply.trim().toLowerCase();
    if (choice.startsWith("a")) return { action: "answer_now" };
    if (choice.startsWith("s")) return { action: "stop" };
    if (choice.startsWith("r")) return { action: "rephrase", query: (await rl.question("search for: ")).trim() };
    return { action: "continue" };
  } finally {
    rl.close();
  }
}

function askOptions(flags: AskFlags): AskOptions {
  const checkpoints: NonNullable<AskOptions["checkpoints"]> = {};
  for (const c of flags.checkpoint ?? []) {
    const [kind, value] = c.split("=");
    if (kind === "after-searches") checkpoints.afterSearches = Number(value ?? 3);
    if (kind === "no-results") checkpoints.onNoResults = true;
    if (kind === "low-confidence") checkpoints.onLowConfidence = true;
    if (kind === "before-answer") checkpoints.beforeAnswer = true;
  }
  const limits: NonNullable<AskOptions["limits"]> = {};
  if (flags.maxSteps !== undefined) limits.maxSteps = flags.maxSteps;
  if (flags.maxToolCalls !== undefined) limits.maxToolCalls = flags.maxToolCalls;
  if (flags.timeoutMs !== undefined) limits.timeoutMs = flags.timeoutMs;
  return {
    principal: principalOf(flags),
    mode: flags.mode,
    preset: flags.preset,
    limits,
    sessionId: flags.session,
    checkpoints,
    onCheckpoint: (request) => askPerson(request, flags.yes === true),
  };
}

export function askCommand(program: Command, setExit: (code: number) => void): void {
  withAskOptions(
    program
      .command("ask")
      .argument("<question>", "what to ask")
      .description("answer a question from the knowledge base, citing every claim")
      .option("--stream", "show each step as it happens"),
  ).action(async (question: string, flags: AskFlags) => {
    const ferret = await openFerret(flags, "existing");
    try {
      const options = askOptions(flags);
      let answer: import("../spec/answer.js").Answer | undefined;
      const formatEvent = createEventFormatter();
      for await (const event of ferret.stream(question, options)) {
        if (flags.stream && !flags.json) process.stderr.write(`${formatEvent(event)}\n`);
        if (flags.stream && flags.json) process.stdout.write(`${JSON.stringify(event)}\n`);
        if (event.type === "answer-end") answer = event.answer;
      }
      if (!answer) throw new Error("the run ended without an answer");
      if (flags.stream && flags.json) return;
      print(answerJson(answer), flags.json, () => formatAnswer(answer!));
      if (answer.status === "refused" && answer.stopReason !== "no_retrieval_needed") setExit(0);
    } finally {
      await ferret.close();
    }
  });
}

export function chatCommand(program: Command): void {
  withAskOptions(
    program.command("chat").description("a conversation: follow-ups are understood from the history"),
  ).action(async (flags: AskFlags) => {
    const ferret = await openFerret(flags, "existing");
    const sessionId = flags.session ?? `chat-${Date.now().toString(36)}`;
    const rl = createInterface({ input: process.stdin, output: process.stdout, terminal: process.stdin.isTTY });
    process.stdout.write(
      `ferret chat (session ${sessionId}, model ${ferret.engine.name}); empty line or Ctrl-D to quit\n`,
    );
    try {
      // Iterate the lines (not rl.question): piped input arrives at once, and no line may be lost between turns.
      process.stdout.write("you> ");
      for await (const raw of rl) {
        const line = raw.trim();
        if (!line) break;
        const formatEvent = createEventFormatter();
        for await (const event of ferret.stream(line, { ...askOptions({ ...flags, yes: true }), sessionId })) {
          if (event.type === "answer-end") process.stdout.write(`${formatAnswer(event.answer)}\n\n`);
          else if (event.type !== "answer-delta") process.stderr.write(`  ${formatEvent(event)}\n`);
        }
        process.stdout.write("you> ");
      }
    } finally {
      rl.close();
      await ferret.close();
    }
  });
}

export function traceCommand(program: Command, setExit: (code: number) => void): void {
  addGlobalOptions(
    program.command("trace").argument("<runId>", "the run id an answer reports").description("show a run's trace"),
  ).action(async (runId: string, flags: GlobalOptions) => {
    const ferret = await openFerret(flags, "existing");
    try {
      const record = await ferret.trace(runId, { principal: principalOf(flags) });
      if (!record) {
        process.stderr.write(`ferret: no run ${runId} (or not yours to read)\n`);
        setExit(1);
        return;
      }
      print(record, flags.json, () => formatTrace(record));
    } finally {
      await ferret.close();
    }
  });
}
