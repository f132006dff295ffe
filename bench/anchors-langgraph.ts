/**
 * A real LangGraph.js agentic-RAG graph, in the shape of LangGraph's agentic RAG tutorial:
 *
 *   START -> generate_query_or_respond -(tool call)-> retrieve -> grade_documents? -> generate_answer -> END
 *                     |  ^                                            |
 *                     |  +------------ rewrite_question <---(no)------+
 *                     +-(no tool call: answers directly)-> END
 *
 * The model is the bench's simulator behind LangChain's own chat-model interface (a `BaseChatModel` with
 * `bindTools`, so `withStructuredOutput` works as for a hosted model); retrieval is ferret's search. One
 * difference from the tutorial, in the graph's favour: grading and generating read every passage retrieved
 * so far, not only the last tool message, so parallel or multi-round retrieval is not lost.
 */
import type { CallbackManagerForLLMRun } from "@langchain/core/callbacks/manager";
import { BaseChatModel, type BaseChatModelCallOptions } from "@langchain/core/language_models/chat_models";
import { AIMessage, AIMessageChunk, type BaseMessage, HumanMessage, ToolMessage } from "@langchain/core/messages";
import type { ChatResult } from "@langchain/core/outputs";
import { tool } from "@langchain/core/tools";
import { END, MessagesAnnotation, START, StateGraph } from "@langchain/langgraph";
import { ToolNode, toolsCondition } from "@langchain/langgraph/prebuilt";
import { z } from "zod";
import { fenceEvidence } from "../src/safety/fence.js";
import type { Passage } from "../src/spec/passage.js";
import type { SimulatedLlm, Task } from "./anchors-model.js";

export const RETRIEVE_TOOL = "retrieve";
export const GRADE_TOOL = "grade_documents";

interface SimulatedCallOptions extends BaseChatModelCallOptions {
  /** For plain-text calls: which node asks (`rewrite` or `generate`). */
  task?: Task;
}

function textOf(message: BaseMessage): string {
  const content = message.content;
  if (typeof content === "string") return content;
  return content.map((part) => ("text" in part && typeof part.text === "string" ? part.text : "")).join("");
}

/** Everything the model is shown: each message's text, and the tool calls (name and JSON arguments) it made. */
export function flattenMessages(messages: readonly BaseMessage[]): string {
  const out: string[] = [];
  for (const message of messages) {
    out.push(textOf(message));
    if (AIMessage.isInstance(message)) {
      for (const call of message.tool_calls ?? []) out.push(`${call.name} ${JSON.stringify(call.args)}`);
    }
  }
  return out.join("\n");
}

/** The simulator as a LangChain chat model. Tools bound decide what a call asks for. */
export class SimulatedChatModel extends BaseChatModel<SimulatedCallOptions> {
  constructor(
    readonly llm: SimulatedLlm,
    readonly boundTools: readonly string[] = [],
  ) {
    super({});
  }

  _llmType(): string {
    return "bench-simulated";
  }

  override bindTools(tools: Parameters<NonNullable<BaseChatModel["bindTools"]>>[0]): SimulatedChatModel {
    const names = tools.map((t) => {
      const named = t as { name?: unknown; function?: { name?: unknown } };
      return String(named.function?.name ?? named.name);
    });
    return new SimulatedChatModel(this.llm, [...this.boundTools, ...names]);
  }

  async _generate(
    messages: BaseMessage[],
    options: this["ParsedCallOptions"],
    _run?: CallbackManagerForLLMRun,
  ): Promise<ChatResult> {
    const text = flattenMessages(messages);
    const task: Task | undefined = this.boundTools.includes(RETRIEVE_TOOL)
      ? "act"
      : this.boundTools.includes(GRADE_TOOL)
        ? "grade_binary"
        : options.task;
    if (!task) throw new Error("anchors: a LangGraph node called the model without tools or a task");
    const reply = await this.llm.call({ task, text, searchTool: RETRIEVE_TOOL });
    const usage_metadata = {
      input_tokens: reply.inputTokens,
      output_tokens: reply.outputTokens,
      total_tokens: reply.inputTokens + reply.outputTokens,
    };
    let message: AIMessageChunk;
    if (reply.kind === "object" && task === "grade_binary") {
      const id = `call-${this.llm.log.length}-0`;
      message = new AIMessageChunk({
        content: "",
        tool_calls: [{ id, name: GRADE_TOOL, args: reply.value, type: "tool_call" }],
        usage_metadata,
      });
    } else if (reply.kind === "calls") {
      // Ids unique over the whole run: ToolNode skips a call whose id it has already answered.
      const tool_calls = reply.calls.map((c, i) => ({
        id: `call-${this.llm.log.length}-${i}`,
        name: c.tool,
        args: c.args,
        type: "tool_call" as const,
      }));
      message = new AIMessageChunk({ content: reply.text, tool_calls, usage_metadata });
    } else {
      const content = reply.kind === "text" ? reply.text : JSON.stringify(reply.value);
      message = new AIMessageChunk({ content, usage_metadata });
    }
    return { generations: [{ text: textOf(message), message }] };
  }
}

