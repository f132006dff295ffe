/** Zod schemas for the structured replies of router, grader and answerer (all fields required, nullable where optional). */
import { z } from "zod";

export const routeReplySchema = z.object({
  route: z
    .enum(["none", "rag", "agentic"])
    .describe("none: answer without retrieval; rag: one search; agentic: several steps"),
  reason: z.string().describe("One short sentence."),
  reply: z.string().nullable().describe("For route none: the reply to the user. Otherwise null."),
});
export type RouteReply = z.infer<typeof routeReplySchema>;

export const gradeReplySchema = z.object({
  subQuestions: z.array(
    z.object({
      index: z.number().int().describe("The sub-question's number, from 1."),
      coverage: z.number().describe("0..1: how much of what the sub-question needs the passages state."),
      supporting: z.array(z.number().int()).describe("Numbers n of the passages that support the answer."),
      missing: z.array(z.string()).describe("Facts, names or terms still missing; empty when covered."),
    }),
  ),
});
export type GradeReply = z.infer<typeof gradeReplySchema>;

export const answerReplySchema = z.object({
  status: z.enum(["answered", "partial", "refused"]),
  claims: z.array(
    z.object({
      text: z.string().describe("One claim, in your words, without citation markers."),
      citations: z
        .array(
          z.object({
            n: z.number().int().describe("The passage number."),
            quote: z.string().describe("Exact words copied from passage n that support the claim."),
          }),
        )
        .describe("At least one citation per claim."),
    }),
  ),
  reason: z
    .string()
    .nullable()
    .describe("For partial or refused: what was searched and what is missing. Otherwise null."),
});
export type AnswerReply = z.infer<typeof answerReplySchema>;

/** The router after one search: a route, and for `rag` the cited answer from the passages in the same reply. */
export const routeAnswerReplySchema = z.object({
  route: z
    .enum(["none", "rag", "agentic"])
    .describe("none: reply without the sources; rag: the passages answer the question; agentic: search more"),
  reason: z.string().describe("One short sentence."),
  reply: z.string().nullable().describe("For route none: the reply to the user. Otherwise null."),
  answer: answerReplySchema.nullable().describe("For route rag: the answer from the passages. Otherwise null."),
  searches: z
    .array(z.string())
    .nullable()
    .describe("For route agentic: up to 4 search queries for what is still missing, or null."),
});
export type RouteAnswerReply = z.infer<typeof routeAnswerReplySchema>;

/** The grader that may answer: its grades, and when the passages answer every sub-question, the answer. */
export const gradeAnswerReplySchema = gradeReplySchema.extend({
  answer: answerReplySchema
    .nullable()
    .describe("When the passages fully answer every sub-question: the answer from them. Otherwise null."),
});
export type GradeAnswerReply = z.infer<typeof gradeAnswerReplySchema>;

const nextSearches = z
  .array(z.string())
  .nullable()
  .describe(
    "When the passages do not suffice: up to 4 search queries for what is still missing; [] when nothing more is " +
      "worth searching; null when a table must be queried or you cannot tell. Null when they suffice.",
  );

/** The grader that also plans (the planner's model): its grades, and the next step's searches. */
export const gradeSearchReplySchema = gradeReplySchema.extend({ searches: nextSearches });

/**
 * The grader that plans and answers: its grades; when the passages suffice, the answer; otherwise the next
 * searches, and when nothing more is worth searching ([]), the best answer the passages allow (partial or refused).
 */
export const gradeNextReplySchema = gradeReplySchema.extend({
  answer: answerReplySchema
    .nullable()
    .describe(
      "When the passages fully answer every sub-question, or when searches is []: the answer from the passages " +
        "(partial or refused when they do not answer all of it). Otherwise null.",
    ),
  searches: nextSearches,
});
export type GradeNextReply = z.infer<typeof gradeNextReplySchema>;
