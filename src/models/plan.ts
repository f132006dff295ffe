/**
 * The planner with native tool calling: the state's tools are offered to the model (JSON Schema, no
 * `execute`: the loop runs them), parallel calls allowed. Tool arguments that are not valid JSON are
 * repaired with jsonrepair; if none of the calls can be used the model is asked once more, then the step
 * fails with ModelOutputError.
 */
import {
  generateText,
  InvalidToolInputError,
  type JSONSchema7,
  jsonSchema,
  type ModelMessage,
  type Tool,
  type ToolCallRepairFunction,
  tool,
} from "ai";
import { jsonrepair } from "jsonrepair";
import type { AgentState, LlmUsage, PlanResult, WithUsage } from "../spec/engine.js";
import { type CallSettings, callModel } from "./call.js";
import { ModelOutputError } from "./errors.js";
import { formatRetryPrompt, plannerPrompt, SUBQUESTIONS_TOOL, SUBQUESTIONS_TOOL_DESCRIPTION } from "./prompts.js";
import type { ResolvedModel } from "./resolve.js";

interface ParsedPlan {
  thought: string;
  subQuestions: string[];
  calls: PlanResult["calls"];
  invalid: { tool: string; input: unknown; error: string }[];
}

function buildTools(state: AgentState, offerSubQuestions: boolean): Record<string, Tool> {
  const tools: Record<string, Tool> = {};
  for (const t of state.tools) {
    tools[t.name] = tool({ description: t.description, inputSchema: jsonSchema(t.inputSchema as JSONSchema7) });
  }
  if (offerSubQuestions) {
    tools[SUBQUESTIONS_TOOL] = tool({
      description: SUBQUESTIONS_TOOL_DESCRIPTION,
      inputSchema: jsonSchema({
        type: "object",
        properties: { subQuestions: { type: "array", items: { type: "string" } } },
        required: ["subQuestions"],
        additionalProperties: false,
      }),
    });
  }
  return tools;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function errorText(error: unknown): string {
  if (InvalidToolInputError.isInstance(error)) return "the arguments are not valid JSON";
  return error instanceof Error ? error.message : String(error);
}

function readPlan(result: {
  text: string;
  toolCalls: { toolName: string; input: unknown; invalid?: boolean; error?: unknown }[];
}): ParsedPlan {
  const plan: ParsedPlan = { thought: result.text.trim(), subQuestions: [], calls: [], invalid: [] };
  for (const call of result.toolCalls) {
    const badInput = call.invalid && InvalidToolInputError.isInstance(call.error);
    if (badInput || !isRecord(call.input)) {
      const reason = badInput ? errorText(call.error) : "the arguments are not a JSON object";
      plan.invalid.push({ tool: call.toolName, input: call.input, error: reason });
    } else if (call.toolName === SUBQUESTIONS_TOOL) {
      const list = call.input.subQuestions;
      if (Array.isArray(list)) plan.subQuestions = list.map(String).filter((q) => q.trim().length > 0);
    } else {
      // Unknown tool names pass through: the loop turns them into readable errors for the next step.
      plan.calls.push({ tool: call.toolName, args: call.input });
    }
  }
  return plan;
}

/** Repairs tool arguments that are almost JSON; returns null (leave invalid) when it cannot. */
const repairArguments: ToolCallRepairFunction<Record<string, Tool>> = async ({ toolCall, error }) => {
  if (!InvalidToolInputError.isInstance(error)) return null;
  try {
    return { ...toolCall, input: JSON.stringify(JSON.parse(jsonrepair(toolCall.input))) };
  } catch {
    return null;
  }
};

function invalidSummary(invalid: ParsedPlan["invalid"]): string {
  return invalid
    .map(
      (c) => `${c.tool}: ${c.error} (${typeof c.input === "string" ? c.input.slice(0, 200) : JSON.stringify(c.input)})`,
    )
    .join("; ");
}

export async function planWithTools(options: {
  state: AgentState;
  model: ResolvedModel;
  signal: AbortSignal;
  settings: CallSettings;
}): Promise<WithUsage<PlanResult>> {
  const { state, model } = options;
  const offerSubQuestions =
    state.subQuestions.length === 0 &&
    state.calls.length === 0 &&
    state.evidence.length === 0 &&
    !state.tools.some((t) => t.name === SUBQUESTIONS_TOOL);
  const tools = buildTools(state, offerSubQuestions);
  const prompt = plannerPrompt(state, { offerSubQuestions });
  const usage: LlmUsage[] = [];
  const attempt = async (messages: ModelMessage[]) => {
    const { result, usage: entry } = await callModel({
      role: "planner",
      model,
      signal: options.signal,
      settings: options.settings,
      run: (abortSignal) =>
        generateText({
          model: model.model,
          system: prompt.system,
          messages,
          tools,
          toolChoice: "auto",
          maxRetries: 0,
          abortSignal,
          experimental_repairToolCall: repairArguments,
        }),
    });
    usage.push(entry);
    return readPlan(result);
  };

  const first: ModelMessage[] = [{ role: "user", content: prompt.prompt }];
  let plan = await attempt(first);
  if (plan.invalid.length > 0 && plan.calls.length === 0) {
    const error = `these tool calls could not be used: ${invalidSummary(plan.invalid)}`;
    const format = "tool calls whose arguments are a valid JSON object matching the tool's schema";
    plan = await attempt([
      ...first,
      { role: "user", content: formatRetryPrompt({ question: state.question, error, format }) },
    ]);
    if (plan.invalid.length > 0 && plan.calls.length === 0) {
      throw new ModelOutputError(
        `planner ${model.id} made no usable tool call after a retry: ${invalidSummary(plan.invalid)}`,
        {
          role: "planner",
          model: model.id,
          raw: JSON.stringify(plan.invalid),
          usage,
        },
      );
    }
  }
  const dropped = plan.invalid.length ? `\n(Dropped unusable calls: ${invalidSummary(plan.invalid)})` : "";
  return {
    thought: `${plan.thought}${dropped}`.trim(),
    subQuestions: plan.subQuestions.length ? plan.subQuestions : state.subQuestions,
    calls: plan.calls,
    done: plan.calls.length === 0 && plan.subQuestions.length === 0,
    usage,
  };
}
