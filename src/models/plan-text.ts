/**
 * The planner for models without native tool calling: THINKING / TOOL / PARAMS text, parsed with repair;
 * one retry that shows the model its parse error, then ModelOutputError so the loop can fall back.
 */
import { generateText, type ModelMessage } from "ai";
import type { AgentState, LlmUsage, PlanResult, WithUsage } from "../spec/engine.js";
import { type CallSettings, callModel } from "./call.js";
import { ModelOutputError } from "./errors.js";
import { formatRetryPrompt, TEXT_PROTOCOL_FORMAT, textPlannerPrompt } from "./prompts.js";
import type { ResolvedModel } from "./resolve.js";
import { parseTextProtocol, type TextProtocolReply } from "./text-protocol.js";

type Parsed = { ok: true; reply: TextProtocolReply } | { ok: false; text: string; error: string };

export async function planWithText(options: {
  state: AgentState;
  model: ResolvedModel;
  signal: AbortSignal;
  settings: CallSettings;
}): Promise<WithUsage<PlanResult>> {
  const { state, model } = options;
  const offerSubQuestions = state.subQuestions.length === 0 && state.calls.length === 0 && state.evidence.length === 0;
  const prompt = textPlannerPrompt(state, { tools: state.tools, offerSubQuestions });
  const usage: LlmUsage[] = [];
  const attempt = async (messages: ModelMessage[]): Promise<Parsed> => {
    const { result, usage: entry } = await callModel({
      role: "planner",
      model,
      signal: options.signal,
      settings: options.settings,
      run: (abortSignal) =>
        generateText({ model: model.model, system: prompt.system, messages, maxRetries: 0, abortSignal }),
    });
    usage.push(entry);
    try {
      return { ok: true, reply: parseTextProtocol(result.text) };
    } catch (error) {
      return { ok: false, text: result.text, error: error instanceof Error ? error.message : String(error) };
    }
  };

  const first: ModelMessage[] = [{ role: "user", content: prompt.prompt }];
  let parsed = await attempt(first);
  if (!parsed.ok) {
    parsed = await attempt([
      ...first,
      { role: "assistant", content: parsed.text || "(empty reply)" },
      {
        role: "user",
        content: formatRetryPrompt({ question: state.question, error: parsed.error, format: TEXT_PROTOCOL_FORMAT }),
      },
    ]);
  }
  if (!parsed.ok) {
    throw new ModelOutputError(
      `planner reply from ${model.id} does not follow the text protocol after a retry: ${parsed.error}`,
      {
        role: "planner",
        model: model.id,
        raw: parsed.text,
        usage,
      },
    );
  }
  const { reply } = parsed;
  return {
    thought: reply.thought,
    subQuestions: reply.subQuestions.length ? reply.subQuestions : state.subQuestions,
    calls: reply.calls,
    done: reply.answer,
    usage,
  };
}
