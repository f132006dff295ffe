import { z } from "@hono/zod-openapi";
import { PRESET_NAMES, STOP_REASONS } from "../index.js";
import { citationShape } from "../spec/citation-schema.js";

/** Request and response shapes: every body is validated with these, and the OpenAPI document is made from them. */

export const ErrorSchema = z
  .object({
    error: z.object({ name: z.string(), message: z.string(), requestId: z.string() }),
  })
  .openapi("Error");

export const BudgetsSchema = z
  .object({
    maxSteps: z.number().int().positive().optional(),
    maxToolCalls: z.number().int().positive().optional(),
    maxTokens: z.number().int().positive().optional(),
    maxCostUsd: z.number().positive().optional(),
    timeoutMs: z.number().int().positive().optional(),
  })
  .strict()
  .openapi("Budgets", {
    description: "Lower the server's budgets for this run; values above its maxima are cut to them.",
  });

export const CheckpointsSchema = z
  .object({
    afterSearches: z.number().int().positive().max(1000).optional(),
    onNoResults: z.boolean().optional(),
    onLowConfidence: z.boolean().optional(),
    beforeAnswer: z.boolean().optional(),
  })
  .strict()
  .openapi("Checkpoints", {
    description:
      "Pause the run at these points; answer with POST /v1/runs/{id}/decision (it continues on its own after a timeout).",
  });

const SESSION_ID = z
  .string()
  .min(1)
  .max(128)
  .regex(/^[A-Za-z0-9._:-]+$/, "letters, digits and . _ : - only");

export const AskBodySchema = z
  .object({
    question: z.string().min(1),
    sessionId: SESSION_ID.optional(),
    mode: z.enum(["auto", "rag", "agentic"]).optional(),
    preset: z.enum(PRESET_NAMES).optional(),
    budgets: BudgetsSchema.optional(),
    checkpoints: CheckpointsSchema.optional(),
    history: z
      .array(z.object({ role: z.enum(["user", "assistant"]), content: z.string() }).strict())
      .max(200)
      .optional(),
  })
  .strict()
  .openapi("AskRequest");

/** `useChat`'s own body: the last user message is the question, the earlier ones the history. */
const UiPartSchema = z.object({ type: z.string().max(64), text: z.string().optional() }).passthrough();
const UiMessageSchema = z
  .object({
    id: z.string().max(256).optional(),
    role: z.enum(["system", "user", "assistant"]),
    parts: z.array(UiPartSchema).max(500),
  })
  .passthrough();

export const StreamBodySchema = z
  .union([
    AskBodySchema,
    z
      .object({
        id: z.string().max(256).optional(),
        messages: z.array(UiMessageSchema).min(1).max(200),
        trigger: z.enum(["submit-message", "regenerate-message"]).optional(),
        messageId: z.string().max(256).optional(),
        sessionId: SESSION_ID.optional(),
        mode: z.enum(["auto", "rag", "agentic"]).optional(),
        preset: z.enum(PRESET_NAMES).optional(),
        budgets: BudgetsSchema.optional(),
        checkpoints: CheckpointsSchema.optional(),
      })
      .passthrough(),
  ])
  .openapi("AskStreamRequest", {
    description: "Either an ask body, or the body `useChat` sends (`id`, `messages`, `trigger`).",
  });

export const CitationSchema = z.object(citationShape).openapi("Citation");

export const UsageSchema = z
  .object({
    llmCalls: z.number(),
    toolCalls: z.number(),
    inputTokens: z.number(),
    outputTokens: z.number(),
    costUsd: z.number(),
  })
  .openapi("Usage");

const AnswerStepSchema = z
  .object({
    step: z.number(),
    thought: z.string().optional(),
    subQuestions: z.array(z.string()).optional(),
    toolCalls: z.array(
      z.object({
        callId: z.string(),
        tool: z.string(),
        args: z.record(z.string(), z.unknown()),
        status: z.string(),
        passages: z.number(),
        rows: z.number().optional(),
        cached: z.boolean().optional(),
        ms: z.number(),
      }),
    ),
    grade: z.object({ sufficient: z.boolean(), threshold: z.number() }).optional(),
  })
  .openapi("AnswerStep");

export const AnswerSchema = z
  .object({
    status: z.enum(["answered", "partial", "refused"]),
    text: z.string(),
    citations: z.array(CitationSchema),
    stopReason: z.enum(STOP_REASONS),
    reason: z.string().optional(),
    unsupported: z.array(z.string()).optional(),
    steps: z.array(AnswerStepSchema),
    stepCount: z.number(),
    usage: UsageSchema,
    latencyMs: z.number(),
    runId: z.string(),
    traceId: z.string(),
    model: z.string(),
  })
  .passthrough()
  .openapi("Answer");