const GRADE_SCHEMA = z.object({
  binary_score: z.enum(["yes", "no"]).describe("'yes' if the passages answer the question, 'no' if not"),
});

const gradePrompt = (question: string, context: string) =>
  `You grade whether retrieved passages answer a user's question.\n\nPassages:\n${context}\n\n` +
  `Question: ${question}\n\nReply with binary_score 'yes' when the passages answer it, otherwise 'no'.`;

const rewritePrompt = (question: string) =>
  "Think about what the question below is really asking, and write a better question to search for.\n\n" +
  `Question: ${question}\n\nThe improved question:`;

const generatePrompt = (question: string, context: string) =>
  "Answer the question from the retrieved passages only. If they do not answer it, say that you do not know. " +
  `Keep the answer short.\n\nQuestion: ${question}\n\nPassages:\n${context}`;

/** Every passage block retrieved so far, in order. */
function retrieved(messages: readonly BaseMessage[]): string {
  return messages
    .filter((m) => ToolMessage.isInstance(m))
    .map(textOf)
    .join("\n\n");
}

/** The graph, compiled, over `search` (ferret's search under the asker's principal) and the simulated model. */
export function agenticRagGraph(options: { llm: SimulatedLlm; search: (query: string) => Promise<Passage[]> }) {
  const model = new SimulatedChatModel(options.llm);
  const retrieve = tool(async ({ query }) => fenceEvidence(await options.search(query)), {
    name: RETRIEVE_TOOL,
    description: "Search the knowledge sources and return the passages that match a query.",
    schema: z.object({ query: z.string().describe("Words to search for.") }),
  });
  const question = (messages: readonly BaseMessage[]) => (messages[0] ? textOf(messages[0]) : "");

  async function generateQueryOrRespond(state: typeof MessagesAnnotation.State) {
    const response = await model.bindTools([retrieve]).invoke(state.messages);
    return { messages: [response] };
  }

  async function gradeDocuments(state: typeof MessagesAnnotation.State) {
    const grader = model.withStructuredOutput(GRADE_SCHEMA, { name: GRADE_TOOL });
    const graded = await grader.invoke([
      new HumanMessage(gradePrompt(question(state.messages), retrieved(state.messages))),
    ]);
    return graded.binary_score === "yes" ? "generate_answer" : "rewrite_question";
  }

  async function rewriteQuestion(state: typeof MessagesAnnotation.State) {
    const response = await model.invoke([new HumanMessage(rewritePrompt(question(state.messages)))], {
      task: "rewrite",
    });
    return { messages: [new HumanMessage(textOf(response))] };
  }

  async function generateAnswer(state: typeof MessagesAnnotation.State) {
    const prompt = generatePrompt(question(state.messages), retrieved(state.messages));
    const response = await model.invoke([new HumanMessage(prompt)], { task: "generate" });
    return { messages: [response] };
  }

  return new StateGraph(MessagesAnnotation)
    .addNode("generate_query_or_respond", generateQueryOrRespond)
    .addNode("retrieve", new ToolNode([retrieve]))
    .addNode("rewrite_question", rewriteQuestion)
    .addNode("generate_answer", generateAnswer)
    .addEdge(START, "generate_query_or_respond")
    .addConditionalEdges("generate_query_or_respond", toolsCondition, { tools: "retrieve", [END]: END })
    .addConditionalEdges("retrieve", gradeDocuments, ["generate_answer", "rewrite_question"])
    .addEdge("generate_answer", END)
    .addEdge("rewrite_question", "generate_query_or_respond")
    .compile();
}

/** Runs the graph on a question; the answer is the last message's text. */
export async function askGraph(graph: ReturnType<typeof agenticRagGraph>, questionText: string): Promise<string> {
  const result = await graph.invoke({ messages: [new HumanMessage(questionText)] }, { recursionLimit: 40 });
  const last = result.messages.at(-1);
  return last ? textOf(last) : "";
}
