/**
 * The simulated model behind the AI SDK's own model interface (`MockLanguageModelV3` from `ai/test`), as
 * ferret's LLM engine and a plain AI SDK tool loop call it; and that tool loop: `generateText` with a search
 * tool and `stopWhen: stepCountIs(n)`.
 */
import { generateText, stepCountIs, tool } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import { z } from "zod";
import type { ResolvedModel } from "../src/models/resolve.js";
import { fenceEvidence } from "../src/safety/fence.js";
import type { Passage } from "../src/spec/passage.js";
import type { ModelRequest, SimulatedLlm } from "./anchors-model.js";

type CallOptions = Parameters<MockLanguageModelV3["doGenerate"]>[0];
type Content = Awaited<ReturnType<MockLanguageModelV3["doGenerate"]>>["content"][number];

/** Everything the model is shown, as text: system, messages, tool calls (name and JSON input) and tool results. */
export function flattenPrompt(prompt: CallOptions["prompt"]): string {
  const out: string[] = [];
  for (const message of prompt) {
    if (message.role === "system") {
      out.push(message.content);
      continue;
    }
    for (const part of message.content) {
      if (part.type === "text" || part.type === "reasoning") out.push(part.text);
      else if (part.type === "tool-call") out.push(`${part.toolName} ${JSON.stringify(part.input)}`);
      else if (part.type === "tool-result") {
        const output = part.output;
        out.push("value" in output && typeof output.value === "string" ? output.value : JSON.stringify(output));
      }
    }
  }
  return out.join("\n");
}

/** A V3 language model whose every call goes to the simulator; `taskOf` says what each call asks for. */
export function simulatedLanguageModel(
  llm: SimulatedLlm,
  taskOf: (options: CallOptions) => Omit<ModelRequest, "text">,
): MockLanguageModelV3 {
  return new MockLanguageModelV3({
    provider: "bench",
    modelId: "simulated",
    doGenerate: async (options) => {
      const request = { ...taskOf(options), text: flattenPrompt(options.prompt) };
      const reply = await llm.call(request);
      const content: Content[] = [];
      if (reply.kind === "object") content.push({ type: "text", text: JSON.stringify(reply.value) });
      else if (reply.text) content.push({ type: "text", text: reply.text });
      if (reply.kind === "calls") {
        reply.calls.forEach((call, i) => {
          const toolCallId = `call-${llm.log.length}-${i}`;
          content.push({ type: "tool-call", toolCallId, toolName: call.tool, input: JSON.stringify(call.args) });
        });
      }
      const calls = reply.kind === "calls" && reply.calls.length > 0;
      return {
        content,
        finishReason: { unified: calls ? "tool-calls" : "stop", raw: undefined },
        usage: {
          inputTokens: {
            total: reply.inputTokens,
            noCache: reply.inputTokens,
            cacheRead: undefined,
            cacheWrite: undefined,
          },
          outputTokens: { total: reply.outputTokens, text: reply.outputTokens, reasoning: undefined },
        },
        warnings: [],
      };
    },
  });
}

/** Structured-output names of ferret's LLM engine, by what they ask for. */
const FERRET_SCHEMAS: Record<string, Omit<ModelRequest, "text">> = {
  route: { task: "route" },
  route_or_answer: { task: "route" },
  evidence_grade: { task: "grade" },
  evidence_grade_or_answer: { task: "grade", answers: true },
  evidence_grade_next: { task: "grade", plans: true },
  evidence_grade_next_or_answer: { task: "grade", answers: true, plans: true },
  cited_answer: { task: "answer" },
};

/** What ferret's LLM engine asks in a call: a structured reply by its schema's name, or a plan with tools. */
export function ferretTask(options: CallOptions): Omit<ModelRequest, "text"> {
  const format = options.responseFormat;
  if (format?.type === "json") {
    const request = format.name ? FERRET_SCHEMAS[format.name] : undefined;
    if (!request) throw new Error(`anchors: ferret asked for an unknown structured reply '${format.name}'`);
    return request;
  }
  if (options.tools?.some((t) => t.name === "search")) return { task: "plan", searchTool: "search" };
  throw new Error("anchors: ferret made a call the simulator does not know (plain text without tools)");
}

/** The simulator as a resolved model for `createLlmEngine`: tool calling and structured outputs on, no price. */
export function simulatedResolvedModel(llm: SimulatedLlm): ResolvedModel {
  return {
    id: "openai-compatible:simulated",
    provider: "openai-compatible",
    modelId: "simulated",
    model: simulatedLanguageModel(llm, ferretTask),
    supportsTools: true,
    structuredOutputs: true,
    pricing: { input: 0, output: 0, source: "user" },
  };
}

export const LOOP_SYSTEM =
  "You answer questions about the user's knowledge sources. Use the search tool to find passages; search again " +
  "with other words or for the parts still missing; answer only from the passages, and say so when they do not answer.";

/** A plain AI SDK tool loop: `generateText` with one search tool, up to `maxSteps` steps. */
export async function aiSdkLoop(options: {
  llm: SimulatedLlm;
  question: string;
  search: (query: string) => Promise<Passage[]>;
  maxSteps: number;
}): Promise<{ text: string; steps: number }> {
  const model = simulatedLanguageModel(options.llm, () => ({ task: "act", searchTool: "search" }));
  const result = await generateText({
    model,
    system: LOOP_SYSTEM,
    prompt: options.question,
    tools: {
      search: tool({
        description: "Search the knowledge sources for passages relevant to a query.",
        inputSchema: z.object({ query: z.string().describe("Words to search for.") }),
        execute: async ({ query }) => fenceEvidence(await options.search(query)),
      }),
    },
    stopWhen: stepCountIs(options.maxSteps),
    maxRetries: 0,
  });
  return { text: result.text, steps: result.steps.length };
}
