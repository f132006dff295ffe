import { createInterface } from "node:readline/promises";
import { type Command, InvalidArgumentError } from "commander";
import type { CheckpointRequest } from "../agent/options.js";
import { PRESET_NAMES, type Preset } from "../config/presets.js";
import type { AskOptions, Ferret } from "../ferret.js";
import type { Answer } from "../spec/answer.js";
import type { CheckpointDecision, TraceEvent } from "../spec/trace.js";
import { createEventFormatter, formatTrace } from "../trace/format.js";
import { createDraftPreview } from "./draft-preview.js";
import { EXIT } from "./exit-codes.js";
import { collectWith, oneOf, unitInterval, wholeNumber } from "./flag-parsers.js";
import { answerJson, formatAnswer, formatSources } from "./format.js";
import { type GlobalOptions, openFerret, principalOf, print, usesGlobalOptions } from "./options.js";

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
  return usesGlobalOptions(
    cmd
      .option("--mode <mode>", "auto | rag | agentic (default auto)", oneOf(["auto", "rag", "agentic"] as const))
      .option("--preset <preset>", "conservative | balanced | thorough (default balanced)", oneOf(PRESET_NAMES))
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

/** Error events that mean a model or embedder could not be used (not a refusal from the evidence). */
const INFRASTRUCTURE = new Set(["UpstreamError", "AI_APICallError", "AI_RetryError", "AI_LoadAPIKeyError"]);

/** Runs a question; returns the answer and the infrastructure failures seen on the way. */
async function run(
  ferret: Ferret,
  question: string,
  options: AskOptions,
  onEvent: (event: TraceEvent) => void = () => {},
): Promise<{ answer: Answer; failures: string[] }> {
  let answer: Answer | undefined;
  const failures: string[] = [];
  for await (const event of ferret.stream(question, options)) {
    onEvent(event);
    if (event.type === "error" && INFRASTRUCTURE.has(event.name)) failures.push(event.message);
    if (event.type === "answer-end") answer = event.answer;
  }
  if (!answer) throw new Error("the run ended without an answer");
  return { answer, failures };
}

/**
 * An unreachable model is not a refusal: when the run did not answer and a model or embedder failed on the
 * way, the command says so and exits 3 (the answer is still printed with --json, for programs).
 */
function reportInfrastructure(answer: Answer, failures: string[]): boolean {
  if (failures.length === 0) return false;
  if (answer.status === "answered") {
    process.stderr.write(`ferret: warning: ${failures[0]}\n`);
    return false;
  }
  process.stderr.write(
    `ferret: ${answer.model} could not be used: ${failures[failures.length - 1]}\n` +
      "Check the model and its server with `ferret doctor`.\n",
  );
  return true;
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
      const formatEvent = createEventFormatter();
      // An LLM's answer is shown as it is written; the checked answer, with its citations, follows.
      const preview = createDraftPreview(process.stdout);
      const { answer, failures } = await run(ferret, question, askOptions(flags), (event) => {
        if (event.type === "answer-draft-delta") {
          if (!flags.json) preview.write(event.text); // --json output keeps its shape
          return;
        }
        if (flags.stream && !flags.json) process.stderr.write(`${formatEvent(event)}\n`);
        if (flags.stream && flags.json) process.stdout.write(`${JSON.stringify(event)}\n`);
      });
      preview.end();
      const broken = reportInfrastructure(answer, failures);
      if (broken) setExit(EXIT.infrastructure);
      if (flags.stream && flags.json) return;
      if (flags.json) print(answerJson(answer), true, () => "");
      else if (!broken) print(answer, false, () => formatAnswer(answer));
    } finally {
      await ferret.close();
    }
  });
}

const CHAT_HELP = [
  "/sources  the sources you may read",
  "/trace    the trace of the last answer",
  "/new      start a new conversation (forget the history)",
  "/exit     quit (also /quit, exit, quit, Ctrl-D)",
].join("\n");

const QUIT = new Set(["/exit", "/quit", "exit", "quit", ":q"]);

export function chatCommand(program: Command): void {
  withAskOptions(
    program.command("chat").description("a conversation: follow-ups are understood from the history"),
  ).action(async (flags: AskFlags) => {
    const ferret = await openFerret(flags, "existing");
    const newSession = () => `chat-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 6)}`;
    let sessionId = flags.session ?? newSession();
    let lastRun: string | undefined;
    const principal = principalOf(flags);
    const rl = createInterface({ input: process.stdin, output: process.stdout, terminal: process.stdin.isTTY });
    const say = (text: string) => process.stdout.write(`${text}\n`);
    say(`ferret chat (model ${ferret.engine.name}); /help for commands, /exit or Ctrl-D to quit`);
    try {
      // Iterate the lines (not rl.question): piped input arrives at once, and no line may be lost between turns.
      process.stdout.write("you> ");
      for await (const raw of rl) {
        const line = raw.trim();
        if (QUIT.has(line.toLowerCase())) break;
        if (line === "/help") say(CHAT_HELP);
        else if (line === "/new") {
          sessionId = newSession();
          lastRun = undefined;
          say("(new conversation)");
        } else if (line === "/sources") say(formatSources(await ferret.sources({ principal })));
        else if (line === "/trace") {
          const record = lastRun ? await ferret.trace(lastRun, { principal }) : undefined;
          say(record ? formatTrace(record) : "(no answer yet in this conversation)");
        } else if (line.startsWith("/")) say(`unknown command ${line.split(/\s/)[0]}; /help lists them`);
        else if (line) {
          const preview = createDraftPreview(process.stdout);
          const { answer, failures } = await run(
            ferret,
            line,
            { ...askOptions({ ...flags, yes: true }), sessionId },
            (event) => {
              if (event.type === "answer-draft-delta") preview.write(event.text);
            },
          );
          preview.end();
          lastRun = answer.runId;
          if (!reportInfrastructure(answer, failures)) say(`${formatAnswer(answer)}\n`);
        }
        process.stdout.write("you> ");
      }
      process.stdout.write("\n");
    } finally {
      rl.close();
      await ferret.close();
    }
  });
}

export function traceCommand(program: Command, setExit: (code: number) => void): void {
  usesGlobalOptions(
    program.command("trace").argument("<runId>", "the run id an answer reports").description("show a run's trace"),
  ).action(async (runId: string, flags: GlobalOptions) => {
    const ferret = await openFerret(flags, "existing");
    try {
      const record = await ferret.trace(runId, { principal: principalOf(flags) });
      if (!record) {
        process.stderr.write(`ferret: no run ${runId} (or not yours to read)\n`);
        setExit(EXIT.failed);
        return;
      }
      print(record, flags.json, () => formatTrace(record));
    } finally {
      await ferret.close();
    }
  });
}
