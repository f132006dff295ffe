/**
 * The shape of `ferret.config.json`, one zod schema. The JSON Schema editors complete from
 * (`ferret.config.schema.json`) is generated from it, so the two cannot drift (see config-schema.test.ts).
 */
import { z } from "zod";
import { modelEntrySchema } from "../models/config.js";
import { serveFileSchema } from "../server/config.js";
import { PRESET_NAMES } from "./presets.js";

/** `TENANT:USER:ROLE,ROLE` (roles may be empty). */
export const PRINCIPAL_PATTERN = /^[^:\s]+:[^:\s]+:[^:\s]*$/;

const principal = z
  .string()
  .regex(PRINCIPAL_PATTERN, "must be TENANT:USER:ROLE,ROLE")
  .describe("act as TENANT:USER:ROLE,ROLE");
const modelSpec = z.string().min(1).max(200);
const whole = z.number().int().min(1);

export const MODES = ["auto", "rag", "agentic"] as const;
export const RETRIEVALS = ["flat", "hierarchical", "auto"] as const;

export const askSectionSchema = z
  .object({
    mode: z.enum(MODES).optional().describe("auto: the router decides; rag: one retrieval pass; agentic: the loop"),
    preset: z.enum(PRESET_NAMES).optional().describe("behaviour preset: budgets and refusal threshold"),
    maxSteps: whole.optional().describe("step budget of a run"),
    maxToolCalls: whole.optional().describe("tool-call budget of a run"),
    timeoutMs: whole.optional().describe("time budget of a run, in milliseconds"),
    checkpoints: z
      .object({
        afterSearches: whole.optional().describe("pause each time this many more searches were made"),
        noResults: z.boolean().optional().describe("pause when a search finds nothing"),
        lowConfidence: z.boolean().optional().describe("pause when the evidence is weak"),
        beforeAnswer: z.boolean().optional().describe("pause before answering"),
      })
      .strict()
      .optional()
      .describe("where `ask` and `chat` pause for a person (continue automatically with --yes or without a terminal)"),
  })
  .strict();

export const sourceEntrySchema = z
  .object({
    path: z.string().min(1).describe("folder or file, relative to the config file"),
    name: z.string().min(1).max(100).optional().describe("source name (default: the folder or file name)"),
    description: z.string().max(2000).optional().describe("what the source holds; the agent routes by it"),
    acl: z.array(z.string().min(1)).optional().describe("roles allowed to read it (empty: everyone in the tenant)"),
    tenant: z.string().min(1).optional().describe("tenant to ingest for"),
    watch: z
      .boolean()
      .optional()
      .describe("keep it ingested while `ferret serve` runs: changed files are re-ingested, deleted ones removed"),
  })
  .strict();

export const configFileSchema = z
  .object({
    $schema: z.string().optional().describe("the JSON Schema of this file, for editors"),
    db: z.string().min(1).optional().describe("SQLite store file (relative to this file) or a postgres:// URL"),
    dbRead: z
      .string()
      .regex(/^postgres(ql)?:\/\//i, "a postgres:// URL")
      .optional()
      .describe("a read-only replica of the PostgreSQL `db` (postgres:// URL): searches and run_sql read there"),
    model: modelSpec.optional().describe("offline | openai:<m> | anthropic:<m> | ollama:<m> | openai-compatible:<m>"),
    roles: z
      .object({
        planner: modelSpec.optional(),
        grader: modelSpec.optional(),
        answerer: modelSpec.optional(),
      })
      .strict()
      .optional()
      .describe("a different model per role; unset roles use `model`"),
    embedder: modelSpec
      .optional()
      .describe("none | local:<model> | openai:<model> | ollama:<model> | openai-compatible:<model>"),
    reranker: modelSpec.optional().describe("lexical | local:<model>"),
    baseUrl: z.string().url().optional().describe("base URL for openai-compatible and ollama"),
    retrieval: z.enum(RETRIEVALS).optional().describe("flat | hierarchical | auto"),
    cache: z.boolean().optional().describe("reuse results of repeated searches"),
    minConfidence: z.number().min(0).max(1).optional().describe("refuse offline answers below this confidence"),
    as: principal.optional(),
    ask: askSectionSchema.optional().describe("how `ask`, `chat` and `eval` run"),
    sources: z.array(sourceEntrySchema).max(1000).optional().describe("what `ferret ingest` (without a path) ingests"),
    models: z
      .record(z.string(), modelEntrySchema)
      .optional()
      .describe("named endpoints and per-model overrides, keyed by provider:model (or NAME for openai-compatible)"),
    serve: serveFileSchema.optional().describe("settings of `ferret serve`"),
    mcp: z.object({ as: principal.optional() }).strict().optional().describe("settings of `ferret mcp`"),
  })
  .strict();

export type ConfigFile = z.infer<typeof configFileSchema>;

/** The JSON Schema of `ferret.config.json`, as committed in `ferret.config.schema.json`. */
export function configJsonSchema(): Record<string, unknown> {
  return {
    ...z.toJSONSchema(configFileSchema, { target: "draft-7", io: "input" }),
    title: "ferret configuration (ferret.config.json)",
  };
}
