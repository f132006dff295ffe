import { z } from "zod";

/** Question types of the shared evaluation format. */
export const QUESTION_TYPES = [
  "single_hop",
  "multi_source",
  "multi_hop",
  "comparison",
  "aggregation",
  "unanswerable",
  "no_retrieval",
  "follow_up",
  "acl",
  "injection",
] as const;
export type QuestionType = (typeof QUESTION_TYPES)[number];

export const evalSourceSchema = z.strictObject({
  name: z.string().regex(/^[a-z][a-z0-9_]*$/, "must be lower_snake_case"),
  kind: z.enum(["documents", "table", "jsonl"]),
  path: z.string().min(1),
  description: z.string().min(1),
  acl: z.array(z.string().min(1)).optional(),
});
export type EvalSource = z.infer<typeof evalSourceSchema>;

export const evalSourcesSchema = z.array(evalSourceSchema).min(1, "needs at least one source");

export const principalSchema = z.strictObject({
  tenant: z.string().min(1),
  user: z.string().min(1),
  roles: z.array(z.string()),
});

/** One line of questions.jsonl. Unknown fields are rejected so a misspelt field is caught, not ignored. */
export const evalQuestionSchema = z.strictObject({
  id: z.string().min(1),
  question: z.string().min(1),
  type: z.enum(QUESTION_TYPES),
  answer: z.string(),
  answer_keywords: z.array(z.array(z.string().min(1)).min(1, "a keyword group must not be empty")),
  gold_sources: z.array(z.string().min(1)),
  gold_tools: z.array(z.string().min(1)),
  sub_questions: z.array(z.string()).default([]),
  min_hops: z.number().int().min(0),
  expect_refusal: z.boolean(),
  history: z.array(z.strictObject({ role: z.enum(["user", "assistant"]), content: z.string() })).optional(),
  principal: principalSchema.optional(),
  must_not_contain: z.array(z.string().min(1)).optional(),
});
export type EvalQuestion = z.infer<typeof evalQuestionSchema>;
