/**
 * Follow-up questions become standalone questions. Long histories are first summarised (one extra call),
 * and only the latest turns are shown verbatim.
 */
import { generateText } from "ai";
import type { AgentState, LlmUsage, WithUsage } from "../spec/engine.js";
import { type CallSettings, callModel } from "./call.js";
import { historySummaryPrompt, type PromptParts, rewritePrompt } from "./prompts.js";
import type { ResolvedModel } from "./resolve.js";

/** Turns kept verbatim; older turns are summarised when the history is longer than this or too long in text. */
export const RECENT_TURNS = 6;
export const LONG_HISTORY_CHARS = 6000;

async function complete(options: {
  role: "rewriter";
  prompt: PromptParts;
  model: ResolvedModel;
  signal: AbortSignal;
  settings: CallSettings;
}): Promise<{ text: string; usage: LlmUsage }> {
  const { result, usage } = await callModel({
    role: options.role,
    model: options.model,
    signal: options.signal,
    settings: options.settings,
    run: (abortSignal) =>
      generateText({
        model: options.model.model,
        system: options.prompt.system,
        prompt: options.prompt.prompt,
        maxRetries: 0,
        abortSignal,
      }),
  });
  return { text: result.text, usage };
}

function cleanQuestion(text: string): string {
  const noThink = text.replace(/<think>[\s\S]*?<\/think>/gi, "").trim();
  const line = noThink.split("\n").find((l) => l.trim().length > 0) ?? "";
  return line
    .replace(/^(standalone question|question)\s*:\s*/i, "")
    .replace(/^["'“”]+|["'“”]+$/g, "")
    .trim();
}

export async function rewriteQuestion(options: {
  question: string;
  history: AgentState["history"];
  model: ResolvedModel;
  signal: AbortSignal;
  settings: CallSettings;
}): Promise<WithUsage<{ standalone: string }>> {
  const { question, history } = options;
  if (history.length === 0) return { standalone: question, usage: [] };
  const usage: LlmUsage[] = [];
  const chars = history.reduce((n, t) => n + t.content.length, 0);
  let recent = history;
  let summary: string | undefined;
  if (history.length > RECENT_TURNS || chars > LONG_HISTORY_CHARS) {
    const older = history.slice(0, Math.max(0, history.length - RECENT_TURNS));
    recent = history.slice(older.length);
    if (older.length > 0) {
      const done = await complete({
        ...options,
        role: "rewriter",
        prompt: historySummaryPrompt({ question, history: older }),
      });
      usage.push(done.usage);
      summary = done.text.trim();
    }
  }
  const done = await complete({
    ...options,
    role: "rewriter",
    prompt: rewritePrompt({ question, history: recent, summary }),
  });
  usage.push(done.usage);
  const standalone = cleanQuestion(done.text);
  return { standalone: standalone || question, usage };
}
