/** The `models` section of `ferret.config.json`: named endpoints and per-model overrides. */
import { readFileSync } from "node:fs";
import { z } from "zod";
import { InvalidInputError } from "../spec/errors.js";

export const DEFAULT_CONFIG_FILE = "ferret.config.json";

const priceSchema = z.object({ input: z.number().nonnegative(), output: z.number().nonnegative() }).strict();

export const modelEntrySchema = z
  .object({
    /** Server base URL (required for `openai-compatible:NAME` unless given by flag or env). */
    baseUrl: z.string().url().optional(),
    /** Name of the environment variable holding the API key (preferred over `apiKey`). */
    apiKeyEnv: z.string().min(1).optional(),
    apiKey: z.string().min(1).optional(),
    /** The model id sent to the server; defaults to the name after the colon. */
    model: z.string().min(1).optional(),
    supportsTools: z.boolean().optional(),
    /** The server accepts JSON-schema response formats (openai-compatible only). */
    structuredOutputs: z.boolean().optional(),
    /** USD per million input and output tokens. */
    pricing: priceSchema.optional(),
  })
  .strict();

export type ModelConfigEntry = z.infer<typeof modelEntrySchema>;

const configSchema = z.object({ models: z.record(z.string(), modelEntrySchema).optional() }).passthrough();

export interface ModelsConfig {
  /** Keyed by `provider:model` or, for openai-compatible endpoints, by NAME alone. */
  models?: Record<string, ModelConfigEntry>;
}

/** Validates an already parsed config object; `file` names it in errors. */
export function parseModelsConfig(options: { value: unknown; file?: string }): ModelsConfig {
  const parsed = configSchema.safeParse(options.value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue?.path.join(".") ?? "";
    throw new InvalidInputError(
      `Invalid model config${field ? ` at ${field}` : ""}: ${issue?.message ?? "bad value"}`,
      {
        file: options.file,
        field,
      },
    );
  }
  return { models: parsed.data.models };
}

/** Reads and validates a config file. A missing or malformed file is an InvalidInputError naming it. */
export function loadModelsConfig(options: { file: string }): ModelsConfig {
  let text: string;
  try {
    text = readFileSync(options.file, "utf8");
  } catch (cause) {
    throw new InvalidInputError(`Cannot read model config ${options.file}`, { file: options.file }, cause);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (cause) {
    throw new InvalidInputError(`Model config ${options.file} is not valid JSON`, { file: options.file }, cause);
  }
  return parseModelsConfig({ value, file: options.file });
}