export const SearchBodySchema = z
  .object({
    query: z.string().min(1),
    sources: z.array(z.string().max(128)).max(100).optional(),
    k: z.number().int().min(1).max(100).optional(),
    since: z.string().max(40).optional(),
    docId: z.string().max(1024).optional(),
    mode: z.enum(["keyword", "vector", "hybrid"]).optional(),
  })
  .strict()
  .openapi("SearchRequest");

export const PassageSchema = z
  .object({
    id: z.string(),
    docId: z.string(),
    source: z.string(),
    title: z.string().optional(),
    section: z.string().optional(),
    text: z.string(),
    score: z.number(),
    updatedAt: z.string().optional(),
    start: z.number().optional(),
    end: z.number().optional(),
  })
  .openapi("Passage");

export const SourceSchema = z
  .object({
    name: z.string(),
    kind: z.enum(["documents", "table", "jsonl"]),
    description: z.string(),
    acl: z.array(z.string()),
    documents: z.number(),
    chunks: z.number(),
    lastIngestAt: z.string().optional().describe("When an ingest last changed the source's documents (ISO 8601)"),
    tables: z
      .array(
        z.object({
          name: z.string(),
          columns: z.array(z.object({ name: z.string(), type: z.string() })),
          primaryKey: z.string(),
        }),
      )
      .optional(),
  })
  .openapi("Source");

export const DocumentEntrySchema = z
  .object({ id: z.string(), source: z.string(), title: z.string(), updatedAt: z.string().optional() })
  .openapi("DocumentEntry");

export const DocumentSchema = z
  .object({
    id: z.string(),
    source: z.string(),
    title: z.string(),
    updatedAt: z.string().optional(),
    text: z.string(),
    metadata: z.record(z.string(), z.unknown()),
    chunks: z.array(
      z.object({
        id: z.string(),
        ordinal: z.number(),
        text: z.string(),
        section: z.array(z.string()),
        start: z.number(),
        end: z.number(),
      }),
    ),
  })
  .openapi("Document");

export const JobSchema = z
  .object({
    id: z.string(),
    source: z.string(),
    state: z.enum(["queued", "running", "done", "failed"]),
    createdAt: z.string(),
    finishedAt: z.string().optional(),
    files: z.number(),
    progress: z
      .object({ phase: z.string(), done: z.number(), total: z.number(), file: z.string().optional() })
      .optional(),
    summary: z
      .object({
        added: z.number(),
        updated: z.number(),
        unchanged: z.number(),
        chunks: z.number(),
        failed: z.array(z.object({ file: z.string(), reason: z.string() })),
        skipped: z.array(z.object({ file: z.string(), reason: z.string() })),
        warnings: z.array(z.object({ file: z.string(), message: z.string() })),
      })
      .passthrough()
      .optional(),
    error: z.object({ name: z.string(), message: z.string() }).optional(),
  })
  .openapi("Job");

export const RunSummarySchema = z
  .object({
    runId: z.string(),
    user: z.string(),
    question: z.string(),
    startedAt: z.string(),
    status: z.enum(["answered", "partial", "refused"]).optional(),
    stopReason: z.string().optional(),
    costUsd: z.number().optional(),
    latencyMs: z.number().optional(),
  })
  .openapi("RunSummary");

export const DecisionSchema = z
  .discriminatedUnion("action", [
    z.object({ action: z.literal("continue") }).strict(),
    z.object({ action: z.literal("answer_now") }).strict(),
    z.object({ action: z.literal("rephrase"), query: z.string().min(1).max(1000) }).strict(),
    z.object({ action: z.literal("stop") }).strict(),
  ])
  .openapi("CheckpointDecision");

export const SessionSchema = z
  .object({
    id: z.string(),
    turns: z.array(z.object({ role: z.enum(["user", "assistant"]), content: z.string(), at: z.string() })),
  })
  .openapi("Session");

export const ChatCompletionBodySchema = z
  .object({
    model: z.string().max(128),
    messages: z
      .array(
        z
          .object({
            role: z.enum(["system", "developer", "user", "assistant", "tool"]),
            content: z.union([
              z.string(),
              z.array(z.object({ type: z.string(), text: z.string().optional() }).passthrough()).max(100),
              z.null(),
            ]),
          })
          .passthrough(),
      )
      .min(1)
      .max(200),
    stream: z.boolean().optional(),
    user: z.string().max(256).optional(),
  })
  .passthrough()
  .openapi("ChatCompletionRequest");

export const SOURCE_NAME = z
  .string()
  .regex(/^[a-z][a-z0-9_]*$/, "a lower_snake_case source name")
  .max(128);
export { SESSION_ID };
